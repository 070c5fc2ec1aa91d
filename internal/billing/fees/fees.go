// Package fees is the staff side of the no-show and late-cancel fees a
// booking owes (the booking row's late_cancel_fee_minor and fee_status,
// set when a member cancels inside the venue's window): the list of fees,
// settling one paid outside card payments (a payment row of kind fee
// records the money) and waiving one. A fee leaves unpaid once: every
// transition is made under the booking's row lock from unpaid only, else
// 422 FEE_NOT_UNPAID. Partners hear of it through fee.settled and
// fee.waived; each leaves an audit entry.
package fees

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/viewer"
)

// Staff permissions of fees (the contract's names).
const (
	PermList    = "passes.manage"
	PermCollect = "billing.refunds.full"
)

// CodeNotUnpaid is the answer to a transition of a fee that is not unpaid.
const CodeNotUnpaid = "FEE_NOT_UNPAID"

// Kinds of fee.
const (
	KindLateCancel = "late_cancel"
	KindNoShow     = "no_show"
)

// Settlement methods of a fee paid outside card payments.
var Methods = []string{"cash", "bank_transfer", "card_terminal", "mobile_pay", "other"}

// authorize admits staff of the viewer's venue holding perm (owners hold
// every permission) and the venue's operator; API keys are refused.
func authorize(ctx context.Context, perm string) (*uuid.UUID, error) {
	switch v := viewer.FromContext(ctx).(type) {
	case viewer.User:
		if v.Org == uuid.Nil {
			return nil, apperr.AccessDenied("no_organization", "choose an active organization first")
		}
		if !v.HasPermission(perm) {
			return nil, apperr.AccessDenied("missing_permission", "a required staff permission is missing").
				With("required_permissions", []string{perm})
		}
		id := v.UserID
		return &id, nil
	case viewer.Operator:
		return nil, nil
	case viewer.APIKey:
		return nil, apperr.JWTOnly()
	default:
		return nil, apperr.Unauthorized("staff credentials are required")
	}
}

func notUnpaid(status string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeNotUnpaid,
		Message: "only an unpaid fee can be settled or waived"}).With("fee_status", status)
}

// Fee is one booking's fee with what staff see of it.
type Fee struct {
	Booking   *ent.Booking
	Kind      string
	Currency  string
	ClassName string
	StartTime time.Time
	Member    string
}

func kindOf(b *ent.Booking) string {
	if b.Status == booking.StatusNoShow {
		return KindNoShow
	}
	return KindLateCancel
}

// ListParams filter the list.
type ListParams struct {
	Status   string // unpaid (default), charged, settled, waived, all
	MemberID *uuid.UUID
	Limit    int
}

// List returns the venue's fees, newest cancellation first.
func List(ctx context.Context, c *ent.Client, p ListParams) ([]Fee, error) {
	if _, err := authorize(ctx, PermList); err != nil {
		return nil, err
	}
	q := c.Booking.Query().Where(booking.FeeStatusNotNil(), booking.LateCancelFeeMinorNotNil())
	switch p.Status {
	case "", "unpaid":
		q.Where(booking.FeeStatusEQ(booking.FeeStatusUnpaid))
	case "all":
	default:
		q.Where(booking.FeeStatusEQ(booking.FeeStatus(p.Status)))
	}
	if p.MemberID != nil {
		q.Where(booking.MemberID(*p.MemberID))
	}
	if p.Limit <= 0 {
		p.Limit = 100
	}
	return load(ctx, c, q.Order(ent.Desc(booking.FieldCancelledAt), ent.Desc(booking.FieldID)).Limit(p.Limit))
}

// View is one booking's fee as the list shows it, read after a change the
// caller was allowed to make.
func View(ctx context.Context, c *ent.Client, id uuid.UUID) (Fee, error) {
	fs, err := load(ctx, c, c.Booking.Query().Where(booking.ID(id)))
	if err != nil {
		return Fee{}, err
	}
	if len(fs) == 0 {
		return Fee{}, apperr.NotFound("fee")
	}
	return fs[0], nil
}

func load(ctx context.Context, c *ent.Client, q *ent.BookingQuery) ([]Fee, error) {
	rows, err := q.WithClassInstance(func(q *ent.ClassInstanceQuery) { q.WithClassType() }).
		WithMember(func(q *ent.MemberQuery) { q.WithUser() }).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("fees: list: %w", err)
	}
	cur, err := currency(ctx, c)
	if err != nil {
		return nil, err
	}
	out := make([]Fee, 0, len(rows))
	for _, b := range rows {
		f := Fee{Booking: b, Kind: kindOf(b), Currency: cur}
		if ci := b.Edges.ClassInstance; ci != nil {
			f.StartTime = ci.StartTime
			if ct := ci.Edges.ClassType; ct != nil {
				f.ClassName = ct.Name
			}
		}
		if m := b.Edges.Member; m != nil && m.Edges.User != nil {
			f.Member = strings.TrimSpace(m.Edges.User.FirstName + " " + m.Edges.User.LastName)
		}
		out = append(out, f)
	}
	return out, nil
}

func currency(ctx context.Context, c *ent.Client) (string, error) {
	org, err := c.Organization.Query().Select(organization.FieldCurrency).Only(ctx)
	if err != nil {
		return "", fmt.Errorf("fees: venue: %w", err)
	}
	return strings.ToUpper(org.Currency), nil
}

// lockUnpaid locks the booking's row and returns it while its fee is
// unpaid.
func lockUnpaid(ctx context.Context, tx *ent.Tx, id uuid.UUID) (*ent.Booking, error) {
	b, err := tx.Booking.Query().Where(booking.ID(id)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("fee")
	}
	if err != nil {
		return nil, err
	}
	if b.FeeStatus == nil || b.LateCancelFeeMinor == nil {
		return nil, apperr.NotFound("fee")
	}
	if *b.FeeStatus != booking.FeeStatusUnpaid {
		return nil, notUnpaid(string(*b.FeeStatus))
	}
	if err := liveCollection(ctx, tx, id); err != nil { // collect.go
		return nil, err
	}
	return b, nil
}

func eventData(b *ent.Booking, cur string) map[string]any {
	return map[string]any{"booking_id": b.ID.String(), "member_id": b.MemberID.String(), "kind": kindOf(b),
		"amount_minor": *b.LateCancelFeeMinor, "currency": cur, "fee_status": string(*b.FeeStatus)}
}

// Settle records a fee paid outside card payments (method, note): a
// succeeded payment row of kind fee holds the money, the fee is settled.
func Settle(ctx context.Context, c *ent.Client, bookingID uuid.UUID, method, note string) (*ent.Booking, *ent.Payment, error) {
	if _, err := authorize(ctx, PermCollect); err != nil {
		return nil, nil, err
	}
	var (
		out *ent.Booking
		pay *ent.Payment
	)
	err := events.WithTx(ctx, c, func(ctx context.Context, tx *ent.Tx) error {
		b, err := lockUnpaid(ctx, tx, bookingID)
		if err != nil {
			return err
		}
		cur, err := currency(ctx, tx.Client())
		if err != nil {
			return err
		}
		pay, err = tx.Payment.Create().SetMemberID(b.MemberID).SetNillablePassID(b.PassID).
			SetAmountMinor(*b.LateCancelFeeMinor).SetCurrency(cur).SetStatus(payment.StatusSucceeded).
			SetKind(payment.KindFee).SetPaidAt(time.Now()).Save(ctx)
		if err != nil {
			return err
		}
		if out, err = tx.Booking.UpdateOne(b).SetFeeStatus(booking.FeeStatusSettled).Save(ctx); err != nil {
			return err
		}
		d := eventData(out, cur)
		d["payment_id"], d["method"] = pay.ID.String(), method
		if _, err := events.Record(ctx, tx.Client(), events.FeeSettled, d); err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "fee.settled_externally", Target: b.ID.String(),
			Details: map[string]any{"payment_id": pay.ID.String(), "method": method, "note": note,
				"amount_minor": *b.LateCancelFeeMinor, "currency": cur}})
		return err
	})
	return out, pay, err
}

// Waive forgives an unpaid fee, with the staff member's reason.
func Waive(ctx context.Context, c *ent.Client, bookingID uuid.UUID, reason string) (*ent.Booking, error) {
	if _, err := authorize(ctx, PermCollect); err != nil {
		return nil, err
	}
	var out *ent.Booking
	err := events.WithTx(ctx, c, func(ctx context.Context, tx *ent.Tx) error {
		b, err := lockUnpaid(ctx, tx, bookingID)
		if err != nil {
			return err
		}
		cur, err := currency(ctx, tx.Client())
		if err != nil {
			return err
		}
		if out, err = tx.Booking.UpdateOne(b).SetFeeStatus(booking.FeeStatusWaived).Save(ctx); err != nil {
			return err
		}
		if _, err := events.Record(ctx, tx.Client(), events.FeeWaived, eventData(out, cur)); err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "fee.waived", Target: b.ID.String(),
			Details: map[string]any{"reason": reason, "amount_minor": *b.LateCancelFeeMinor, "currency": cur}})
		return err
	})
	return out, err
}

// Currency is the venue's currency, for presenting fees.
func Currency(ctx context.Context, c *ent.Client) (string, error) { return currency(ctx, c) }

package billing

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/payments"
)

// Flexible memberships for staff: the allowance read, a change of the
// selection from a renewal 1 to 24 cycles ahead, and how a scheduled change
// (the staff's or the member's) reaches the renewals: when the next renewal
// is the change's, a job gives the Stripe subscription the new period price
// (no proration), so that renewal's invoice charges it; the paid invoice of
// the first period at the new price moves the pass's selection (its class
// allowance) to the change and clears it.

// AuditFlexibleChanged is the audit action of a staff change of selection.
const AuditFlexibleChanged = "membership.flexible_change_scheduled"

// consumingStatuses are the bookings that use a class of the allowance.
var consumingStatuses = []booking.Status{booking.StatusConfirmed, booking.StatusCheckedIn, booking.StatusNoShow,
	booking.StatusLateCancelled}

// FlexAllowance is a flexible membership as staff read it.
type FlexAllowance struct {
	Pass        *ent.Pass
	PassType    *ent.PassType
	Selection   payments.Selection
	PriceMinor  int64
	Currency    string
	PeriodStart *time.Time
	PeriodEnd   *time.Time
	// Used counts the member's bookings on the pass of classes in the
	// current period that use the allowance (booked, attended, no-show,
	// late-cancelled); Remaining is nil for unlimited.
	Used      int
	Remaining *int
	// RenewalAmountMinor is what the subscription charges at the next
	// renewal (nil without one).
	RenewalAmountMinor *int64
	NextChange         *model.FlexibleChange
	Renewals           []payments.Renewal
}

// flexPass reads a flexible membership of the viewer's venue (404 for
// another venue's, an unknown one or a pass that is not one).
func (s *Service) flexPass(ctx context.Context, c *ent.Client, id uuid.UUID, lock bool) (*ent.Pass, *ent.PassType, error) {
	q := c.Pass.Query().Where(pass.ID(id))
	if lock {
		q.ForUpdate()
	}
	p, err := q.Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, passNotFound()
	}
	if err != nil {
		return nil, nil, err
	}
	pt, err := c.PassType.Get(ctx, p.PassTypeID)
	if err != nil {
		return nil, nil, err
	}
	if pt.PricingMode != passtype.PricingModeFlexibleQuantity || !pt.IsRecurring {
		return nil, nil, apperr.NotFound("flexible membership")
	}
	return p, pt, nil
}

// FlexibleAllowance reads a flexible membership's allowance: the current
// selection and its period price, the classes used in the current period,
// the next renewal's amount, the scheduled change and the renewals 1 to 24.
func (s *Service) FlexibleAllowance(ctx context.Context, id uuid.UUID) (*FlexAllowance, error) {
	p, pt, err := s.flexPass(ctx, s.client, id, false)
	if err != nil {
		return nil, err
	}
	sel := payments.PassSelection(p, pt.FlexiblePricingConfig)
	out := &FlexAllowance{Pass: p, PassType: pt, Selection: sel, PriceMinor: payments.PeriodPrice(p, pt),
		Currency: pt.Currency, NextChange: p.FlexibleChange, Renewals: payments.RenewalDates(p, pt, payments.MaxRenewal)}
	if p.ValidTo != nil {
		end := *p.ValidTo
		start := periodBefore(pt, end)
		if start.Before(p.ValidFrom) {
			start = p.ValidFrom
		}
		out.PeriodStart, out.PeriodEnd = &start, &end
		n, err := s.client.Booking.Query().Where(booking.PassID(p.ID), booking.StatusIn(consumingStatuses...),
			booking.HasClassInstanceWith(classinstance.StartTimeGTE(start), classinstance.StartTimeLT(end))).Count(ctx)
		if err != nil {
			return nil, err
		}
		out.Used = n
	}
	if !sel.Unlimited {
		r := max(sel.Quantity-out.Used, 0)
		out.Remaining = &r
	}
	if sub, err := s.client.Subscription.Query().Where(subscription.PassID(p.ID)).Only(ctx); err == nil {
		out.RenewalAmountMinor = &sub.AmountMinor
	} else if !ent.IsNotFound(err) {
		return nil, err
	}
	return out, nil
}

// periodBefore is the start of the billing period of pt that ends on end.
func periodBefore(pt *ent.PassType, end time.Time) time.Time {
	n := 1
	if pt.BillingIntervalCount != nil {
		n = *pt.BillingIntervalCount
	}
	if pt.BillingInterval == nil {
		return end
	}
	return addInterval(end, string(*pt.BillingInterval), -n)
}

// ChangeFlexible schedules, for staff, a change of a flexible membership's
// selection from renewal n (1 to 24): the venue's member change policy does
// not bind staff, the selection must be one the membership sells. It
// replaces any change scheduled before (the member's too), is audited, and
// reaches the renewals like a member's change. Refusals are 422
// VALIDATION_FAILED with details.reason selection_unavailable,
// renewal_not_allowed or pass_not_active.
func (s *Service) ChangeFlexible(ctx context.Context, id uuid.UUID, sel payments.Selection, n int, reason string) (*payments.FlexibleChange, error) {
	if n < 1 || n > payments.MaxRenewal {
		return nil, apperr.Validation("renewal", "renewal is 1 to 24")
	}
	var out *payments.FlexibleChange
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		p, pt, err := s.flexPass(ctx, tx.Client(), id, true)
		if err != nil {
			return err
		}
		if p.Status != pass.StatusActive {
			return flexRefusal("pass_not_active", "only an active membership can be changed")
		}
		price, ok := payments.FlexiblePrice(pt.FlexiblePricingConfig, sel, pt.Currency)
		if !ok {
			return flexRefusal("selection_unavailable", "the membership does not sell that selection")
		}
		rs := payments.RenewalDates(p, pt, n)
		if len(rs) < n {
			return flexRefusal("renewal_not_allowed", "the membership has no such renewal").With("renewal", n)
		}
		cur := payments.PassSelection(p, pt.FlexiblePricingConfig)
		now := s.now().UTC().Truncate(time.Second)
		ch := &model.FlexibleChange{Kind: sel.Kind(), Renewal: n, EffectiveOn: rs[n-1].Date.Format(time.DateOnly),
			PriceMinor: price, Currency: pt.Currency, ScheduledAt: now.Format(time.RFC3339)}
		if !sel.Unlimited {
			ch.Quantity = sel.Quantity
		}
		replaced := p.FlexibleChange
		if p, err = tx.Pass.UpdateOne(p).SetFlexibleChange(ch).Save(ctx); err != nil {
			return err
		}
		details := map[string]any{"member_id": p.MemberID.String(), "from": cur.AllowanceLabel(), "to": sel.AllowanceLabel(),
			"from_price_minor": payments.PeriodPrice(p, pt), "to_price_minor": price, "currency": pt.Currency,
			"renewal": n, "effective_on": ch.EffectiveOn, "reason": reason}
		if replaced != nil {
			details["replaced"] = replaced
		}
		if _, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditFlexibleChanged, Target: "pass:" + p.ID.String(),
			Details: details}); err != nil {
			return err
		}
		if err := schedulePrice(ctx, tx, p); err != nil {
			return err
		}
		out = &payments.FlexibleChange{Pass: p, From: cur, To: sel, FromPrice: payments.PeriodPrice(p, pt), ToPrice: price,
			Currency: pt.Currency, Renewal: n, EffectiveOn: rs[n-1].Date, ScheduledAt: &now, Replaced: replaced}
		return nil
	})
	return out, err
}

func flexRefusal(reason, msg string) *apperr.Error {
	return refusal(http.StatusUnprocessableEntity, "VALIDATION_FAILED", msg, nil).With("reason", reason)
}

// FlexPriceArgs is the job that gives a flexible membership's subscription
// the period price of its scheduled change before the renewal that starts
// it: queued in the transaction that scheduled the change (renewal 1) or
// that settled the renewal before the change's.
type FlexPriceArgs struct {
	PassID         string `json:"pass_id"`
	OrganizationID string `json:"organization_id"`
}

// Kind implements river.JobArgs.
func (FlexPriceArgs) Kind() string { return "billing.flexible_price" }

func init() {
	payments.RegisterFlexibleChangeHook(schedulePrice)
	payments.RegisterWorkers(func(w *river.Workers, p *payments.Service) error {
		return river.AddWorkerSafely(w, river.WorkFunc(func(ctx context.Context, job *river.Job[FlexPriceArgs]) error {
			org, err := uuid.Parse(job.Args.OrganizationID)
			if err != nil {
				return river.JobCancel(err)
			}
			id, err := uuid.Parse(job.Args.PassID)
			if err != nil {
				return river.JobCancel(err)
			}
			return New(p).PushFlexiblePrice(inVenue(ctx, org), id)
		}))
	})
}

// nextRenewalPrice is what the next renewal of membership p charges: the
// price of a flexible change that starts there, else the period price.
func nextRenewalPrice(p *ent.Pass, pt *ent.PassType) int64 {
	if ch := p.FlexibleChange; ch != nil && p.ValidTo != nil && ch.EffectiveOn == p.ValidTo.Format(time.DateOnly) {
		return ch.PriceMinor
	}
	return payments.PeriodPrice(p, pt)
}

// schedulePrice queues the price job when p has a scheduled change: the job
// gives the subscription's schedule the change's phase (flexschedule.go).
func schedulePrice(ctx context.Context, tx *ent.Tx, p *ent.Pass) error {
	if p.FlexibleChange == nil || p.ValidTo == nil {
		return nil
	}
	return events.EnqueueJobs(ctx, river.InsertManyParams{Args: FlexPriceArgs{PassID: p.ID.String(), OrganizationID: p.OrganizationID.String()}})
}

// PushFlexiblePrice gives the subscription of flexible membership id the
// phases of its scheduled change: a phase at the change's price from the
// change's renewal on (scheduleFlexible). Without a change, or before the
// renewals started (Start prices the pass as it is), it changes nothing.
func (s *Service) PushFlexiblePrice(ctx context.Context, id uuid.UUID) error {
	p, err := s.client.Pass.Get(ctx, id)
	if err != nil {
		return fmt.Errorf("billing: flexible price: %w", err)
	}
	if p.FlexibleChange == nil || p.ValidTo == nil {
		return nil
	}
	sub, err := s.client.Subscription.Query().Where(subscription.PassID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil // no renewals yet: Start prices the pass as it is
	}
	if err != nil {
		return err
	}
	if sub.ProcessorSubscriptionID == nil || sub.CanceledAt != nil {
		return nil
	}
	return s.scheduleFlexible(ctx, p, sub)
}

// flexAfterRenewal runs in the transaction that settled a renewal invoice
// of sub's pass: a change whose first period the invoice pays becomes the
// pass's selection; a change that starts at the next renewal gets its price
// job.
func (s *Service) flexAfterRenewal(ctx context.Context, tx *ent.Tx, sub *ent.Subscription, row *ent.Invoice) error {
	p, err := tx.Pass.Query().Where(pass.ID(sub.PassID)).ForUpdate().Only(ctx)
	if err != nil {
		return err
	}
	if p.Status == pass.StatusPendingActivation { // a move to flexible: its first period is paid (flexadmin_move.go)
		if p, err = tx.Pass.UpdateOne(p).SetStatus(pass.StatusActive).Save(ctx); err != nil {
			return err
		}
	}
	ch := p.FlexibleChange
	if ch == nil {
		return nil
	}
	if row.PeriodStart != nil {
		start := dateOf(*row.PeriodStart).Format(time.DateOnly)
		if start >= ch.EffectiveOn {
			upd := tx.Pass.UpdateOne(p).ClearFlexibleChange().SetFlexibleKind(pass.FlexibleKind(ch.Kind))
			if ch.Kind == "unlimited" {
				upd.ClearFlexibleQuantity()
			} else {
				upd.SetFlexibleQuantity(ch.Quantity)
			}
			if ch.PassTypeID != "" {
				return applyMove(ctx, tx, upd, sub, ch) // flexadmin_move.go
			}
			return upd.Exec(ctx)
		}
	}
	return schedulePrice(ctx, tx, p)
}

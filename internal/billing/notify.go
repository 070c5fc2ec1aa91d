package billing

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/system"
)

// memberEmail is a member's own account e-mail ("" when none).
func (s *Service) memberEmail(ctx context.Context, tx *ent.Tx, row *ent.Invoice) (string, error) {
	// System call site: the member's own e-mail, to send them their receipt
	// or the notice of a declined renewal.
	m, err := tx.Member.Query().Where(member.ID(row.MemberID)).WithUser().Only(system.Allow(ctx, "billing.member_email"))
	if err != nil {
		return "", fmt.Errorf("billing: member: %w", err)
	}
	if m.Edges.User == nil {
		return "", nil
	}
	return m.Edges.User.Email, nil
}

// sendReceipt queues the renewal's receipt e-mail in the transaction that
// paid the invoice (the outbox): sent if and only if the payment commits.
func (s *Service) sendReceipt(ctx context.Context, tx *ent.Tx, row *ent.Invoice, pay *ent.Payment) error {
	to, err := s.memberEmail(ctx, tx, row)
	if err != nil || to == "" {
		return err
	}
	amount := money.Format(pay.AmountMinor, pay.Currency)
	_, err = notify.EnqueueEmail(ctx, tx.Client(), notify.DirectEmail{
		To: to, MemberID: row.MemberID, ToMember: true, Kind: "receipt",
		Subject:       "Receipt for invoice " + row.Number,
		Body:          fmt.Sprintf("Thank you. We received %s for invoice %s; your membership continues.", amount, row.Number),
		Data:          map[string]any{"invoice_id": row.ID.String(), "payment_id": pay.ID.String()},
		CorrelationID: "receipt:" + pay.ID.String(),
	})
	return err
}

// Notification kinds of a renewal's charge (category payments of the
// member's notification preferences).
const (
	KindRenewalFailed         = "payment.renewal_failed"
	KindRenewalActionRequired = "payment.renewal_action_required"
)

// tellMember queues, in tx, msg to the invoice's member by e-mail through
// the notification outbox under the member's rules, as the late fee's and
// the loyalty price's notices do: the venue's e-mail switch, the member's
// reachability, per-channel opt-out and payments preferences. A member it
// does not reach gets a skipped row with the reason, so a second delivery
// of the same event finds the correlation id and tells nothing twice.
func tellMember(ctx context.Context, tx *ent.Tx, row *ent.Invoice, msg notify.Message) error {
	if _, err := notify.EnqueueForMembers(ctx, tx.Client(), []uuid.UUID{row.MemberID}, notify.Email, msg); err != nil {
		return fmt.Errorf("billing: %s notice: %w", msg.Kind, err)
	}
	return nil
}

// toldAlready reports whether a notice with correlation id corr was
// queued (or skipped) before: the check that makes a retried request or a
// second delivery of the same event tell the member nothing twice.
func toldAlready(ctx context.Context, tx *ent.Tx, corr string) (bool, error) {
	return tx.NotificationDelivery.Query().Where(notificationdelivery.CorrelationID(corr)).Exist(ctx)
}

// tellFailure tells the member that a renewal was declined and how to pay
// it (kind payment.renewal_failed, tellMember's rules).
func (s *Service) tellFailure(ctx context.Context, tx *ent.Tx, row *ent.Invoice) error {
	amount := money.Format(row.TotalMinor-row.AmountPaidMinor, row.Currency)
	return tellMember(ctx, tx, row, notify.Message{
		Kind:    KindRenewalFailed,
		Subject: "Your membership payment was declined",
		Body: fmt.Sprintf("We could not charge %s for invoice %s. Update your card or pay the invoice in the app "+
			"(Invoices, Pay now) to keep your membership active.", amount, row.Number),
		Data:          map[string]any{"invoice_id": row.ID.String()},
		CorrelationID: fmt.Sprintf("renewal_failed:%s:%d", row.ID, row.AttemptCount),
	})
}

package billing

import (
	"context"
	"fmt"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
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

// tellFailure tells the member, through the transactional e-mail rule (a
// message about their own money, sent whatever the marketing preferences
// say), that a renewal was declined and how to pay it.
func (s *Service) tellFailure(ctx context.Context, tx *ent.Tx, row *ent.Invoice) error {
	to, err := s.memberEmail(ctx, tx, row)
	if err != nil || to == "" {
		return err
	}
	amount := money.Format(row.TotalMinor-row.AmountPaidMinor, row.Currency)
	_, err = notify.EnqueueEmail(ctx, tx.Client(), notify.DirectEmail{
		To: to, MemberID: row.MemberID, ToMember: true, Kind: "renewal_failed",
		Subject: "Your membership payment was declined",
		Body: fmt.Sprintf("We could not charge %s for invoice %s. Update your card or pay the invoice in the app "+
			"(Invoices, Pay now) to keep your membership active.", amount, row.Number),
		Data:          map[string]any{"invoice_id": row.ID.String()},
		CorrelationID: fmt.Sprintf("renewal_failed:%s:%d", row.ID, row.AttemptCount),
	})
	return err
}

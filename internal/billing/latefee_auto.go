package billing

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/paymentattempt"
)

// A renewal that Stripe's own automatic retry pays (invoice.paid with no
// retry of ours behind it) still owes its pending late fee. The venue
// expects the fee to follow the renewal the way it does after a recovery
// charge or the member's pay link, so the invoice event charges it right
// after, through the same late_fee_charge attempt path (chargeLateFee), to
// the subscription's card (else the member's default): one automatic try
// per fee. A declined or unanswered try leaves the fee pending for the
// staff's recovery charge or waiver, as a declined fee after our own retry
// does.

// Late fee outcomes of an invoice event (besides LateFeePaid, LateFeePending
// and LateFeeNone).
const (
	// LateFeeLeft is a fee the event left alone: tried before (its
	// attempt exists), or the renewal is being paid by a retry of ours,
	// which charges the fee itself.
	LateFeeLeft = "left"
)

// chargeLateFeeAfterPaid charges the pending late fee of invoiceID, a
// renewal Stripe reported paid, unless a late fee charge of it was tried
// already or a retry of ours paid (or is paying) the invoice. A duplicate
// or late invoice.paid finds the fee paid or tried and does nothing; a
// concurrent one loses the fee's live attempt slot (PAYMENT_PENDING) and
// leaves it to the winner. ctx acts in the invoice's venue.
func (s *Service) chargeLateFeeAfterPaid(ctx context.Context, subID, invoiceID uuid.UUID) (string, error) {
	fee, err := s.client.LateFee.Query().Where(latefee.InvoiceID(invoiceID), latefee.StatusEQ(latefee.StatusPending)).Only(ctx)
	if ent.IsNotFound(err) {
		return LateFeeNone, nil
	}
	if err != nil {
		return "", err
	}
	tried, err := s.client.PaymentAttempt.Query().Where(paymentattempt.PurposeEQ(LateFeePurpose),
		paymentattempt.SubjectID(fee.ID)).Exist(ctx)
	if err != nil || tried {
		return LateFeeLeft, err
	}
	ours, err := s.client.PaymentAttempt.Query().Where(paymentattempt.PurposeEQ(paymentattempt.PurposeInvoicePay),
		paymentattempt.SubjectID(invoiceID), paymentattempt.StateIn(paymentattempt.StateInFlight,
			paymentattempt.StateSucceeded, paymentattempt.StateRequiresAction)).Exist(ctx)
	if err != nil || ours {
		return LateFeeLeft, err
	}
	sub, err := s.client.Subscription.Get(ctx, subID)
	if err != nil {
		return "", err
	}
	if _, err := s.pay.Chargeable(ctx); err != nil {
		// The venue takes no cards now: the fee waits for staff.
		s.pay.Logger().WarnContext(ctx, "late fee left pending: card payments unavailable", "late_fee_id", fee.ID)
		return LateFeePending, nil
	}
	card, err := s.lateFeeCard(ctx, sub, "")
	if err != nil {
		s.pay.Logger().WarnContext(ctx, "late fee left pending: no card", "late_fee_id", fee.ID)
		return LateFeePending, nil
	}
	return s.chargeLateFee(ctx, invoiceID, sub.CustomerID, card), nil
}

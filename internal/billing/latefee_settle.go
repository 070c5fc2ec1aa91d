package billing

import (
	"context"
	"errors"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
)

// AuditLateFeeSettled is the audit action of a late fee staff settled by
// charging the member's saved card.
const AuditLateFeeSettled = "membership.late_fee_settled"

// Outcomes of SettleLateFee (LateFeeSettlement.ChargeStatus).
const (
	SettleLateFeePaid       = "paid"
	SettleLateFeeProcessing = "processing"
)

// LateFeeSettlement is what a settle did: the fee (paid, or still pending
// while its charge is processing) and its charge's status.
type LateFeeSettlement struct {
	Fee          *ent.LateFee
	ChargeStatus string
}

// SettleLateFee charges the oldest pending late fee of pass passID, alone,
// to the member's saved card (the subscription's, else the default), off
// session, through the late_fee_charge attempt path: one live charge per
// fee (a concurrent one is 409 PAYMENT_PENDING), the Stripe key derived
// from the attempt, an unknown outcome 409 UNKNOWN_WRITE_OUTCOME with a
// reconcile. 422 NO_PENDING_LATE_FEE without a pending fee, or while its
// renewal is unpaid (reason renewal_unpaid: the recovery charge takes
// both); 402 CHARGE_DECLINED when declined, also when the bank asks for
// authentication (the intent is cancelled: nobody is there to
// authenticate). A paid fee is audited membership.late_fee_settled.
func (s *Service) SettleLateFee(ctx context.Context, passID uuid.UUID) (*LateFeeSettlement, error) {
	_, sub, inv, err := s.recoveryTarget(ctx, passID)
	if err != nil {
		return nil, err // 404 for an unknown or another venue's pass
	}
	fee, err := s.PendingLateFee(ctx, passID)
	if err != nil {
		return nil, err
	}
	if fee == nil || sub == nil {
		return nil, noPendingLateFee()
	}
	if inv != nil && inv.ID == fee.InvoiceID {
		return nil, noPendingLateFee().With("reason", "renewal_unpaid")
	}
	if _, err := s.pay.Chargeable(ctx); err != nil {
		return nil, err
	}
	if out, err := s.settleLostCharge(ctx, passID, fee); out != nil || err != nil {
		return out, err
	}
	card, err := s.lateFeeCard(ctx, sub, "")
	if err != nil {
		return nil, err
	}
	res, err := s.pay.ChargeSubject(ctx, payments.ChargeParams{Purpose: LateFeePurpose, SubjectID: fee.ID,
		PaymentMethodID: card, CustomerID: sub.CustomerID, OffSession: true})
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) && ae.Code == payments.CodeAlreadyPaid {
			return nil, noPendingLateFee() // paid by a concurrent settle meanwhile
		}
		return nil, err
	}
	switch res.Status {
	case payments.StatusPaid:
	case "requires_action":
		if at, err := s.client.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(fee.ID)).Only(ctx); err == nil {
			_ = s.pay.CancelIntent(ctx, at.ID)
		}
		return nil, (&apperr.Error{Status: http.StatusPaymentRequired, Code: payments.CodeDeclined,
			Message: "the card was declined"}).With("failure_code", "authentication_required").
			With("decline_code", nil).With("next_step", "update_card")
	default:
		cur, err := s.client.LateFee.Get(ctx, fee.ID)
		if err != nil {
			return nil, err
		}
		return &LateFeeSettlement{Fee: cur, ChargeStatus: SettleLateFeeProcessing}, nil
	}
	return s.lateFeeSettled(ctx, passID, fee.ID, res.IntentID)
}

// settleLostCharge answers a settle asked again after its charge's answer
// was lost (the fee's attempt unknown): the charge's outcome is looked up
// at Stripe through the payments reconcile (it only reads: the intent by
// its id, or searched by the attempt id in its metadata; it never
// charges), and the settle answers it: paid (settled and audited, once),
// declined (402 CHARGE_DECLINED) or processing. Nil without an unknown
// attempt, when Stripe's answer is still not known (the settle then
// answers 409 UNKNOWN_WRITE_OUTCOME as before), or when Stripe never made
// the charge (the attempt canceled: the settle charges under a new one).
func (s *Service) settleLostCharge(ctx context.Context, passID uuid.UUID, fee *ent.LateFee) (*LateFeeSettlement, error) {
	at, err := s.client.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(fee.ID),
		paymentattempt.StateEQ(paymentattempt.StateUnknown)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := s.pay.Reconcile(ctx, at.ID); err != nil {
		s.pay.Logger().WarnContext(ctx, "late fee settle: look up the lost charge", "attempt_id", at.ID, "error", err)
		return nil, nil
	}
	if at, err = s.client.PaymentAttempt.Get(ctx, at.ID); err != nil {
		return nil, err
	}
	switch at.State {
	case paymentattempt.StateSucceeded:
		return s.lateFeeSettled(ctx, passID, fee.ID, deref(at.ProcessorObjectID))
	case paymentattempt.StateFailed:
		return nil, (&apperr.Error{Status: http.StatusPaymentRequired, Code: payments.CodeDeclined,
			Message: "the card was declined"}).With("failure_code", deref(at.FailureCode)).
			With("decline_code", at.DeclineCode).With("next_step", "update_card")
	case paymentattempt.StateRequiresAction: // as at the first answer: nobody is there to authenticate
		_ = s.pay.CancelIntent(ctx, at.ID)
		return nil, (&apperr.Error{Status: http.StatusPaymentRequired, Code: payments.CodeDeclined,
			Message: "the card was declined"}).With("failure_code", "authentication_required").
			With("decline_code", nil).With("next_step", "update_card")
	case paymentattempt.StateProcessing:
		cur, err := s.client.LateFee.Get(ctx, fee.ID)
		if err != nil {
			return nil, err
		}
		return &LateFeeSettlement{Fee: cur, ChargeStatus: SettleLateFeeProcessing}, nil
	}
	return nil, nil
}

// lateFeeSettled records the audit entry of fee feeID settled by the
// charge of intent intentID and answers the settlement.
func (s *Service) lateFeeSettled(ctx context.Context, passID, feeID uuid.UUID, intentID string) (*LateFeeSettlement, error) {
	var out *ent.LateFee
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.LateFee.Query().Where(latefee.ID(feeID)).Only(ctx)
		if err != nil {
			return err
		}
		out = cur
		details := map[string]any{"late_fee_id": cur.ID.String(), "invoice_id": cur.InvoiceID.String(),
			"member_id": cur.MemberID.String(), "amount_minor": cur.AmountMinor, "currency": cur.Currency,
			"payment_intent_id": intentID}
		if cur.PaymentID != nil {
			details["payment_id"] = cur.PaymentID.String()
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditLateFeeSettled, Target: "pass:" + passID.String(),
			Details: details})
		return err
	})
	if err != nil {
		return nil, err
	}
	return &LateFeeSettlement{Fee: out, ChargeStatus: SettleLateFeePaid}, nil
}

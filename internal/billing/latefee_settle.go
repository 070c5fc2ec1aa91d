package billing

import (
	"context"
	"errors"
	"net/http"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
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

// intentLateFeeSettle is the intent kind of a staff settle's charge: the
// digest of the request's Idempotency-Key (request_key) and whether the
// member is to be told (notify_client).
const intentLateFeeSettle = "late_fee_settle"

// SettleLateFeeRequest is a staff settle: the request's Idempotency-Key,
// kept (as a digest) on the charge's attempt so that the same request asked
// again answers that charge, and whether the member gets the receipt once
// the fee is paid (notify_client), now or when the bank's answer comes.
type SettleLateFeeRequest struct {
	Key    string
	Notify bool
}

// SettleLateFee charges the oldest pending late fee of pass passID, alone,
// to the member's saved card (the subscription's, else the default), off
// session, through the late_fee_charge attempt path: one live charge per
// fee (a concurrent one is 409 PAYMENT_PENDING), the Stripe key derived
// from the attempt, an unknown outcome 409 UNKNOWN_WRITE_OUTCOME with a
// reconcile. The same request asked again (its key on the attempt) answers
// what became of its charge, also when the reconcile or Stripe's event
// settled it meanwhile. 422 NO_PENDING_LATE_FEE without a pending fee, or
// while its renewal is unpaid (reason renewal_unpaid: the recovery charge
// takes both); 402 CHARGE_DECLINED when declined, also when the bank asks
// for authentication (the intent is cancelled: nobody is there to
// authenticate). A paid fee is audited membership.late_fee_settled.
func (s *Service) SettleLateFee(ctx context.Context, passID uuid.UUID, req SettleLateFeeRequest) (*LateFeeSettlement, error) {
	_, sub, inv, err := s.recoveryTarget(ctx, passID)
	if err != nil {
		return nil, err // 404 for an unknown or another venue's pass
	}
	if out, err := s.settleAgain(ctx, passID, req.Key); out != nil || err != nil {
		return out, err
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
	if fee, err = s.PendingLateFee(ctx, passID); err != nil {
		return nil, err
	} else if fee == nil {
		return nil, noPendingLateFee() // another request's lost charge paid it
	}
	card, err := s.lateFeeCard(ctx, sub, "")
	if err != nil {
		return nil, err
	}
	res, err := s.pay.ChargeSubject(ctx, payments.ChargeParams{Purpose: LateFeePurpose, SubjectID: fee.ID,
		PaymentMethodID: card, CustomerID: sub.CustomerID, OffSession: true,
		Intent: map[string]any{"kind": intentLateFeeSettle, "request_key": requestDigest(req.Key), "notify_client": req.Notify}})
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
		return nil, authenticationDeclined()
	default:
		cur, err := s.client.LateFee.Get(ctx, fee.ID)
		if err != nil {
			return nil, err
		}
		return &LateFeeSettlement{Fee: cur, ChargeStatus: SettleLateFeeProcessing}, nil
	}
	return s.lateFeeSettled(ctx, passID, fee.ID, res.IntentID)
}

// settleAgain answers a settle asked again with the key of an earlier one
// whose answer was not kept (its 409 UNKNOWN_WRITE_OUTCOME): the attempt
// that key made (newest first) says what became of its charge, also after
// the reconcile or Stripe's event settled it (paid, for the fee that key
// charged, though no fee is pending any more). Nil without such an attempt
// or when it never charged (canceled: the settle charges under a new one;
// created or in flight: ChargeSubject resends it under its Stripe key).
func (s *Service) settleAgain(ctx context.Context, passID uuid.UUID, key string) (*LateFeeSettlement, error) {
	if key == "" {
		return nil, nil
	}
	at, err := s.client.PaymentAttempt.Query().Where(paymentattempt.PurposeEQ(LateFeePurpose), func(q *sql.Selector) {
		q.Where(sqljson.ValueEQ(paymentattempt.FieldIntent, intentLateFeeSettle, sqljson.Path("kind")))
		q.Where(sqljson.ValueEQ(paymentattempt.FieldIntent, requestDigest(key), sqljson.Path("request_key")))
	}).Order(ent.Desc(paymentattempt.FieldCreatedAt), ent.Desc(paymentattempt.FieldNumber)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	fee, err := s.client.LateFee.Get(ctx, at.SubjectID)
	if err != nil {
		return nil, err
	}
	if fee.PassID == nil || *fee.PassID != passID {
		return nil, nil // another pass's (the key's request check refuses it first)
	}
	return s.answerCharge(ctx, passID, fee, at)
}

// settleLostCharge looks up, through the payments reconcile, the fee's
// live charge whose answer was lost (its attempt unknown) before another
// settle charges. The reconcile only reads at Stripe (the intent by its id,
// or searched by the attempt id in its metadata); it never charges. The
// outcome is answered here only for a charge of no recorded request (made
// before requests were kept on attempts); another request's charge is that
// request's to answer, and this settle goes on with the fee as it now is.
// Nil without an unknown attempt.
func (s *Service) settleLostCharge(ctx context.Context, passID uuid.UUID, fee *ent.LateFee) (*LateFeeSettlement, error) {
	at, err := s.client.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(fee.ID),
		paymentattempt.StateEQ(paymentattempt.StateUnknown)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if intentString(at.Intent, "request_key") == "" {
		return s.answerCharge(ctx, passID, fee, at)
	}
	if err := s.pay.Reconcile(ctx, at.ID); err != nil {
		s.pay.Logger().WarnContext(ctx, "late fee settle: look up another request's lost charge", "attempt_id", at.ID, "error", err)
	}
	return nil, nil
}

// answerCharge answers the settle whose charge attempt at is: an unknown
// one is looked up at Stripe first (the reconcile only reads), then paid
// (settled and audited), declined (402 CHARGE_DECLINED), processing, or
// still unknown (409 UNKNOWN_WRITE_OUTCOME). Nil when the attempt never
// charged.
func (s *Service) answerCharge(ctx context.Context, passID uuid.UUID, fee *ent.LateFee, at *ent.PaymentAttempt) (*LateFeeSettlement, error) {
	if at.State == paymentattempt.StateUnknown {
		if err := s.pay.Reconcile(ctx, at.ID); err != nil {
			s.pay.Logger().WarnContext(ctx, "late fee settle: look up the lost charge", "attempt_id", at.ID, "error", err)
			return nil, lostCharge()
		}
		var err error
		if at, err = s.client.PaymentAttempt.Get(ctx, at.ID); err != nil {
			return nil, err
		}
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
		return nil, authenticationDeclined()
	case paymentattempt.StateProcessing:
		cur, err := s.client.LateFee.Get(ctx, fee.ID)
		if err != nil {
			return nil, err
		}
		return &LateFeeSettlement{Fee: cur, ChargeStatus: SettleLateFeeProcessing}, nil
	case paymentattempt.StateUnknown:
		return nil, lostCharge()
	}
	return nil, nil
}

// lostCharge is 409 UNKNOWN_WRITE_OUTCOME for a charge Stripe's answer of
// which is still not known: the same key asks again later.
func lostCharge() *apperr.Error {
	e := unknownOutcome()
	e.Message = "the payment's outcome is not known yet; retry with the same Idempotency-Key and body, or reload"
	return e
}

func authenticationDeclined() *apperr.Error {
	return (&apperr.Error{Status: http.StatusPaymentRequired, Code: payments.CodeDeclined,
		Message: "the card was declined"}).With("failure_code", "authentication_required").
		With("decline_code", nil).With("next_step", "update_card")
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

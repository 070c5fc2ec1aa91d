package fees

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
)

// Collecting a fee from a saved card: the booking is the subject of a
// payment attempt of purpose fee_charge (payments' subject discipline: the
// attempt row before the Stripe call, one live attempt per booking, an
// unknown outcome reconciled by reading, the fee marked charged and its
// payment row written once under the booking's row lock). While a
// collection is live, settling or waiving the fee is refused (422
// FEE_SETTLE_REJECTED), so a fee is paid once whatever staff do at once.

// CollectPurpose is the payment attempt purpose of fee collections.
const CollectPurpose = paymentattempt.PurposeFeeCharge

// Error codes of collection.
const (
	CodeChargeDeclined = "FEE_CHARGE_DECLINED"
	CodeNotChargeable  = "FEE_NOT_CHARGEABLE"
	CodeSettleRejected = "FEE_SETTLE_REJECTED"
)

// States of a collection that cannot go ahead (details.collection).
const (
	CollectionNotChargeable          = "not_chargeable"
	CollectionInProgress             = "in_progress"
	CollectionAmbiguous              = "ambiguous"
	CollectionCapturedUnrecorded     = "captured_unrecorded"
	CollectionReconciliationRequired = "reconciliation_required"
)

func init() { payments.RegisterSubject(CollectPurpose, feeSubject{}) }

func notChargeable(collection, msg string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeNotChargeable, Message: msg}).
		With("collection", collection)
}

// collectionState says why a booking's fee cannot be collected now because
// of its earlier attempts ("" when nothing stands in the way).
func collectionState(ctx context.Context, c *ent.Client, bookingID uuid.UUID) (string, error) {
	ats, err := c.PaymentAttempt.Query().Where(paymentattempt.SubjectID(bookingID),
		paymentattempt.PurposeEQ(CollectPurpose)).All(ctx)
	if err != nil {
		return "", err
	}
	for _, at := range ats {
		switch at.State {
		case paymentattempt.StateUnknown:
			return CollectionReconciliationRequired, nil
		case paymentattempt.StateSucceeded:
			return CollectionCapturedUnrecorded, nil
		case paymentattempt.StateCreated, paymentattempt.StateInFlight, paymentattempt.StateRequiresAction,
			paymentattempt.StateProcessing:
			return CollectionInProgress, nil
		}
	}
	return "", nil
}

// Collect charges an unpaid fee to the member's saved card (paymentMethod,
// or the member's default card): 404 NOT_FOUND, 422 FEE_NOT_UNPAID,
// FEE_NOT_CHARGEABLE (details.collection), FEE_CHARGE_DECLINED. On success
// the fee is charged and a payment of kind fee (method card) holds the
// money; partners hear of it through fee.charged.
func Collect(ctx context.Context, pay *payments.Service, bookingID uuid.UUID, paymentMethod string) (*ent.Booking, error) {
	if _, err := authorize(ctx, PermCollect); err != nil {
		return nil, err
	}
	c := pay.Client()
	b, err := c.Booking.Get(ctx, bookingID)
	if ent.IsNotFound(err) || (err == nil && (b.FeeStatus == nil || b.LateCancelFeeMinor == nil)) {
		return nil, apperr.NotFound("fee")
	}
	if err != nil {
		return nil, err
	}
	if *b.FeeStatus != booking.FeeStatusUnpaid {
		return nil, notUnpaid(string(*b.FeeStatus))
	}
	if st, err := collectionState(ctx, c, b.ID); err != nil {
		return nil, err
	} else if st != "" {
		return nil, notChargeable(st, "an earlier collection of this fee is not settled yet")
	}
	vp, err := pay.Chargeable(ctx)
	if err != nil {
		return nil, notChargeable(CollectionNotChargeable, "card payments are not available at this venue")
	}
	pc, err := pay.Customer(ctx, vp, b.MemberID, false)
	if err != nil {
		return nil, err
	}
	if pc == nil {
		return nil, notChargeable(CollectionNotChargeable, "the client has no saved card")
	}
	if paymentMethod == "" && pc.DefaultPaymentMethodID != nil {
		paymentMethod = *pc.DefaultPaymentMethodID
	}
	cards, err := pay.Port().ListCards(ctx, *vp.AccountID, pc.CustomerID)
	if err != nil {
		return nil, notChargeable(CollectionNotChargeable, "the client's saved cards could not be read")
	}
	found := false
	for _, card := range cards {
		found = found || (card.ID == paymentMethod && card.IsCard)
	}
	if !found {
		return nil, notChargeable(CollectionNotChargeable, "the card is not one of the client's saved cards")
	}
	res, err := pay.ChargeSubject(ctx, payments.ChargeParams{Purpose: CollectPurpose, SubjectID: b.ID,
		PaymentMethodID: paymentMethod, CustomerID: pc.CustomerID})
	if err != nil {
		return nil, collectError(err)
	}
	switch res.Status {
	case payments.StatusPaid:
	case "requires_action":
		if at, err := c.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(b.ID)).Only(ctx); err == nil {
			_ = pay.CancelIntent(ctx, at.ID)
		}
		return nil, (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeChargeDeclined,
			Message: "the card asks the client to authenticate; nothing was charged"}).With("decline_code", "authentication_required")
	default:
		return nil, notChargeable(CollectionInProgress, "the charge is processing; the fee is marked charged when it succeeds")
	}
	return c.Booking.Get(ctx, b.ID)
}

func collectError(err error) error {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return err
	}
	switch ae.Code {
	case payments.CodeDeclined:
		return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeChargeDeclined,
			Message: "the card was declined; nothing was charged"}).
			With("failure_code", ae.Details["failure_code"]).With("decline_code", ae.Details["decline_code"])
	case payments.CodePending:
		return notChargeable(CollectionInProgress, "another collection of this fee is in progress")
	case payments.CodeUnknownOutcome:
		return notChargeable(CollectionAmbiguous, "the charge's outcome is not known yet; it is being checked").
			With("write_state", "unknown")
	case payments.CodeAlreadyPaid:
		return notUnpaid(string(booking.FeeStatusCharged))
	case payments.CodeStripeError:
		return notChargeable(CollectionNotChargeable, "the payment processor refused the charge; nothing was charged")
	}
	return ae
}

// liveCollection refuses a settlement or waiver while a collection of the
// fee is live or unsettled (called under the booking's lock).
func liveCollection(ctx context.Context, tx *ent.Tx, bookingID uuid.UUID) error {
	st, err := collectionState(ctx, tx.Client(), bookingID)
	if err != nil || st == "" {
		return err
	}
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeSettleRejected,
		Message: "a card collection of this fee is in progress"}).With("collection", st)
}

// feeSubject is a booking's fee as a payments subject.
type feeSubject struct{}

func (feeSubject) Lock(ctx context.Context, tx *ent.Tx, id uuid.UUID) (payments.SubjectCharge, error) {
	b, err := tx.Booking.Query().Where(booking.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return payments.SubjectCharge{}, err
	}
	if b.FeeStatus == nil || b.LateCancelFeeMinor == nil {
		return payments.SubjectCharge{}, apperr.NotFound("fee")
	}
	cur, err := currency(ctx, tx.Client())
	if err != nil {
		return payments.SubjectCharge{}, err
	}
	desc := "Late cancellation fee"
	if kindOf(b) == KindNoShow {
		desc = "No-show fee"
	}
	return payments.SubjectCharge{AmountMinor: *b.LateCancelFeeMinor, Currency: cur, Description: desc,
		MemberID: b.MemberID, Paid: *b.FeeStatus == booking.FeeStatusCharged}, nil
}

// Settle marks the fee charged and writes its payment row (kind fee,
// method card), once, under the booking's lock.
func (feeSubject) Settle(ctx context.Context, tx *ent.Tx, id uuid.UUID, intentID string, now time.Time) error {
	b, err := tx.Booking.Get(ctx, id)
	if err != nil || *b.FeeStatus == booking.FeeStatusCharged {
		return err
	}
	cur, err := currency(ctx, tx.Client())
	if err != nil {
		return err
	}
	pay, err := tx.Payment.Create().SetMemberID(b.MemberID).SetNillablePassID(b.PassID).
		SetAmountMinor(*b.LateCancelFeeMinor).SetCurrency(cur).SetStatus(payment.StatusSucceeded).
		SetKind(payment.KindFee).SetMethod(payment.MethodCard).SetPaidAt(now).SetProcessorPaymentID(intentID).Save(ctx)
	if err != nil {
		return err
	}
	out, err := tx.Booking.UpdateOne(b).SetFeeStatus(booking.FeeStatusCharged).Save(ctx)
	if err != nil {
		return err
	}
	d := eventData(out, cur)
	d["payment_id"], d["payment_intent_id"] = pay.ID.String(), intentID
	if _, err := events.Record(ctx, tx.Client(), events.FeeCharged, d); err != nil {
		return err
	}
	_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "fee.charged", Target: b.ID.String(),
		Details: map[string]any{"payment_id": pay.ID.String(), "payment_intent_id": intentID,
			"amount_minor": *b.LateCancelFeeMinor, "currency": cur}})
	return err
}

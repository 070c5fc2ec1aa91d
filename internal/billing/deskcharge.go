package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/deskcharge"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/viewer"
)

// The desk charge: the front desk (pos.sell) charges a VAT-inclusive amount
// to a member's saved card. The charge is a desk_charges row made once per
// member and Idempotency-Key, paid through a payment attempt of purpose
// desk_charge (payments' subject discipline: the attempt row before the
// Stripe call, its idempotency key, one live attempt, an unknown outcome
// reconciled by reading, the payment written once under the charge's row
// lock). The payment row has method card, so the sales snapshot counts it.

// DeskChargePurpose is the payment attempt purpose of desk charges.
const DeskChargePurpose = paymentattempt.PurposeDeskCharge

// Error codes of the desk charge.
const (
	CodeChargeNotChargeable  = "CHARGE_NOT_CHARGEABLE"
	CodeChargeRequiresAction = "CHARGE_REQUIRES_ACTION"
	CodeChargeFailed         = "CHARGE_FAILED"
)

// Reasons of CHARGE_NOT_CHARGEABLE (details.reason).
const (
	ReasonPaymentsDisabled = payments.ReasonPaymentsDisabled
	ReasonConnectNotActive = payments.ReasonConnectNotActive
	ReasonNotOnWallet      = "not_on_wallet"
	ReasonBelowMinimum     = "below_minimum"
)

// AuditDeskCharge is the audit action of a paid desk charge.
const AuditDeskCharge = "payment.desk_charged"

func init() { payments.RegisterSubject(DeskChargePurpose, deskSubject{}) }

// minimumCharge is Stripe's smallest charge per currency (minor units);
// others are 50.
var minimumCharge = map[string]int64{"DKK": 250, "NOK": 300, "SEK": 300, "GBP": 30, "PLN": 200, "CZK": 1500,
	"HUF": 17500, "JPY": 50, "MXN": 1000, "HKD": 400, "THB": 1000, "AED": 200, "RON": 200, "BGN": 100}

// MinimumChargeMinor is the smallest amount a card charge may take in
// currency (minor units).
func MinimumChargeMinor(currency string) int64 {
	if m, ok := minimumCharge[strings.ToUpper(currency)]; ok {
		return m
	}
	return 50
}

func notChargeable(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeChargeNotChargeable,
		Message: "this card cannot be charged here"}).With("reason", reason)
}

// DeskChargeParams are a desk charge to make.
type DeskChargeParams struct {
	MemberID        uuid.UUID
	PaymentMethodID string
	AmountMinor     int64 // VAT-inclusive
	Description     string
	SetAsDefault    bool
	RequestKey      string // the request's Idempotency-Key
}

// DeskChargeResult is a paid desk charge.
type DeskChargeResult struct {
	Charge     *ent.DeskCharge
	Payment    *ent.Payment
	DefaultSet bool
}

// DeskCharge charges a member's saved card at the desk: 404
// CLIENT_NOT_FOUND, 422 CHARGE_NOT_CHARGEABLE (payments_disabled,
// connect_not_active, below_minimum, not_on_wallet), 402 CHARGE_DECLINED or
// CHARGE_REQUIRES_ACTION (an off-session charge cannot authenticate: the
// intent is cancelled), 500 CHARGE_FAILED (the processor refused; nothing
// charged), 409 UNKNOWN_WRITE_OUTCOME (reconciled; retry with the same key).
func (s *Service) DeskCharge(ctx context.Context, p DeskChargeParams) (*DeskChargeResult, error) {
	if p.AmountMinor <= 0 {
		return nil, apperr.Validation("amount_minor", "amount_minor must be a whole number above zero")
	}
	if _, err := s.clientOf(ctx, p.MemberID); err != nil {
		return nil, err
	}
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) && ae.Code == payments.CodeUnavailable {
			reason, _ := ae.Details["reason"].(string)
			return nil, notChargeable(reason)
		}
		return nil, err
	}
	org, err := s.client.Organization.Get(ctx, vp.OrganizationID)
	if err != nil {
		return nil, fmt.Errorf("billing: venue: %w", err)
	}
	cur := strings.ToUpper(org.Currency)
	if p.AmountMinor < MinimumChargeMinor(cur) {
		return nil, notChargeable(ReasonBelowMinimum).With("minimum_amount_minor", MinimumChargeMinor(cur))
	}
	pc, err := s.pay.Customer(ctx, vp, p.MemberID, false)
	if err != nil {
		return nil, err
	}
	if pc == nil {
		return nil, notChargeable(ReasonNotOnWallet)
	}
	cards, err := s.port.ListCards(ctx, *vp.AccountID, pc.CustomerID)
	if err != nil {
		return nil, stripeError()
	}
	c := findCard(cards, p.PaymentMethodID)
	if c == nil {
		return nil, notChargeable(ReasonNotOnWallet)
	}
	if !c.IsCard {
		return nil, notACard() // a saved bank debit: only cards are charged at the desk
	}
	dc, err := s.deskChargeRow(ctx, p, cur, vp.VatRateBp)
	if err != nil {
		return nil, err
	}
	if dc.Status != deskcharge.StatusPaid {
		res, err := s.pay.ChargeSubject(ctx, payments.ChargeParams{Purpose: DeskChargePurpose, SubjectID: dc.ID,
			PaymentMethodID: p.PaymentMethodID, CustomerID: pc.CustomerID})
		if err != nil {
			if mapped := s.deskChargeError(ctx, dc, err); mapped != nil {
				return nil, mapped
			}
			res = &payments.ChargeResult{Status: payments.StatusPaid} // a previous try paid it
		}
		switch res.Status {
		case payments.StatusPaid:
		case "requires_action":
			s.cancelLive(ctx, dc.ID)
			return nil, (&apperr.Error{Status: http.StatusPaymentRequired, Code: CodeChargeRequiresAction,
				Message: "the card asks the client to authenticate; nothing was charged"}).With("next_step", "update_card")
		default: // processing: the payment is written when Stripe says it succeeded
			return &DeskChargeResult{Charge: dc}, nil
		}
	}
	out := &DeskChargeResult{}
	if out.Charge, err = s.client.DeskCharge.Get(ctx, dc.ID); err != nil {
		return nil, err
	}
	if out.Charge.PaymentID != nil {
		if out.Payment, err = s.client.Payment.Get(ctx, *out.Charge.PaymentID); err != nil {
			return nil, err
		}
	}
	if p.SetAsDefault && (pc.DefaultPaymentMethodID == nil || *pc.DefaultPaymentMethodID != p.PaymentMethodID) {
		// The charge stands whatever Stripe answers here; the answer says
		// whether the card became the default.
		_, derr := s.pay.SetDefaultCard(ctx, p.MemberID, p.PaymentMethodID, "desk:"+p.RequestKey)
		out.DefaultSet = derr == nil
	} else {
		out.DefaultSet = p.SetAsDefault
	}
	return out, nil
}

// deskChargeRow makes the request's desk charge, or finds the one a
// previous try of the same request made.
func (s *Service) deskChargeRow(ctx context.Context, p DeskChargeParams, cur string, vatBP int) (*ent.DeskCharge, error) {
	key := requestDigest(p.RequestKey)
	find := func() (*ent.DeskCharge, error) {
		return s.client.DeskCharge.Query().Where(deskcharge.MemberID(p.MemberID), deskcharge.RequestKey(key)).Only(ctx)
	}
	if dc, err := find(); err == nil || !ent.IsNotFound(err) {
		return dc, err
	}
	c := s.client.DeskCharge.Create().SetMemberID(p.MemberID).SetRequestKey(key).SetAmountMinor(p.AmountMinor).
		SetCurrency(cur).SetVatRateBp(vatBP).SetVatMinor(payments.VATShare(p.AmountMinor, vatBP)).
		SetPaymentMethodID(p.PaymentMethodID).SetDescription(p.Description).SetSetAsDefault(p.SetAsDefault)
	if u, ok := viewer.UserFromContext(ctx); ok {
		c.SetStaffUserID(u.UserID)
	}
	dc, err := c.Save(ctx)
	if ent.IsConstraintError(err) {
		return find()
	}
	return dc, err
}

// deskChargeError maps payments' refusals to the desk charge's codes.
func (s *Service) deskChargeError(ctx context.Context, dc *ent.DeskCharge, err error) error {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return err
	}
	switch ae.Code {
	case payments.CodeDeclined:
		_ = s.client.DeskCharge.UpdateOne(dc).Where(deskcharge.StatusEQ(deskcharge.StatusOpen)).
			SetStatus(deskcharge.StatusFailed).Exec(ctx)
		return ae
	case payments.CodeStripeError:
		return &apperr.Error{Status: http.StatusInternalServerError, Code: CodeChargeFailed,
			Message: "the payment processor refused the charge; nothing was charged"}
	case payments.CodeAlreadyPaid:
		return nil
	}
	return ae
}

// cancelLive cancels at Stripe the intent of the subject's attempt waiting
// on the client (an off-session desk charge cannot authenticate); a failure
// is left to the payments sweep.
func (s *Service) cancelLive(ctx context.Context, subject uuid.UUID) {
	at, err := s.client.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(subject)).Only(ctx)
	if err != nil {
		return
	}
	if err := s.pay.CancelIntent(ctx, at.ID); err != nil {
		s.pay.Logger().WarnContext(ctx, "cancel desk charge intent", "attempt_id", at.ID, "error", err)
	}
}

// deskSubject is the desk charge as a payments subject.
type deskSubject struct{}

func (deskSubject) Lock(ctx context.Context, tx *ent.Tx, id uuid.UUID) (payments.SubjectCharge, error) {
	dc, err := tx.DeskCharge.Query().Where(deskcharge.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return payments.SubjectCharge{}, err
	}
	desc := dc.Description
	if desc == "" {
		desc = "Desk charge"
	}
	return payments.SubjectCharge{AmountMinor: dc.AmountMinor, Currency: dc.Currency, Description: desc,
		MemberID: dc.MemberID, Paid: dc.Status == deskcharge.StatusPaid}, nil
}

// Settle writes the paid charge's payment row (method card), once, under
// the charge's lock, with payment.succeeded and the audit entry.
func (deskSubject) Settle(ctx context.Context, tx *ent.Tx, id uuid.UUID, intentID string, now time.Time) error {
	dc, err := tx.DeskCharge.Get(ctx, id)
	if err != nil || dc.Status == deskcharge.StatusPaid {
		return err
	}
	pay, err := tx.Payment.Create().SetMemberID(dc.MemberID).SetAmountMinor(dc.AmountMinor).SetCurrency(dc.Currency).
		SetStatus(payment.StatusSucceeded).SetKind(payment.KindOther).SetMethod(payment.MethodCard).
		SetPaidAt(now).SetProcessorPaymentID(intentID).Save(ctx)
	if err != nil {
		return err
	}
	if err := tx.DeskCharge.UpdateOne(dc).SetStatus(deskcharge.StatusPaid).SetPaymentID(pay.ID).
		SetPaymentIntentID(intentID).SetPaidAt(now).Exec(ctx); err != nil {
		return err
	}
	if _, err := events.Record(ctx, tx.Client(), events.PaymentSucceeded, map[string]any{
		"payment_id": pay.ID.String(), "desk_charge_id": dc.ID.String(), "member_id": dc.MemberID.String(),
		"amount_minor": dc.AmountMinor, "currency": dc.Currency, "kind": "desk_charge", "payment_intent_id": intentID,
	}); err != nil {
		return err
	}
	_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditDeskCharge, Target: "member:" + dc.MemberID.String(),
		Details: map[string]any{"desk_charge_id": dc.ID.String(), "payment_id": pay.ID.String(),
			"amount_minor": dc.AmountMinor, "vat_minor": dc.VatMinor, "currency": dc.Currency,
			"payment_method_id": dc.PaymentMethodID, "description": dc.Description}})
	return err
}

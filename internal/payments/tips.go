package payments

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/tip"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// PurposeTipCharge is the purpose of a tip's charge attempt.
const PurposeTipCharge = "tip_charge"

// MaxTipMajor is the largest tip, in major units.
const MaxTipMajor = 10000

// TipParams are a tip to create.
type TipParams struct {
	SourceType string // class or appointment
	SourceID   uuid.UUID
	Amount     float64 // major units
	Currency   string
	Message    string
	Anonymous  bool
	// RequestKey is a digest of the request's Idempotency-Key.
	RequestKey string
}

// TipCreated is a tip with what the app pays it with.
type TipCreated struct {
	Tip                        *ent.Tip
	IntentID, ClientSecret     string
	CustomerID, EphemeralKey   string
	AccountID, MerchantCountry string
	PaymentMethods             []string
}

func tipNotAllowed() *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: "TIP_NOT_ALLOWED",
		Message: "tips are for classes the member attended"}).With("next_step", nil)
}

// CreateTip creates the member's tip of a class they attended and its
// payment intent (recorded as an attempt first). ctx acts as the member.
func (s *Service) CreateTip(ctx context.Context, memberID uuid.UUID, p TipParams) (*TipCreated, error) {
	vp, err := s.chargeable(ctx)
	if err != nil {
		return nil, err
	}
	org, err := s.client.Organization.Query().Where(organization.ID(vp.OrganizationID)).Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("payments: venue: %w", err)
	}
	cur := strings.ToUpper(org.Currency)
	if p.Currency != cur {
		return nil, apperr.Validation("currency", "tips are paid in the venue's currency, "+cur)
	}
	scaled := p.Amount * math.Pow10(money.Exponent(cur))
	minor := int64(math.Round(scaled))
	if p.Amount <= 0 || p.Amount > MaxTipMajor || math.Abs(scaled-float64(minor)) > 1e-6 || minor <= 0 {
		return nil, apperr.Validation("amount", "amount must be more than 0 and at most 10000, in the currency's minor unit")
	}
	if p.SourceType != "class" {
		return nil, apperr.NotFound("appointment")
	}
	class, err := s.client.ClassInstance.Get(ctx, p.SourceID)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("class")
	}
	if err != nil {
		return nil, fmt.Errorf("payments: class: %w", err)
	}
	attended, err := s.client.Booking.Query().Where(booking.MemberID(memberID), booking.ClassInstanceID(class.ID),
		booking.StatusIn(booking.StatusConfirmed, booking.StatusCheckedIn)).Exist(ctx)
	if err != nil {
		return nil, fmt.Errorf("payments: bookings: %w", err)
	}
	if !attended {
		return nil, tipNotAllowed()
	}
	pc, err := s.customer(ctx, vp, memberID, true)
	if err != nil {
		return nil, err
	}
	var (
		t  *ent.Tip
		at *ent.PaymentAttempt
	)
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if p.RequestKey != "" {
			t, err = tx.Tip.Query().Where(tip.MemberID(memberID), tip.RequestKey(p.RequestKey)).ForUpdate().Only(ctx)
			if err == nil {
				at, err = tx.PaymentAttempt.Query().Where(paymentattempt.SubjectID(t.ID)).
					Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
				return err
			}
			if !ent.IsNotFound(err) {
				return err
			}
		}
		tc := tx.Tip.Create().SetMemberID(memberID).SetSourceType(tip.SourceTypeClass).SetSourceID(class.ID).
			SetNillableInstructorID(class.InstructorID).SetAmountMinor(minor).SetCurrency(cur).
			SetMessage(p.Message).SetAnonymous(p.Anonymous)
		if p.RequestKey != "" {
			tc.SetRequestKey(p.RequestKey)
		}
		if t, err = tc.Save(ctx); err != nil {
			return err
		}
		at, err = tx.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeTipCharge).SetSubjectID(t.ID).
			SetNumber(1).SetState(paymentattempt.StateInFlight).SetLiveSubjectID(t.ID).Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	in, err := s.port.CreatePaymentIntent(ctx, stripeport.IntentParams{
		Account: *vp.AccountID, IdempotencyKey: IdempotencyKey(PurposeTipCharge, at.ID.String(), "create"),
		AmountMinor: minor, Currency: cur, Customer: pc.CustomerID, Description: "Tip",
		Metadata: map[string]string{"attempt_id": at.ID.String(), "tip_id": t.ID.String(), "organization_id": vp.OrganizationID.String()},
	})
	switch {
	case errors.Is(err, stripeport.ErrUnknownOutcome):
		if uerr := s.markUnknown(ctx, at); uerr != nil {
			return nil, uerr
		}
		return nil, unknownOutcome()
	case err != nil:
		if ferr := s.failAttempt(ctx, at.ID, "processor_refused", ""); ferr != nil {
			return nil, ferr
		}
		return nil, s.portError(ctx, err)
	}
	if _, err := s.applyTipIntent(ctx, at.ID, in); err != nil {
		return nil, err
	}
	ek, err := s.port.CreateEphemeralKey(ctx, *vp.AccountID, pc.CustomerID)
	if err != nil {
		return nil, s.portError(ctx, err)
	}
	out := &TipCreated{Tip: t, IntentID: in.ID, ClientSecret: in.ClientSecret, CustomerID: pc.CustomerID,
		EphemeralKey: ek, AccountID: *vp.AccountID, MerchantCountry: strings.ToUpper(org.Country)}
	if a, err := s.port.GetAccount(ctx, *vp.AccountID); err == nil && a.Country != "" {
		out.MerchantCountry = strings.ToUpper(a.Country)
	}
	country := org.Country
	if country == "" { // a venue without a recorded country: its account's
		country = out.MerchantCountry
	}
	out.PaymentMethods = AvailablePaymentMethods(country, cur, vp)
	return out, nil
}

// applyTipIntent records what Stripe says of a tip's intent, monotonically,
// and on success records the tip's payment once, under the tip's row lock.
func (s *Service) applyTipIntent(ctx context.Context, attemptID uuid.UUID, in *stripeport.Intent) (string, error) {
	var status string
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		at, err := tx.PaymentAttempt.Get(ctx, attemptID)
		if err != nil {
			return err
		}
		t, err := tx.Tip.Query().Where(tip.ID(at.SubjectID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		if at, err = tx.PaymentAttempt.Get(ctx, attemptID); err != nil {
			return err
		}
		next := attemptState(in)
		status = in.Status
		if t.PaymentIntentID == nil && in.ID != "" {
			if t, err = tx.Tip.UpdateOne(t).SetPaymentIntentID(in.ID).Save(ctx); err != nil {
				return err
			}
		}
		if at.State != next && (!terminal(at.State) || next == paymentattempt.StateSucceeded) {
			upd := tx.PaymentAttempt.UpdateOne(at).SetState(next).SetProcessorObjectID(in.ID)
			if terminal(next) {
				upd.ClearLiveSubjectID()
			}
			if _, err := upd.Save(ctx); err != nil {
				return err
			}
		}
		if next != paymentattempt.StateSucceeded || t.Status == tip.StatusSucceeded {
			if t.Status == tip.StatusSucceeded {
				status = StatusPaid
			}
			return nil
		}
		if in.AmountMinor != 0 && (in.AmountMinor != t.AmountMinor || in.Currency != t.Currency) {
			return fmt.Errorf("payments: intent %s charged %d %s, tip %s is %d %s", in.ID, in.AmountMinor, in.Currency, t.ID, t.AmountMinor, t.Currency)
		}
		now := s.now()
		if _, err := tx.Tip.UpdateOne(t).SetStatus(tip.StatusSucceeded).SetPaidAt(now).Save(ctx); err != nil {
			return err
		}
		pay, err := tx.Payment.Create().SetMemberID(t.MemberID).SetAmountMinor(t.AmountMinor).SetCurrency(t.Currency).
			SetStatus(payment.StatusSucceeded).SetKind(payment.KindOther).SetPaidAt(now).SetProcessorPaymentID(in.ID).SetMethod(payment.MethodCard).Save(ctx)
		if err != nil {
			return err
		}
		status = StatusPaid
		_, err = events.Record(ctx, tx.Client(), EventPaymentSucceeded, map[string]any{
			"payment_id": pay.ID.String(), "tip_id": t.ID.String(), "member_id": t.MemberID.String(),
			"payment_intent_id": in.ID, "amount_minor": t.AmountMinor, "currency": t.Currency,
		})
		return err
	})
	return status, err
}

// ConfirmTip settles the member's tip after the app paid it: succeeded
// (recorded once), pending while processing, else PAYMENT_NOT_COMPLETED.
func (s *Service) ConfirmTip(ctx context.Context, tipID uuid.UUID) (string, error) {
	t, err := s.client.Tip.Get(ctx, tipID)
	if ent.IsNotFound(err) {
		return "", apperr.NotFound("tip")
	}
	if err != nil {
		return "", fmt.Errorf("payments: tip: %w", err)
	}
	if t.Status == tip.StatusSucceeded {
		return StatusPaid, nil
	}
	if t.PaymentIntentID == nil {
		return "", notCompleted("unknown")
	}
	vp, err := s.chargeable(ctx)
	if err != nil {
		return "", err
	}
	in, err := s.port.GetPaymentIntent(ctx, *vp.AccountID, *t.PaymentIntentID)
	if err != nil {
		return "", unknownOutcome()
	}
	at, err := s.client.PaymentAttempt.Query().Where(paymentattempt.SubjectID(t.ID)).
		Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
	if err != nil {
		return "", fmt.Errorf("payments: attempt: %w", err)
	}
	status, err := s.applyTipIntent(ctx, at.ID, in)
	if err != nil {
		return "", err
	}
	switch status {
	case StatusPaid:
		return StatusPaid, nil
	case StatusProcessing:
		return "pending", nil
	default:
		return "", notCompleted(in.Status)
	}
}

// applyAny applies an intent to its attempt, by the attempt's purpose.
func (s *Service) applyAny(ctx context.Context, at *ent.PaymentAttempt, in *stripeport.Intent) (string, error) {
	if at.Purpose == paymentattempt.PurposeTipCharge {
		return s.applyTipIntent(ctx, at.ID, in)
	}
	return s.applyIntent(ctx, at.ID, in)
}

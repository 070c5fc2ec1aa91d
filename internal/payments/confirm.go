package payments

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Confirmation is the answer of a confirm: confirmed with the pass, or not
// yet (payment_state resolving, while Stripe is processing).
type Confirmation struct {
	Confirmed bool
	Checkout  *ent.Checkout
	// PaymentState is resolving while the payment is processing.
	PaymentState string
}

// Confirm settles the member's checkout of payment intent id after the
// client finished the payment (payment sheet, 3-D Secure): it reads the
// intent from Stripe and activates on success. Another member's intent, or
// one no checkout of this venue made, is 404.
func (s *Service) Confirm(ctx context.Context, intentID string) (*Confirmation, error) {
	co, err := s.client.Checkout.Query().Where(checkout.PaymentIntentID(intentID)).Only(ctx)
	if ent.IsNotFound(err) {
		// A later attempt of the checkout (another card after a decline)
		// made its own intent; the checkout keeps its first one until paid.
		co, err = s.checkoutOfIntent(ctx, intentID)
	}
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("payment intent")
	}
	if err != nil {
		return nil, fmt.Errorf("payments: checkout: %w", err)
	}
	if co.Status == checkout.StatusPaid {
		return &Confirmation{Confirmed: true, Checkout: co}, nil
	}
	vp, err := s.chargeable(ctx)
	if err != nil {
		return nil, err
	}
	in, err := s.port.GetPaymentIntent(ctx, *vp.AccountID, intentID)
	if errors.Is(err, stripeport.ErrNotFound) {
		return nil, apperr.NotFound("payment intent")
	}
	if err != nil {
		return nil, unknownOutcome()
	}
	at, err := s.client.PaymentAttempt.Query().
		Where(paymentattempt.SubjectID(co.ID), paymentattempt.ProcessorObjectID(intentID)).
		Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
	if err != nil {
		return nil, fmt.Errorf("payments: attempt: %w", err)
	}
	status, err := s.applyIntent(ctx, at.ID, in)
	if err != nil {
		return nil, err
	}
	if co, err = s.client.Checkout.Get(ctx, co.ID); err != nil {
		return nil, fmt.Errorf("payments: checkout: %w", err)
	}
	switch status {
	case StatusPaid:
		return &Confirmation{Confirmed: true, Checkout: co}, nil
	case StatusProcessing:
		return &Confirmation{Checkout: co, PaymentState: "resolving"}, nil
	case "failed":
		return nil, declined(in.FailureCode, in.DeclineCode)
	default:
		return nil, notCompleted(in.Status)
	}
}

// ConfirmAttempt reconciles a checkout from the server's records only (no
// Stripe call): confirmed with the pass once activated, else resolving. A
// checkout of another member, or whose pass type differs, is 404.
func (s *Service) ConfirmAttempt(ctx context.Context, checkoutID, passTypeID uuid.UUID) (*Confirmation, error) {
	co, err := s.client.Checkout.Query().
		Where(checkout.ID(checkoutID), checkout.PassTypeID(passTypeID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("checkout")
	}
	if err != nil {
		return nil, fmt.Errorf("payments: checkout: %w", err)
	}
	if co.Status == checkout.StatusPaid {
		return &Confirmation{Confirmed: true, Checkout: co}, nil
	}
	return &Confirmation{Checkout: co, PaymentState: "resolving"}, nil
}

// checkoutOfIntent is the member's checkout whose charge attempt made
// intentID (not found for another member's).
func (s *Service) checkoutOfIntent(ctx context.Context, intentID string) (*ent.Checkout, error) {
	at, err := s.client.PaymentAttempt.Query().
		Where(paymentattempt.ProcessorObjectID(intentID), paymentattempt.PurposeEQ(paymentattempt.PurposeCheckoutCharge)).
		First(ctx)
	if err != nil {
		return nil, err
	}
	return s.client.Checkout.Query().Where(checkout.ID(at.SubjectID)).Only(ctx)
}

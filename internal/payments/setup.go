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
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Free starts: a membership whose quote charges nothing today saves the
// member's card with a setup intent (an attempt of purpose checkout_setup)
// and activates when the setup intent succeeded, whichever of confirm and
// setup_intent.succeeded comes first.

func (s *Service) startSetup(ctx context.Context, vp *ent.VenuePayments, memberID uuid.UUID, co *ent.Checkout, at *ent.PaymentAttempt) (*PurchaseResult, error) {
	pc, err := s.customer(ctx, vp, memberID, true)
	if err != nil {
		return nil, err
	}
	si, err := s.port.CreateSetupIntent(ctx, *vp.AccountID, IdempotencyKey(PurposeCheckoutSetup, at.ID.String(), "create"), pc.CustomerID,
		map[string]string{"attempt_id": at.ID.String(), "checkout_id": co.ID.String(), "organization_id": vp.OrganizationID.String()})
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
	status, err := s.applySetup(ctx, at.ID, si)
	if err != nil {
		return nil, err
	}
	if co, err = s.client.Checkout.Get(ctx, co.ID); err != nil {
		return nil, fmt.Errorf("payments: checkout: %w", err)
	}
	return &PurchaseResult{Checkout: co, Status: status, SetupIntentID: si.ID, ClientSecret: si.ClientSecret, AccountID: *vp.AccountID}, nil
}

// applySetup records what Stripe says of a free start's setup intent,
// monotonically, and activates the checkout once it succeeded.
func (s *Service) applySetup(ctx context.Context, attemptID uuid.UUID, si *stripeport.SetupIntent) (string, error) {
	var status string
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		at, err := tx.PaymentAttempt.Get(ctx, attemptID)
		if err != nil {
			return err
		}
		co, err := tx.Checkout.Query().Where(checkout.ID(at.SubjectID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		if at, err = tx.PaymentAttempt.Get(ctx, attemptID); err != nil {
			return err
		}
		next := paymentattempt.StateRequiresAction
		status = StatusRequiresPaymentMethod
		switch si.Status {
		case "succeeded":
			next, status = paymentattempt.StateSucceeded, StatusPaid
		case "processing":
			next, status = paymentattempt.StateProcessing, StatusProcessing
		case "canceled":
			next, status = paymentattempt.StateCanceled, "canceled"
		case "requires_action":
			status = StatusRequiresAction
		}
		if co.Status == checkout.StatusPaid {
			status = StatusPaid
		}
		if co.SetupIntentID == nil {
			if co, err = tx.Checkout.UpdateOne(co).SetSetupIntentID(si.ID).Save(ctx); err != nil {
				return err
			}
		}
		if at.State != next && (!terminal(at.State) || next == paymentattempt.StateSucceeded) {
			upd := tx.PaymentAttempt.UpdateOne(at).SetState(next).SetProcessorObjectID(si.ID)
			if terminal(next) {
				upd.ClearLiveSubjectID()
			}
			if _, err := upd.Save(ctx); err != nil {
				return err
			}
		}
		if next == paymentattempt.StateSucceeded {
			_, err := activate(ctx, tx, co, "", s.now())
			return err
		}
		return nil
	})
	return status, err
}

// ConfirmSetup settles the member's free start of setup intent id: read
// from Stripe, activated once it succeeded; before that 409
// PAYMENT_NOT_COMPLETED.
func (s *Service) ConfirmSetup(ctx context.Context, setupIntentID string) (*Confirmation, error) {
	co, err := s.client.Checkout.Query().Where(checkout.SetupIntentID(setupIntentID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("setup intent")
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
	si, err := s.port.GetSetupIntent(ctx, *vp.AccountID, setupIntentID)
	if errors.Is(err, stripeport.ErrNotFound) {
		return nil, apperr.NotFound("setup intent")
	}
	if err != nil {
		return nil, unknownOutcome()
	}
	at, err := s.client.PaymentAttempt.Query().
		Where(paymentattempt.SubjectID(co.ID), paymentattempt.ProcessorObjectID(setupIntentID)).
		Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
	if err != nil {
		return nil, fmt.Errorf("payments: attempt: %w", err)
	}
	status, err := s.applySetup(ctx, at.ID, si)
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
	default:
		return nil, notCompleted(si.Status)
	}
}

func (s *Service) onSetup(ctx context.Context, si *stripeport.SetupIntent) (string, error) {
	org, err := uuid.Parse(si.Metadata["organization_id"])
	if err != nil {
		return "not_ours", nil
	}
	attemptID, err := uuid.Parse(si.Metadata["attempt_id"])
	if err != nil {
		return "not_ours", nil
	}
	vctx := inVenue(ctx, org)
	if _, err := s.client.PaymentAttempt.Get(vctx, attemptID); ent.IsNotFound(err) {
		return "not_ours", nil
	} else if err != nil {
		return "", err
	}
	status, err := s.applySetup(vctx, attemptID, si)
	if err != nil {
		return "", err
	}
	return "setup_" + status, nil
}

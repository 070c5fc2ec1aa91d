package payments

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/paymentattempt"
)

// Recovery statuses: what became of an earlier purchase request.
const (
	RecoveryNotFound       = "not_found"
	RecoveryInProgress     = "in_progress"
	RecoveryRequiresAction = "requires_action"
	RecoveryProcessing     = "processing"
	RecoveryUnknown        = "unknown"
	RecoverySucceeded      = "succeeded"
	RecoveryFailed         = "failed"
	RecoveryCanceled       = "canceled"
)

// Retry policies: what the app may do next.
const (
	RetrySameKey        = "retry_same_key"
	RetryWait           = "wait"
	RetryCompleteAction = "complete_action"
	RetryNewKey         = "new_key"
	RetryNone           = "none"
)

// Recovery is the read-only status of an earlier purchase request.
type Recovery struct {
	Status      string
	RetryPolicy string
	// Checkout is nil when no purchase under the key is known.
	Checkout *ent.Checkout
	// PaymentStatus is the latest attempt's, "none" without one.
	PaymentStatus string
}

// Recover answers what became of the purchase of passTypeID by memberID that
// was sent under one of requestKeys (the digests a purchase stores, see
// PurchaseParams.RequestKey), for the member of ctx. It reads only.
func (s *Service) Recover(ctx context.Context, memberID, passTypeID uuid.UUID, requestKeys []string) (*Recovery, error) {
	if len(requestKeys) == 0 {
		return &Recovery{Status: RecoveryNotFound, RetryPolicy: RetrySameKey, PaymentStatus: "none"}, nil
	}
	co, err := s.client.Checkout.Query().
		Where(checkout.MemberID(memberID), checkout.PassTypeID(passTypeID), checkout.RequestKeyIn(requestKeys...)).
		Order(ent.Desc(checkout.FieldCreatedAt)).First(ctx)
	if ent.IsNotFound(err) {
		// Nothing of this request reached the server (or a later purchase
		// of the same checkout replaced it): the same key may be sent again.
		return &Recovery{Status: RecoveryNotFound, RetryPolicy: RetrySameKey, PaymentStatus: "none"}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("payments: recovery checkout: %w", err)
	}
	at, err := s.client.PaymentAttempt.Query().
		Where(paymentattempt.SubjectID(co.ID)).
		Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, fmt.Errorf("payments: recovery attempt: %w", err)
	}
	r := &Recovery{Checkout: co, PaymentStatus: "none"}
	if co.Status == checkout.StatusPaid {
		r.Status, r.RetryPolicy, r.PaymentStatus = RecoverySucceeded, RetryNone, StatusPaid
		return r, nil
	}
	if at == nil {
		r.Status, r.RetryPolicy = RecoveryInProgress, RetrySameKey
		return r, nil
	}
	switch at.State {
	case paymentattempt.StateCreated, paymentattempt.StateInFlight:
		// Recorded, Stripe's answer not stored: the same request resumes
		// the attempt with the same Stripe key.
		r.Status, r.RetryPolicy, r.PaymentStatus = RecoveryInProgress, RetrySameKey, StatusProcessing
	case paymentattempt.StateRequiresAction:
		r.Status, r.RetryPolicy, r.PaymentStatus = RecoveryRequiresAction, RetryCompleteAction, StatusRequiresAction
	case paymentattempt.StateProcessing:
		r.Status, r.RetryPolicy, r.PaymentStatus = RecoveryProcessing, RetryWait, StatusProcessing
	case paymentattempt.StateUnknown:
		r.Status, r.RetryPolicy, r.PaymentStatus = RecoveryUnknown, RetryWait, "unknown"
	case paymentattempt.StateSucceeded:
		// Settled at Stripe; activation is finishing (confirm or the event).
		r.Status, r.RetryPolicy, r.PaymentStatus = RecoveryProcessing, RetryWait, StatusPaid
	case paymentattempt.StateFailed:
		r.Status, r.RetryPolicy, r.PaymentStatus = RecoveryFailed, RetryNewKey, StatusRequiresPaymentMethod
	default:
		r.Status, r.RetryPolicy, r.PaymentStatus = RecoveryCanceled, RetryNewKey, "canceled"
	}
	return r, nil
}

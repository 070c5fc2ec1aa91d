package payments

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// A Subject is something other than a checkout that a card payment pays for
// (a gift card order): the attempt/charge discipline of checkouts (an
// attempt row before the Stripe call, its idempotency key, one live attempt,
// unknown outcomes reconciled by reading, activation once under the
// subject's row lock) applies unchanged, and the subject's package says what
// is charged and what paying activates.
type Subject interface {
	// Lock locks the subject's row in tx (SELECT ... FOR UPDATE) and says
	// what it charges.
	Lock(ctx context.Context, tx *ent.Tx, id uuid.UUID) (SubjectCharge, error)
	// Settle is the subject's one activation once paid, in tx, under the
	// lock Lock took; called only while SubjectCharge.Paid is false.
	Settle(ctx context.Context, tx *ent.Tx, id uuid.UUID, intentID string, now time.Time) error
}

// SubjectCharge is what a subject charges, frozen when it was created.
type SubjectCharge struct {
	AmountMinor int64
	Currency    string
	Description string
	MemberID    uuid.UUID
	Paid        bool
}

var (
	subjectsMu sync.RWMutex
	subjects   = map[paymentattempt.Purpose]Subject{}
)

// RegisterSubject makes attempts of purpose pay for sub: the subject's
// package registers itself once (at init), so every Service of the process
// (request handlers, event and reconcile jobs) settles its attempts.
func RegisterSubject(purpose paymentattempt.Purpose, sub Subject) {
	subjectsMu.Lock()
	defer subjectsMu.Unlock()
	subjects[purpose] = sub
}

func subjectOf(purpose paymentattempt.Purpose) Subject {
	subjectsMu.RLock()
	defer subjectsMu.RUnlock()
	return subjects[purpose]
}

// ChargeParams are a charge of a registered subject.
type ChargeParams struct {
	Purpose   paymentattempt.Purpose
	SubjectID uuid.UUID
	// PaymentMethodID (a saved card) confirms the charge at once; without it
	// the intent waits for the payment sheet.
	PaymentMethodID string
	CustomerID      string
	// OffSession charges the saved card with its holder away from the app
	// (the front desk).
	OffSession bool
	// SaveCard keeps the card that pays on CustomerID for renewals.
	SaveCard bool
	// Intent is kept on a new attempt (payment_attempts.intent): what the
	// request meant, for its rerun and for the event or reconcile that
	// settles the subject later.
	Intent map[string]any
}

// ChargeResult is a charge's outcome: Status is succeeded (the subject is
// settled), requires_action, requires_payment_method or processing.
type ChargeResult struct {
	Status       string
	IntentID     string
	ClientSecret string
	AccountID    string
}

// ChargeSubject charges a subject of the viewer's venue through the venue's
// connected account, exactly as Purchase charges a checkout. The subject is
// made once per request (its package keys it by the request's
// Idempotency-Key), so a live attempt still created or in flight is this
// request's own, retried: it is resent with the same Stripe key.
func (s *Service) ChargeSubject(ctx context.Context, p ChargeParams) (*ChargeResult, error) {
	sub := subjectOf(p.Purpose)
	if sub == nil {
		return nil, fmt.Errorf("payments: no subject registered for %s", p.Purpose)
	}
	vp, err := s.chargeable(ctx)
	if err != nil {
		return nil, err
	}
	var (
		charge  SubjectCharge
		attempt *ent.PaymentAttempt
	)
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if charge, err = sub.Lock(ctx, tx, p.SubjectID); err != nil {
			return err
		}
		if charge.Paid {
			return alreadyPaid()
		}
		live, err := tx.PaymentAttempt.Query().
			Where(paymentattempt.SubjectID(p.SubjectID), paymentattempt.StateIn(liveStates...)).Only(ctx)
		switch {
		case ent.IsNotFound(err):
		case err != nil:
			return err
		case (live.State == paymentattempt.StateCreated || live.State == paymentattempt.StateInFlight) && sameRequest(live, p.Intent):
			attempt = live
			return nil
		case live.State == paymentattempt.StateUnknown:
			return unknownOutcome()
		default:
			return paymentPending()
		}
		n, err := tx.PaymentAttempt.Query().Where(paymentattempt.SubjectID(p.SubjectID)).Count(ctx)
		if err != nil {
			return err
		}
		create := tx.PaymentAttempt.Create().
			SetPurpose(p.Purpose).SetSubjectID(p.SubjectID).SetNumber(n + 1).
			SetState(paymentattempt.StateInFlight).SetLiveSubjectID(p.SubjectID)
		if p.Intent != nil {
			create.SetIntent(p.Intent)
		}
		attempt, err = create.Save(ctx)
		return err
	})
	if ent.IsConstraintError(err) {
		return nil, paymentPending()
	}
	if err != nil {
		return nil, err
	}
	in, err := s.port.CreatePaymentIntent(ctx, stripeport.IntentParams{
		Account:             *vp.AccountID,
		IdempotencyKey:      IdempotencyKey(string(p.Purpose), attempt.ID.String(), "create"),
		AmountMinor:         charge.AmountMinor,
		Currency:            charge.Currency,
		ApplicationFeeMinor: FeeShare(charge.AmountMinor, vp.ApplicationFeeBp),
		PaymentMethod:       p.PaymentMethodID,
		Customer:            p.CustomerID,
		Description:         charge.Description,
		OffSession:          p.OffSession,
		SaveCard:            p.SaveCard,
		Metadata: map[string]string{
			"attempt_id": attempt.ID.String(), "subject_id": p.SubjectID.String(),
			"purpose": string(p.Purpose), "organization_id": attempt.OrganizationID.String(),
		},
	})
	var card *stripeport.CardError
	switch {
	case errors.As(err, &card):
		if card.Intent != nil {
			card.Intent.FailureCode, card.Intent.DeclineCode = card.Code, card.DeclineCode
			if _, aerr := s.applyIntent(ctx, attempt.ID, card.Intent); aerr != nil {
				return nil, aerr
			}
		} else if ferr := s.failAttempt(ctx, attempt.ID, card.Code, card.DeclineCode); ferr != nil {
			return nil, ferr
		}
		return nil, declined(card.Code, card.DeclineCode)
	case errors.Is(err, stripeport.ErrUnknownOutcome):
		if uerr := s.markUnknown(ctx, attempt); uerr != nil {
			return nil, uerr
		}
		return nil, unknownOutcome()
	case err != nil:
		if ferr := s.failAttempt(ctx, attempt.ID, "processor_refused", ""); ferr != nil {
			return nil, ferr
		}
		s.log.ErrorContext(ctx, "payment intent refused", "attempt_id", attempt.ID, "error", err)
		return nil, stripeError()
	}
	status, err := s.applyIntent(ctx, attempt.ID, in)
	if err != nil {
		return nil, err
	}
	if status == "failed" {
		return nil, declined(in.FailureCode, in.DeclineCode)
	}
	return &ChargeResult{Status: status, IntentID: in.ID, ClientSecret: in.ClientSecret, AccountID: *vp.AccountID}, nil
}

// sameRequest reports whether the live attempt at is the request's own:
// always, unless the request names itself (intent request_key) and the
// attempt was made by another (a subject charged by several requests, such
// as a late fee: another's charge in flight is 409 PAYMENT_PENDING, never
// resent as this one's).
func sameRequest(at *ent.PaymentAttempt, intent map[string]any) bool {
	key, ok := intent["request_key"].(string)
	if !ok || key == "" {
		return true
	}
	had, _ := at.Intent["request_key"].(string)
	return had == key
}

// applySubjectIntent is applyIntent for the attempts of a registered
// subject; handled is false for checkout attempts. The same monotonic rules:
// a settled attempt never goes back to a live state, success wins, and the
// subject settles once under its row lock.
func (s *Service) applySubjectIntent(ctx context.Context, attemptID uuid.UUID, in *stripeport.Intent) (status string, handled bool, err error) {
	at, err := s.client.PaymentAttempt.Get(ctx, attemptID)
	if err != nil {
		return "", false, nil // applyIntent reports it
	}
	sub := subjectOf(at.Purpose)
	if sub == nil {
		return "", false, nil
	}
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		charge, err := sub.Lock(ctx, tx, at.SubjectID)
		if err != nil {
			return err
		}
		at, err := tx.PaymentAttempt.Get(ctx, attemptID) // re-read under the subject's lock
		if err != nil {
			return err
		}
		next := attemptState(in)
		status = in.Status
		if next == paymentattempt.StateFailed {
			status = "failed"
		}
		if charge.Paid {
			status = StatusPaid
		}
		if at.State != next && (!terminal(at.State) || next == paymentattempt.StateSucceeded) {
			upd := tx.PaymentAttempt.UpdateOne(at).SetState(next).SetProcessorObjectID(in.ID)
			if terminal(next) {
				upd.ClearLiveSubjectID()
			}
			if in.FailureCode != "" {
				upd.SetFailureCode(in.FailureCode)
			}
			if in.DeclineCode != "" {
				upd.SetDeclineCode(in.DeclineCode)
			}
			if _, err := upd.Save(ctx); err != nil {
				return err
			}
			if next == paymentattempt.StateFailed && !charge.Paid {
				if _, err := events.Record(ctx, tx.Client(), EventPaymentFailed, map[string]any{
					"purpose": string(at.Purpose), "subject_id": at.SubjectID.String(),
					"member_id": charge.MemberID.String(), "payment_intent_id": in.ID,
					"amount_minor": charge.AmountMinor, "currency": charge.Currency,
					"failure_code": in.FailureCode, "decline_code": in.DeclineCode,
				}); err != nil {
					return err
				}
			}
		}
		if next != paymentattempt.StateSucceeded || charge.Paid {
			return nil
		}
		if in.AmountMinor != 0 && (in.AmountMinor != charge.AmountMinor || in.Currency != charge.Currency) {
			return fmt.Errorf("payments: intent %s charged %d %s, %s %s froze %d %s",
				in.ID, in.AmountMinor, in.Currency, at.Purpose, at.SubjectID, charge.AmountMinor, charge.Currency)
		}
		if err := sub.Settle(ctx, tx, at.SubjectID, in.ID, s.now()); err != nil {
			return err
		}
		_, err = tx.PaymentAttempt.Update().
			Where(paymentattempt.SubjectID(at.SubjectID), paymentattempt.StateIn(liveStates...)).
			SetState(paymentattempt.StateSucceeded).ClearLiveSubjectID().Save(ctx)
		return err
	})
	return status, true, err
}

// RefreshSubject reads from Stripe the intent of a subject's live attempt
// that waits on the member or the bank (requires action, processing) and
// applies it, as confirm does for checkouts: a member back from 3-D Secure
// sees the subject settled without waiting for Stripe's event. It never
// writes to Stripe; with nothing to read it changes nothing.
func (s *Service) RefreshSubject(ctx context.Context, subjectID uuid.UUID) error {
	if s.port == nil {
		return nil
	}
	at, err := s.client.PaymentAttempt.Query().
		Where(paymentattempt.SubjectID(subjectID), paymentattempt.LiveSubjectIDNotNil(),
			paymentattempt.StateIn(paymentattempt.StateRequiresAction, paymentattempt.StateProcessing),
			paymentattempt.ProcessorObjectIDNotNil()).Only(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("payments: refresh: %w", err)
	}
	vp, err := s.venuePayments(ctx)
	if err != nil || vp == nil || vp.AccountID == nil {
		return err
	}
	in, err := s.port.GetPaymentIntent(ctx, *vp.AccountID, *at.ProcessorObjectID)
	if err != nil {
		s.log.WarnContext(ctx, "payment intent read", "attempt_id", at.ID, "error", err)
		return nil // the event or a later read settles it
	}
	_, err = s.applyIntent(ctx, at.ID, in)
	return err
}

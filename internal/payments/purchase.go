package payments

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Purposes of attempts (the {purpose} of their Stripe idempotency keys).
const (
	PurposeCheckoutCharge = "checkout_charge"
	PurposeCheckoutSetup  = "checkout_setup"
)

// PurchaseParams are a purchase of a quote.
type PurchaseParams struct {
	Quote Quote
	// PaymentMethodID (a saved card, pm_...) confirms the charge at once;
	// without it the intent waits for the payment sheet to confirm it.
	PaymentMethodID string
	CustomerID      string
	// RequestKey is a digest of the request's Idempotency-Key: a retry of the
	// same request resumes its attempt with the same Stripe key.
	RequestKey string
}

// Payment statuses a purchase or confirm answers.
const (
	StatusPaid                  = "succeeded"
	StatusRequiresAction        = "requires_action"
	StatusRequiresPaymentMethod = "requires_payment_method"
	StatusProcessing            = "processing"
)

// PurchaseResult is a purchase's outcome.
type PurchaseResult struct {
	Checkout *ent.Checkout
	// Status is succeeded (the pass is active), requires_action (3-D
	// Secure: finish with ClientSecret), requires_payment_method (confirm
	// with the payment sheet) or processing.
	Status       string
	IntentID     string
	ClientSecret string
	AccountID    string
	// SetupIntentID is set for a free start: the card is saved, nothing is
	// charged today; confirm with it.
	SetupIntentID string
}

// Purchase charges the frozen quote for the member of ctx (booking.AsMember).
func (s *Service) Purchase(ctx context.Context, org, userID, memberID uuid.UUID, p PurchaseParams) (*PurchaseResult, error) {
	pt, pr, err := s.verifyQuote(ctx, org, userID, p.Quote)
	if err != nil {
		return nil, err
	}
	return s.purchaseVerified(ctx, org, memberID, pt, pr, p)
}

// purchaseVerified charges a verified quote (p.Quote, priced pr): shared by
// fixed and flexible purchases (flexquote.go).
func (s *Service) purchaseVerified(ctx context.Context, org, memberID uuid.UUID, pt *ent.PassType, pr *Pricing, p PurchaseParams) (*PurchaseResult, error) {
	if pr.PayableMinor == 0 && !pt.IsRecurring {
		return s.purchaseWithoutCard(ctx, memberID, pt, pr, p)
	}
	vp, err := s.chargeable(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.requireArtifacts(ctx, memberID, pt); err != nil { // artifacts.go
		return nil, err
	}
	var (
		co      *ent.Checkout
		attempt *ent.PaymentAttempt
	)
	for try := 0; ; try++ {
		co, attempt, err = s.claim(ctx, memberID, pt, pr, vp, p)
		if err != nil && ent.IsConstraintError(err) && try < 2 {
			continue // a concurrent purchase of the same quote created it first
		}
		if ent.IsConstraintError(err) {
			return nil, paymentPending()
		}
		if errors.Is(err, errPaidByThisRequest) {
			return &PurchaseResult{Checkout: co, Status: StatusPaid, IntentID: deref(co.PaymentIntentID), AccountID: *vp.AccountID}, nil
		}
		if err != nil {
			return nil, err
		}
		break
	}
	if attempt.Purpose == paymentattempt.PurposeCheckoutSetup {
		return s.startSetup(ctx, vp, memberID, co, attempt)
	}
	if (p.PaymentMethodID != "" || pt.IsRecurring) && p.CustomerID == "" {
		// A saved card is confirmed on its customer (the member's); a
		// membership keeps the card on it for its renewals.
		pc, err := s.customer(ctx, vp, memberID, pt.IsRecurring)
		if err != nil {
			return nil, err
		}
		if pc != nil {
			p.CustomerID = pc.CustomerID
		}
	}
	in, err := s.port.CreatePaymentIntent(ctx, stripeport.IntentParams{
		Account:             *vp.AccountID,
		IdempotencyKey:      IdempotencyKey(PurposeCheckoutCharge, attempt.ID.String(), "create"),
		AmountMinor:         co.AmountMinor,
		Currency:            co.Currency,
		ApplicationFeeMinor: co.ApplicationFeeMinor,
		PaymentMethod:       p.PaymentMethodID,
		Customer:            p.CustomerID,
		SaveCard:            pt.IsRecurring,
		Description:         pt.Name,
		Metadata: map[string]string{
			"attempt_id": attempt.ID.String(), "checkout_id": co.ID.String(), "organization_id": org.String(),
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
	co, err = s.client.Checkout.Get(ctx, co.ID)
	if err != nil {
		return nil, fmt.Errorf("payments: checkout: %w", err)
	}
	return &PurchaseResult{Checkout: co, Status: status, IntentID: in.ID, ClientSecret: in.ClientSecret, AccountID: *vp.AccountID}, nil
}

// errPaidByThisRequest means the checkout was paid by an earlier run of the
// same purchase request (same Idempotency-Key) whose answer was lost.
var errPaidByThisRequest = errors.New("payments: paid by this request")

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// liveStates are the attempt states that hold the subject's live slot.
var liveStates = []paymentattempt.State{
	paymentattempt.StateCreated, paymentattempt.StateInFlight, paymentattempt.StateRequiresAction,
	paymentattempt.StateProcessing, paymentattempt.StateUnknown,
}

// claim finds or creates the checkout of the quote under its row lock and
// records the attempt about to be made, committed before Stripe is called.
// A retry of the request that made a live attempt (same request key) resumes
// that attempt; any other purchase while one is live is PAYMENT_PENDING.
func (s *Service) claim(ctx context.Context, memberID uuid.UUID, pt *ent.PassType, pr *Pricing, vp *ent.VenuePayments, p PurchaseParams) (co *ent.Checkout, at *ent.PaymentAttempt, err error) {
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		co, err = tx.Checkout.Query().
			Where(checkout.MemberID(memberID), checkout.QuoteFingerprint(p.Quote.Fingerprint)).
			ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			co, err = createCheckout(ctx, tx, memberID, pt, pr, vp, p.Quote)
			if err == nil {
				co, err = s.reserve(ctx, tx, co, pt, pr.Offer) // its hold and a membership's pending pass (resume.go)
			}
		}
		if err != nil {
			return err
		}
		if co.Status == checkout.StatusPaid {
			if p.RequestKey != "" && co.RequestKey != nil && *co.RequestKey == p.RequestKey {
				return errPaidByThisRequest // a retry after a crash lost the first answer
			}
			return alreadyPaid()
		}
		if co.ReleasedAt != nil { // its hold lapsed and what it held was given back (abandon.go)
			return holdExpired()
		}
		live, err := tx.PaymentAttempt.Query().
			Where(paymentattempt.SubjectID(co.ID), paymentattempt.StateIn(liveStates...)).
			Only(ctx)
		switch {
		case ent.IsNotFound(err):
		case err != nil:
			return err
		case p.RequestKey != "" && co.RequestKey != nil && *co.RequestKey == p.RequestKey &&
			(live.State == paymentattempt.StateCreated || live.State == paymentattempt.StateInFlight):
			at = live // the same request again: resend with the same Stripe key
			return nil
		case live.State == paymentattempt.StateUnknown:
			return unknownOutcome()
		default:
			return paymentPending()
		}
		n, err := tx.PaymentAttempt.Query().Where(paymentattempt.SubjectID(co.ID)).Count(ctx)
		if err != nil {
			return err
		}
		purpose := paymentattempt.PurposeCheckoutCharge
		if pt.IsRecurring && co.AmountMinor == 0 {
			purpose = paymentattempt.PurposeCheckoutSetup // a free start: save the card, charge nothing
		}
		at, err = tx.PaymentAttempt.Create().
			SetPurpose(purpose).SetSubjectID(co.ID).SetNumber(n + 1).
			SetState(paymentattempt.StateInFlight).SetLiveSubjectID(co.ID).Save(ctx)
		if err != nil {
			return err
		}
		upd := tx.Checkout.UpdateOne(co).SetStatus(checkout.StatusOpen)
		if p.RequestKey != "" {
			upd.SetRequestKey(p.RequestKey)
		} else {
			upd.ClearRequestKey()
		}
		co, err = upd.Save(ctx)
		return err
	})
	return co, at, err
}

// failAttempt closes an attempt that Stripe refused without an intent.
func (s *Service) failAttempt(ctx context.Context, id uuid.UUID, code, decline string) error {
	upd := s.client.PaymentAttempt.UpdateOneID(id).
		Where(paymentattempt.StateIn(liveStates...)).
		SetState(paymentattempt.StateFailed).ClearLiveSubjectID()
	if code != "" {
		upd.SetFailureCode(code)
	}
	if decline != "" {
		upd.SetDeclineCode(decline)
	}
	err := upd.Exec(ctx)
	if ent.IsNotFound(err) {
		return nil // already settled by an event
	}
	return err
}

// markUnknown records that an attempt's outcome is not known and queues the
// job that reconciles it, in one transaction.
func (s *Service) markUnknown(ctx context.Context, at *ent.PaymentAttempt) error {
	return events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		n, err := tx.PaymentAttempt.Update().
			Where(paymentattempt.ID(at.ID), paymentattempt.StateIn(paymentattempt.StateCreated, paymentattempt.StateInFlight)).
			SetState(paymentattempt.StateUnknown).Save(ctx)
		if err != nil || n == 0 {
			return err
		}
		return enqueueReconcile(ctx, at)
	})
}

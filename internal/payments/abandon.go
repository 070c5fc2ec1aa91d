package payments

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/membercredit"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/promos"
	"github.com/venueplatform/venue/internal/system"
)

// Abandoned checkouts. When a checkout's hold lapses unpaid, the sweep of
// lapsed holds (lapse.go) gives back, once, what it held: the checkout
// becomes canceled (released_at set), a membership's pending pass cancelled,
// the offer's place returned (claimed_count less one) and the member's
// credit it spent returned to the balance (a positive movement, source
// checkout_release). A payment the member left waiting is cancelled at
// Stripe by the cancel-intent job queued in the same transaction
// (holds.go). A checkout whose payment is being made or settling (created,
// in flight, processing, unknown) is left until it settles. Money that still arrives for a released checkout (the member
// finished the payment as the hold lapsed) is recorded and activates it
// like any other: activation takes the credit and the offer's place again
// (reclaimReleased), even past the offer's capacity, for staff to see.

// CheckoutHolds is the lapsing hold of checkouts (lapse.go).
func (s *Service) CheckoutHolds() HoldKind {
	return HoldKind{Name: "checkout", Due: s.lapsedCheckouts, Release: releaseCheckout}
}

// ReleaseLapsedHolds gives back what lapsed unpaid checkouts of every venue
// held; it returns how many it released.
func (s *Service) ReleaseLapsedHolds(ctx context.Context) (int, error) {
	return s.CheckoutHolds().Sweep(ctx, s.client, s.now())
}

func (s *Service) lapsedCheckouts(ctx context.Context, now time.Time) ([]Held, error) {
	// System call site: the sweep runs for every venue and holds no viewer;
	// it reads the ids and venues of lapsed checkouts, then releases each in
	// its venue's own transaction.
	due, err := s.client.Checkout.Query().
		Where(checkout.StatusEQ(checkout.StatusOpen), checkout.HoldExpiresAtLTE(now), checkout.ReleasedAtIsNil()).
		Limit(SweepBatch).All(system.Allow(ctx, "payments.lapsed_holds"))
	if err != nil {
		return nil, err
	}
	held := make([]Held, len(due))
	for i, co := range due {
		held[i] = Held{ID: co.ID, Venue: co.OrganizationID}
	}
	return held, nil
}

// releaseCheckout gives back what the lapsed checkout id of the viewer's
// venue held, once: under the checkout's row lock, only while it is open,
// unreleased, past its hold and no payment of it is being made. It reports
// whether this call released it.
func releaseCheckout(ctx context.Context, tx *ent.Tx, id uuid.UUID, now time.Time) (bool, error) {
	co, err := tx.Checkout.Query().Where(checkout.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return false, err
	}
	if co.Status != checkout.StatusOpen || co.ReleasedAt != nil || co.HoldExpiresAt == nil || now.Before(*co.HoldExpiresAt) {
		return false, nil
	}
	if busy, err := SubjectPaying(ctx, tx.Client(), co.ID); err != nil || busy {
		return false, err
	}
	// A free start's setup intent moves no money: its attempt is closed
	// here; a payment intent waiting on the member is cancelled by a job.
	if _, err := tx.PaymentAttempt.Update().
		Where(paymentattempt.LiveSubjectID(co.ID), paymentattempt.PurposeEQ(paymentattempt.PurposeCheckoutSetup)).
		SetState(paymentattempt.StateCanceled).ClearLiveSubjectID().Save(ctx); err != nil {
		return false, err
	}
	if err := CancelSubjectIntents(ctx, tx.Client(), co.ID); err != nil {
		return false, err
	}
	if err := tx.Checkout.UpdateOne(co).SetStatus(checkout.StatusCanceled).SetReleasedAt(now).Exec(ctx); err != nil {
		return false, err
	}
	if co.PassID != nil {
		if _, err := tx.Pass.Update().Where(pass.ID(*co.PassID), pass.StatusEQ(pass.StatusPending)).
			SetStatus(pass.StatusCancelled).Save(ctx); err != nil {
			return false, err
		}
	}
	if co.FlashSaleID != nil {
		if _, err := tx.FlashSale.Update().Where(flashsale.ID(*co.FlashSaleID), flashsale.ClaimedCountGT(0)).
			AddClaimedCount(-1).Save(ctx); err != nil {
			return false, err
		}
	}
	if err := promos.Release(ctx, tx, co.ID); err != nil { // the promo code's use it held
		return false, err
	}
	if co.CreditAppliedMinor > 0 {
		if err := tx.MemberCredit.Create().SetMemberID(co.MemberID).SetAmountMinor(co.CreditAppliedMinor).
			SetCurrency(co.Currency).SetSource(membercredit.SourceCheckoutRelease).SetCheckoutID(co.ID).Exec(ctx); err != nil {
			return false, err
		}
	}
	return true, nil
}

// reclaimReleased takes back, in the activation's transaction, what the
// release of co gave back: the credit it spent (spent again, which may take
// the balance below zero when it was spent meanwhile) and its offer's place.
func reclaimReleased(ctx context.Context, tx *ent.Tx, co *ent.Checkout) error {
	if co.ReleasedAt == nil {
		return nil
	}
	if co.FlashSaleID != nil {
		if _, err := tx.FlashSale.Update().Where(flashsale.ID(*co.FlashSaleID)).AddClaimedCount(1).Save(ctx); err != nil {
			return err
		}
	}
	if co.CreditAppliedMinor > 0 {
		return tx.MemberCredit.Create().SetMemberID(co.MemberID).SetAmountMinor(-co.CreditAppliedMinor).
			SetCurrency(co.Currency).SetSource(membercredit.SourceCheckout).SetCheckoutID(co.ID).Exec(ctx)
	}
	return nil
}

package payments

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/membercredit"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/promos"
	"github.com/venueplatform/venue/internal/system"
)

// Abandoned checkouts. When a checkout's hold lapses unpaid, the sweep gives
// back, once, what it held: the checkout becomes canceled (released_at set),
// a membership's pending pass cancelled, the offer's place returned
// (claimed_count less one) and the member's credit it spent returned to the
// balance (a positive movement, source checkout_release). A payment the
// member left waiting is cancelled at Stripe by the cancel-intent job queued
// in the same transaction (holds.go). A checkout whose payment is being made
// or settling (created, in flight, processing, unknown) is left until it
// settles. Money that still arrives for a released checkout (the member
// finished the payment as the hold lapsed) is recorded and activates it
// like any other: activation takes the credit and the offer's place again
// (reclaimReleased), even past the offer's capacity, for staff to see.

// ReleaseLapsedHolds gives back what lapsed unpaid checkouts of every venue
// held; it returns how many it released.
func (s *Service) ReleaseLapsedHolds(ctx context.Context) (int, error) {
	// System call site: the sweep runs for every venue and holds no viewer;
	// it reads the ids and venues of lapsed checkouts, then releases each in
	// its venue's own transaction.
	due, err := s.client.Checkout.Query().
		Where(checkout.StatusEQ(checkout.StatusOpen), checkout.HoldExpiresAtLTE(s.now()), checkout.ReleasedAtIsNil()).
		Limit(500).All(system.Allow(ctx, "payments.lapsed_holds"))
	if err != nil {
		return 0, fmt.Errorf("payments: lapsed holds: %w", err)
	}
	n := 0
	for _, co := range due {
		ok, err := s.ReleaseCheckout(inVenue(ctx, co.OrganizationID), co.ID)
		if err != nil {
			return n, err
		}
		if ok {
			n++
		}
	}
	return n, nil
}

// ReleaseCheckout gives back what the lapsed checkout id of the viewer's
// venue held, once: under the checkout's row lock, only while it is open,
// unreleased, past its hold and no payment of it is being made. It reports
// whether this call released it.
func (s *Service) ReleaseCheckout(ctx context.Context, id uuid.UUID) (bool, error) {
	released := false
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		co, err := tx.Checkout.Query().Where(checkout.ID(id)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		now := s.now()
		if co.Status != checkout.StatusOpen || co.ReleasedAt != nil || co.HoldExpiresAt == nil || now.Before(*co.HoldExpiresAt) {
			return nil
		}
		busy, err := tx.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(co.ID),
			paymentattempt.StateIn(paymentattempt.StateCreated, paymentattempt.StateInFlight,
				paymentattempt.StateProcessing, paymentattempt.StateUnknown)).Exist(ctx)
		if err != nil || busy {
			return err
		}
		// A free start's setup intent moves no money: its attempt is closed
		// here; a payment intent waiting on the member is cancelled by a job.
		if _, err := tx.PaymentAttempt.Update().
			Where(paymentattempt.LiveSubjectID(co.ID), paymentattempt.PurposeEQ(paymentattempt.PurposeCheckoutSetup)).
			SetState(paymentattempt.StateCanceled).ClearLiveSubjectID().Save(ctx); err != nil {
			return err
		}
		if err := CancelSubjectIntents(ctx, tx.Client(), co.ID); err != nil {
			return err
		}
		if err := tx.Checkout.UpdateOne(co).SetStatus(checkout.StatusCanceled).SetReleasedAt(now).Exec(ctx); err != nil {
			return err
		}
		if co.PassID != nil {
			if _, err := tx.Pass.Update().Where(pass.ID(*co.PassID), pass.StatusEQ(pass.StatusPending)).
				SetStatus(pass.StatusCancelled).Save(ctx); err != nil {
				return err
			}
		}
		if co.FlashSaleID != nil {
			if _, err := tx.FlashSale.Update().Where(flashsale.ID(*co.FlashSaleID), flashsale.ClaimedCountGT(0)).
				AddClaimedCount(-1).Save(ctx); err != nil {
				return err
			}
		}
		if err := promos.Release(ctx, tx, co.ID); err != nil { // the promo code's use it held
			return err
		}
		if co.CreditAppliedMinor > 0 {
			if err := tx.MemberCredit.Create().SetMemberID(co.MemberID).SetAmountMinor(co.CreditAppliedMinor).
				SetCurrency(co.Currency).SetSource(membercredit.SourceCheckoutRelease).SetCheckoutID(co.ID).Exec(ctx); err != nil {
				return err
			}
		}
		released = true
		return nil
	})
	return released, err
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

// ReleaseEvery runs ReleaseLapsedHolds every period until ctx ends.
func (s *Service) ReleaseEvery(ctx context.Context, period time.Duration) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := s.ReleaseLapsedHolds(ctx); err != nil {
				s.log.ErrorContext(ctx, "checkout hold sweep", "error", err)
			} else if n > 0 {
				s.log.InfoContext(ctx, "lapsed checkout holds released", "checkouts", n)
			}
		}
	}
}

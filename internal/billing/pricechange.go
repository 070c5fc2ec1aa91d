package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// One path changes what a membership's renewals cost at Stripe (the staff's
// recurring amount, rate locks, loyalty prices), in the attempt-row
// discipline of every other Stripe write:
//
//  1. Stripe is read (the subscription's item and product), nothing written.
//  2. One transaction records, per subscription, an attempt of purpose
//     subscription_update holding the subscription's live slot, the new
//     amount on our subscription row, the audit entry
//     membership.recurring_amount_changed naming the attempt (the intent,
//     which the reconcile reads), and the feature's own rows.
//  3. The Stripe update is sent under a key derived from the attempt, so a
//     re-send is the same write.
//
// Stripe took it: the attempt succeeds. The outcome is unknown (a 500 after
// stripe-go's retry, a timeout, a dropped connection): the attempt is left
// unknown with its reconcile job queued, our rows keep the intent and the
// answer is 409 UNKNOWN_WRITE_OUTCOME; the reconcile reads the subscription
// and, when its price is not the intent's, re-sends the update under the
// same key. Stripe refused: the attempts fail, the subscription rows and
// the feature's rows are put back in one transaction (a subscription Stripe
// already took in the same change is put back at Stripe first) and the
// answer is 502 STRIPE_ERROR, so our rows and Stripe never disagree.

// AuditPriceChangeFailed records a price change Stripe refused and that was
// put back.
const AuditPriceChangeFailed = "membership.recurring_amount_change_failed"

// priceTarget is one subscription's new price.
type priceTarget struct {
	sub    *ent.Subscription
	to     int64
	reason string
	// always sends the change even when the amount is the same (the staff's
	// explicit change of the recurring amount).
	always bool
	// own gives a subscription a schedule manages its phases' own prices
	// back (a rate lock ends); to is then what the next renewal charges.
	own bool
}

// priceChange is a change of membership prices with the rows that go with it.
type priceChange struct {
	targets []priceTarget
	// rows writes the feature's rows and audit entries in the intent's
	// transaction (may be nil).
	rows func(ctx context.Context, tx *ent.Tx) error
	// undo puts the feature's rows back when Stripe refuses, in the
	// transaction that records the refusal (may be nil).
	undo func(ctx context.Context, tx *ent.Tx) error
	// after runs once Stripe took the prices or their outcome is left to the
	// reconcile (messages to the member; may be nil).
	after func(ctx context.Context, tx *ent.Tx) error
	// partial, when set, keeps what Stripe took when it refuses only some
	// of the subscriptions (and no answer was lost): the refused ones alone
	// are put back, and partial writes the feature's rows of that outcome
	// (instead of undo) in the same transaction, given the refused passes.
	// changePrices then answers a *partialPrices error.
	partial func(ctx context.Context, tx *ent.Tx, refused map[uuid.UUID]bool) error
}

// partialPrices is the outcome of a price change Stripe took for some
// subscriptions and refused for the passes in refused (see
// priceChange.partial).
type partialPrices struct{ refused map[uuid.UUID]bool }

func (p *partialPrices) Error() string {
	return fmt.Sprintf("billing: price change refused for %d of its passes", len(p.refused))
}

// stagedPrice is a target with its attempt and its Stripe update.
type stagedPrice struct {
	priceTarget
	from int64
	at   *ent.PaymentAttempt
	upd  stripeport.SubscriptionUpdate
	// phases, when set, are sent instead of upd: a schedule manages the
	// subscription, so the price goes into its phases (ratelock_phases.go).
	phases *stripeport.PhasesParams
	result error
}

// changePrices runs pc along the one path; see above.
func (s *Service) changePrices(ctx context.Context, pc priceChange) error {
	var staged []*stagedPrice
	for _, t := range pc.targets {
		if t.always || t.own || t.sub.AmountMinor != t.to {
			staged = append(staged, &stagedPrice{priceTarget: t})
		}
	}
	if len(staged) > 0 {
		vp, err := s.pay.Chargeable(ctx)
		if err != nil {
			return err
		}
		for _, st := range staged {
			if st.sub.ProcessorSubscriptionID == nil {
				return noStripeSubscription(CodeNoBillableItem)
			}
			cur, err := s.port.GetSubscription(ctx, *vp.AccountID, *st.sub.ProcessorSubscriptionID)
			if err != nil {
				return stripeError()
			}
			if cur.ItemID == "" || cur.Product == "" {
				return noStripeSubscription(CodeNoBillableItem)
			}
			st.upd = stripeport.SubscriptionUpdate{Account: *vp.AccountID, ID: *st.sub.ProcessorSubscriptionID,
				AmountMinor: st.to, Currency: strings.ToLower(st.sub.Currency), Interval: string(st.sub.Interval),
				IntervalCount: st.sub.IntervalCount, Product: cur.Product, ItemID: cur.ItemID}
			if cur.Schedule != "" {
				if err := s.stagePhases(ctx, st); err != nil {
					return err
				}
			}
		}
		staged = slices.DeleteFunc(staged, func(st *stagedPrice) bool {
			return st.own && st.phases == nil && st.sub.AmountMinor == st.to
		})
	}
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		for _, st := range staged {
			if err := s.stagePrice(ctx, tx, st); err != nil {
				return err
			}
		}
		if pc.rows != nil {
			ids := make([]string, 0, len(staged))
			for _, st := range staged {
				ids = append(ids, st.at.ID.String())
			}
			return pc.rows(context.WithValue(ctx, attemptsKey{}, ids), tx)
		}
		return nil
	})
	if ent.IsConstraintError(err) {
		return refusal(http.StatusConflict, payments.CodePending, "another change of this membership is in progress", "refresh")
	}
	if err != nil {
		return err
	}

	unknown, refused := false, false
	for _, st := range staged {
		st.upd.IdempotencyKey = payments.IdempotencyKey(string(st.at.Purpose), st.at.ID.String(), "update")
		object := st.upd.ID
		if st.phases != nil {
			st.phases.IdempotencyKey = st.upd.IdempotencyKey
			var out *stripeport.Schedule
			if out, st.result = s.port.SchedulePhases(ctx, *st.phases); st.result == nil {
				object = out.ID
			}
		} else {
			_, st.result = s.port.UpdateSubscription(ctx, st.upd)
		}
		switch {
		case st.result == nil:
			if err := s.client.PaymentAttempt.UpdateOne(st.at).SetState(paymentattempt.StateSucceeded).
				SetProcessorObjectID(object).ClearLiveSubjectID().Exec(ctx); err != nil {
				return err
			}
		case errors.Is(st.result, stripeport.ErrUnknownOutcome):
			unknown = true
		default:
			refused = true
			s.pay.Logger().ErrorContext(ctx, "subscription price change refused", "attempt_id", st.at.ID, "error", st.result)
		}
	}
	if refused {
		taken := slices.ContainsFunc(staged, func(st *stagedPrice) bool { return st.result == nil })
		if pc.partial != nil && taken && !unknown {
			return s.keepTaken(ctx, staged, pc.partial)
		}
		return s.putBack(ctx, staged, pc.undo)
	}
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		for _, st := range staged {
			if st.result == nil {
				continue
			}
			at, err := tx.PaymentAttempt.UpdateOneID(st.at.ID).Where(paymentattempt.StateEQ(paymentattempt.StateInFlight)).
				SetState(paymentattempt.StateUnknown).Save(ctx)
			if ent.IsNotFound(err) {
				continue // the sweep took it already
			}
			if err != nil {
				return err
			}
			if err := payments.EnqueueReconcile(ctx, at); err != nil {
				return err
			}
		}
		if pc.after != nil {
			return pc.after(ctx, tx)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if unknown {
		return priceOutcomeUnknown()
	}
	return nil
}

// priceOutcomeUnknown is the 409 of a price change whose Stripe answer was
// lost: recorded, and finished by the reconcile.
func priceOutcomeUnknown() error {
	return refusal(http.StatusConflict, payments.CodeUnknownOutcome,
		"the price change is recorded; the payment processor's answer was lost and it is being confirmed", "refresh").
		With("write_state", "unknown")
}

// stagePrice records st's attempt, the new amount and the intent's audit
// entry in tx.
func (s *Service) stagePrice(ctx context.Context, tx *ent.Tx, st *stagedPrice) error {
	row, err := tx.Subscription.Query().Where(subscription.ID(st.sub.ID)).ForUpdate().Only(ctx)
	if err != nil {
		return err
	}
	if n, err := tx.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(row.ID)).Count(ctx); err != nil {
		return err
	} else if n > 0 {
		return refusal(http.StatusConflict, payments.CodePending, "another change of this membership is in progress", "refresh")
	}
	n, err := tx.PaymentAttempt.Query().Where(paymentattempt.SubjectID(row.ID)).Count(ctx)
	if err != nil {
		return err
	}
	st.at, err = tx.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeSubscriptionUpdate).
		SetSubjectID(row.ID).SetNumber(n + 1).SetState(paymentattempt.StateInFlight).
		SetLiveSubjectID(row.ID).Save(ctx)
	if err != nil {
		return err
	}
	st.from = row.AmountMinor
	if err := tx.Subscription.UpdateOne(row).SetAmountMinor(st.to).Exec(ctx); err != nil {
		return err
	}
	_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditRecurringAmountSet, Target: "pass:" + row.PassID.String(),
		Details: map[string]any{"subscription_id": row.ID.String(), "member_id": row.MemberID.String(),
			"from_minor": st.from, "to_minor": st.to, "currency": row.Currency, "reason": st.reason,
			"attempt_id": st.at.ID.String(), "item_id": st.upd.ItemID, "product": st.upd.Product,
			"phases": phasesIntent(st.phases)}})
	return err
}

// keepTaken records a change Stripe took for some subscriptions and
// refused for the others: the refused ones' attempts fail and their rows go
// back (revertPrice), the taken ones stay, and partial writes the feature's
// rows, in one transaction; the answer is a *partialPrices.
func (s *Service) keepTaken(ctx context.Context, staged []*stagedPrice, partial func(ctx context.Context, tx *ent.Tx, refused map[uuid.UUID]bool) error) error {
	refused := map[uuid.UUID]bool{}
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		for _, st := range staged {
			if st.result == nil {
				continue
			}
			refused[st.sub.PassID] = true
			if err := revertPrice(ctx, tx, st.sub, st.at.ID, st.from, st.to, st.reason); err != nil {
				return err
			}
		}
		return partial(ctx, tx, refused)
	})
	if err != nil {
		return err
	}
	return &partialPrices{refused: refused}
}

// putBack undoes a change Stripe refused: prices Stripe already took in it
// go back at Stripe, then one transaction fails the attempts, restores the
// subscription rows, runs undo and records the refusal.
func (s *Service) putBack(ctx context.Context, staged []*stagedPrice, undo func(ctx context.Context, tx *ent.Tx) error) error {
	for _, st := range staged {
		if st.result != nil {
			continue
		}
		if st.phases != nil {
			// The phases Stripe took stay (the next price job or lock
			// change sets them again); our row keeps what they charge.
			s.pay.Logger().ErrorContext(ctx, "price change put back: phases kept", "attempt_id", st.at.ID)
			st.result, st.from = nil, st.to
			continue
		}
		back := st.upd
		back.AmountMinor = st.from
		back.IdempotencyKey = payments.IdempotencyKey(string(st.at.Purpose), st.at.ID.String(), "put_back")
		if _, err := s.port.UpdateSubscription(ctx, back); err != nil {
			// Our row keeps the price Stripe charges: the subscription's
			// amount stays what Stripe took (logged for the staff).
			s.pay.Logger().ErrorContext(ctx, "price change put back failed", "attempt_id", st.at.ID, "error", err)
			st.result = nil
			st.from = st.to
		}
	}
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		for _, st := range staged {
			if err := revertPrice(ctx, tx, st.sub, st.at.ID, st.from, st.to, st.reason); err != nil {
				return err
			}
		}
		if undo != nil {
			return undo(ctx, tx)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return stripeError()
}

// priceIntent is what a price change's attempt set out to do, read back from
// its audit entry.
type priceIntent struct {
	from, to      int64
	item, product string
	// phases are the schedule phases sent instead of a price (nil: none).
	phases *stripeport.PhasesParams
}

// priceIntentOf reads the intent of attempt at (nil: the attempt is another
// kind of subscription update).
func priceIntentOf(ctx context.Context, client *ent.Client, sub *ent.Subscription, at *ent.PaymentAttempt) (*priceIntent, error) {
	rows, err := client.AuditLog.Query().Where(auditlog.Target("pass:"+sub.PassID.String()),
		auditlog.Action(AuditRecurringAmountSet)).Order(ent.Desc(auditlog.FieldCreatedAt)).Limit(200).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if fmt.Sprint(r.Details["attempt_id"]) != at.ID.String() {
			continue
		}
		num := func(k string) int64 {
			switch v := r.Details[k].(type) {
			case float64:
				return int64(v)
			case int64:
				return v
			case int:
				return int64(v)
			}
			return 0
		}
		item, _ := r.Details["item_id"].(string)
		product, _ := r.Details["product"].(string)
		return &priceIntent{from: num("from_minor"), to: num("to_minor"), item: item, product: product,
			phases: phasesOfIntent(r.Details["phases"])}, nil
	}
	return nil, nil
}

// reconcileSubscriptionUpdate settles a subscription update left unknown. A
// price change (its intent in our rows) is finished: when Stripe's price is
// not the intent's, the update is sent again under the attempt's key (the
// same write; Stripe replays it if it was made); a refusal then puts our
// subscription row back and records it. Another update is absolute (a date)
// and is dropped: it may simply be made again.
func reconcileSubscriptionUpdate(ctx context.Context, client *ent.Client, port stripeport.Port, at *ent.PaymentAttempt) error {
	drop := func() error {
		return client.PaymentAttempt.UpdateOneID(at.ID).Where(paymentattempt.StateEQ(paymentattempt.StateUnknown)).
			SetState(paymentattempt.StateCanceled).ClearLiveSubjectID().Exec(ctx)
	}
	sub, err := client.Subscription.Get(ctx, at.SubjectID)
	if err != nil {
		return fmt.Errorf("billing: reconcile update: %w", err)
	}
	in, err := priceIntentOf(ctx, client, sub, at)
	if err != nil {
		return fmt.Errorf("billing: reconcile update: %w", err)
	}
	if in == nil || sub.ProcessorSubscriptionID == nil {
		return drop()
	}
	vp, err := client.VenuePayments.Query().Only(ctx)
	if err != nil || vp.AccountID == nil {
		return fmt.Errorf("billing: reconcile update: venue account: %v", err)
	}
	cur, err := port.GetSubscription(ctx, *vp.AccountID, *sub.ProcessorSubscriptionID)
	if err != nil {
		return fmt.Errorf("billing: reconcile update: read: %w", err)
	}
	switch {
	case in.phases != nil:
		// The phases are sent again as recorded, under the attempt's key.
		p := *in.phases
		p.Account, p.Subscription, p.Product = *vp.AccountID, *sub.ProcessorSubscriptionID, in.product
		p.Currency, p.Interval, p.IntervalCount = sub.Currency, string(sub.Interval), sub.IntervalCount
		p.IdempotencyKey = payments.IdempotencyKey(string(at.Purpose), at.ID.String(), "update")
		_, err = port.SchedulePhases(ctx, p)
	case cur.AmountMinor != in.to:
		_, err = port.UpdateSubscription(ctx, stripeport.SubscriptionUpdate{Account: *vp.AccountID, ID: *sub.ProcessorSubscriptionID,
			AmountMinor: in.to, Currency: strings.ToLower(sub.Currency), Interval: string(sub.Interval),
			IntervalCount: sub.IntervalCount, Product: in.product, ItemID: in.item,
			IdempotencyKey: payments.IdempotencyKey(string(at.Purpose), at.ID.String(), "update")})
	}
	if errors.Is(err, stripeport.ErrUnknownOutcome) {
		return fmt.Errorf("billing: reconcile update: %w", err) // the job tries again
	}
	if err != nil { // Stripe refused: our rows go back as at the request (revertPrice)
		return events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
			return revertPrice(ctx, tx, sub, at.ID, in.from, in.to, "reconcile")
		})
	}
	err = client.PaymentAttempt.UpdateOneID(at.ID).Where(paymentattempt.StateEQ(paymentattempt.StateUnknown)).
		SetState(paymentattempt.StateSucceeded).SetProcessorObjectID(*sub.ProcessorSubscriptionID).ClearLiveSubjectID().Exec(ctx)
	if ent.IsNotFound(err) {
		return nil // settled meanwhile
	}
	return err
}

// attemptsKey carries the attempt ids of a price change to its rows, so
// their audit entries name them (revertPrice finds them by it).
type attemptsKey struct{}

// changeAttempts are the attempt ids of the price change running rows.
func changeAttempts(ctx context.Context) []string {
	ids, _ := ctx.Value(attemptsKey{}).([]string)
	return ids
}

// revertPrice puts back one price change Stripe refused, in tx: the
// attempt fails (unless settled already), the subscription row's amount
// goes back to from when it still holds to, the rate lock rows the change
// wrote are undone, and the refusal is audited. The one revert of the
// request's refusal (putBack) and of the reconcile's.
func revertPrice(ctx context.Context, tx *ent.Tx, sub *ent.Subscription, at uuid.UUID, from, to int64, reason string) error {
	n, err := tx.PaymentAttempt.Update().Where(paymentattempt.ID(at),
		paymentattempt.StateIn(paymentattempt.StateInFlight, paymentattempt.StateUnknown)).
		SetState(paymentattempt.StateFailed).SetFailureCode("processor_refused").ClearLiveSubjectID().Save(ctx)
	if err != nil || n == 0 {
		return err
	}
	if err := tx.Subscription.UpdateOneID(sub.ID).Where(subscription.AmountMinor(to)).
		SetAmountMinor(from).Exec(ctx); err != nil && !ent.IsNotFound(err) {
		return err
	}
	if err := revertRateLocks(ctx, tx, sub, at); err != nil {
		return err
	}
	_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditPriceChangeFailed, Target: "pass:" + sub.PassID.String(),
		Details: map[string]any{"subscription_id": sub.ID.String(), "attempt_id": at.String(),
			"amount_minor": from, "refused_minor": to, "reason": reason}})
	return err
}

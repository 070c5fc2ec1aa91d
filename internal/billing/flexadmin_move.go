package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"entgo.io/ent/dialect/sql"
	"entgo.io/ent/dialect/sql/sqljson"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Move to Flexible: a fixed recurring membership moves onto a flexible pass
// type at one of its renewals (1 to 24), on the same Stripe subscription.
// Scheduling records the move on the pass as its scheduled change (the
// change names the flexible pass type) and gives the subscription's
// schedule a phase at the selection's price from that renewal (combined
// with a binding's phases, flexschedule.go), under an attempt row. The paid
// invoice of the phase's first period gives the pass and its subscription
// the flexible pass type and the selection (flexAfterRenewal). No pass is
// made: the response's new_pass_id is null.
//
// Moves scheduled before the move was a phase (a pending_activation pass
// with its own subscription, the old one told to end) keep working that
// way: the same move again finishes their Stripe steps.

// AuditMovedToFlexible is the audit action of a scheduled move.
const AuditMovedToFlexible = "membership.move_to_flexible_scheduled"

// FlexMove is a previewed or scheduled Move to Flexible.
type FlexMove struct {
	Pass        *ent.Pass
	From        *ent.PassType
	To          *ent.PassType
	Selection   payments.Selection
	FromPrice   int64
	ToPrice     int64
	Currency    string
	Renewal     int
	EffectiveOn time.Time
	// NewPass is the pending_activation pass of a move made before moves
	// were schedule phases; nil otherwise (the membership keeps its pass).
	NewPass *ent.Pass
}

// PreviewMoveToFlexible prices moving pass id onto flexible pass type
// target with sel from renewal n; nothing is written. Refusals are 422
// VALIDATION_FAILED with details.reason: pass_not_active, not_movable (not a
// fixed recurring membership with live renewals), target_not_flexible,
// currency_mismatch, selection_unavailable or renewal_not_allowed.
func (s *Service) PreviewMoveToFlexible(ctx context.Context, id, target uuid.UUID, sel payments.Selection, n int) (*FlexMove, error) {
	return s.planMove(ctx, s.client, id, target, sel, n)
}

func (s *Service) planMove(ctx context.Context, c *ent.Client, id, target uuid.UUID, sel payments.Selection, n int) (*FlexMove, error) {
	if n < 1 || n > payments.MaxRenewal {
		return nil, apperr.Validation("renewal", "renewal is 1 to 24")
	}
	p, err := c.Pass.Query().Where(pass.ID(id)).WithPassType().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, passNotFound()
	}
	if err != nil {
		return nil, err
	}
	from := p.Edges.PassType
	if p.Status != pass.StatusActive {
		return nil, flexRefusal("pass_not_active", "only an active membership can move")
	}
	if !from.IsRecurring || from.PricingMode == passtype.PricingModeFlexibleQuantity {
		return nil, flexRefusal("not_movable", "only a fixed recurring membership moves to a flexible one")
	}
	sub, err := c.Subscription.Query().Where(subscription.PassID(p.ID)).Only(ctx)
	if ent.IsNotFound(err) || (err == nil && (sub.ProcessorSubscriptionID == nil || sub.CanceledAt != nil)) {
		return nil, flexRefusal("not_movable", "the membership has no live renewals")
	}
	if err != nil {
		return nil, err
	}
	if sub.CancelAt != nil { // the current cancellation, not any cancel ever asked (it may be withdrawn)
		return nil, flexRefusal("not_movable", "the membership is cancelled: it ends instead of renewing")
	}
	to, err := c.PassType.Query().Where(passtype.ID(target), passtype.Active(true)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("pass type")
	}
	if err != nil {
		return nil, err
	}
	if to.PricingMode != passtype.PricingModeFlexibleQuantity || !to.IsRecurring || to.BillingInterval == nil {
		return nil, flexRefusal("target_not_flexible", "the pass type is not a flexible membership")
	}
	if !strings.EqualFold(to.Currency, sub.Currency) {
		return nil, flexRefusal("currency_mismatch", "the flexible membership is sold in another currency")
	}
	price, ok := payments.FlexiblePrice(to.FlexiblePricingConfig, sel, to.Currency)
	if !ok {
		return nil, flexRefusal("selection_unavailable", "the membership does not sell that selection")
	}
	rs := payments.RenewalDates(p, from, n)
	if len(rs) < n {
		return nil, flexRefusal("renewal_not_allowed", "the membership has no such renewal").With("renewal", n)
	}
	return &FlexMove{Pass: p, From: from, To: to, Selection: sel, FromPrice: sub.AmountMinor, ToPrice: price,
		Currency: sub.Currency, Renewal: n, EffectiveOn: rs[n-1].Date}, nil
}

// MoveToFlexible schedules the move PreviewMoveToFlexible prices as a
// phase of the membership's subscription schedule: one transaction records
// the move as the pass's scheduled change, its audit entry and a
// subscription_update attempt holding the subscription's live slot; then
// the schedule's phases are sent under a key of the attempt. Unknown
// outcome: 409 UNKNOWN_WRITE_OUTCOME, the move stays recorded, the attempt
// goes to the reconcile and the price job sets the phases again. Refusal:
// our rows are put back (revertMove) and it is 502 STRIPE_ERROR. A
// membership with another move scheduled is 409 MOVE_ALREADY_SCHEDULED; the
// same move again answers it.
func (s *Service) MoveToFlexible(ctx context.Context, id, target uuid.UUID, sel payments.Selection, n int, reason string) (*FlexMove, error) {
	var (
		mv     *FlexMove
		sub    *ent.Subscription
		at     *ent.PaymentAttempt
		prev   *model.FlexibleChange
		legacy bool
		again  bool
	)
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := tx.Pass.Query().Where(pass.ID(id)).ForUpdate().Only(ctx); err != nil && !ent.IsNotFound(err) {
			return err
		}
		var err error
		if mv, err = s.planMove(ctx, tx.Client(), id, target, sel, n); err != nil {
			return err
		}
		pending, err := tx.Pass.Query().Where(pass.MemberID(mv.Pass.MemberID), pass.StatusEQ(pass.StatusPendingActivation)).All(ctx)
		if err != nil {
			return err
		}
		for _, q := range pending { // a move made the old way
			same := q.PassTypeID == target && q.ValidFrom.Equal(mv.EffectiveOn) &&
				payments.PassSelection(q, mv.To.FlexiblePricingConfig) == sel
			if !same {
				return moveScheduled(q.ID)
			}
			mv.NewPass, legacy = q, true
			return nil
		}
		p := mv.Pass
		if ch := p.FlexibleChange; ch != nil && ch.PassTypeID != "" {
			if ch.PassTypeID != target.String() || ch.EffectiveOn != mv.EffectiveOn.Format(time.DateOnly) ||
				ch.Kind != sel.Kind() || (!sel.Unlimited && ch.Quantity != sel.Quantity) {
				return moveScheduled(p.ID)
			}
			again = true
			return nil
		}
		prev = p.FlexibleChange
		if sub, err = tx.Subscription.Query().Where(subscription.PassID(p.ID)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		if at, err = claimUpdate(ctx, tx, sub); err != nil {
			return err
		}
		now := s.now().UTC().Truncate(time.Second)
		ch := &model.FlexibleChange{Kind: sel.Kind(), Renewal: n, EffectiveOn: mv.EffectiveOn.Format(time.DateOnly),
			PriceMinor: mv.ToPrice, Currency: mv.Currency, ScheduledAt: now.Format(time.RFC3339), PassTypeID: target.String()}
		if !sel.Unlimited {
			ch.Quantity = sel.Quantity
		}
		if mv.Pass, err = tx.Pass.UpdateOne(p).SetFlexibleChange(ch).Save(ctx); err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditMovedToFlexible, Target: "pass:" + id.String(),
			Details: map[string]any{"member_id": mv.Pass.MemberID.String(), "subscription_id": sub.ID.String(),
				"attempt_id": at.ID.String(), "from_pass_type_id": mv.From.ID.String(),
				"to_pass_type_id": target.String(), "to": sel.AllowanceLabel(), "from_price_minor": mv.FromPrice,
				"to_price_minor": mv.ToPrice, "currency": mv.Currency, "renewal": n,
				"effective_on": ch.EffectiveOn, "reason": reason}})
		return err
	})
	if ent.IsConstraintError(err) {
		return nil, refusal(http.StatusConflict, payments.CodePending, "another change of this membership is in progress", "refresh")
	}
	if err != nil {
		return nil, err
	}
	switch {
	case legacy:
		return mv, s.finishLegacyMove(ctx, id, mv)
	case again:
		return mv, nil
	}
	return mv, s.pushMove(ctx, mv, sub, at, prev)
}

// pushMove sends the phases of a recorded move under attempt at; see
// MoveToFlexible for the outcomes.
func (s *Service) pushMove(ctx context.Context, mv *FlexMove, sub *ent.Subscription, at *ent.PaymentAttempt, prev *model.FlexibleChange) error {
	lock, err := appliedLock(ctx, s.client, mv.Pass.ID)
	if err != nil {
		return err
	}
	plan, err := s.planPhases(ctx, s.client, mv.Pass, sub, lock)
	if err == nil {
		plan.params.IdempotencyKey = payments.IdempotencyKey(string(at.Purpose), at.ID.String(), "move_phases")
		var out *stripeport.Schedule
		if out, err = s.port.SchedulePhases(ctx, plan.params); err == nil {
			if err := s.client.Subscription.UpdateOneID(sub.ID).SetAmountMinor(plan.next).Exec(ctx); err != nil {
				return err
			}
			return s.client.PaymentAttempt.UpdateOne(at).SetState(paymentattempt.StateSucceeded).
				SetProcessorObjectID(out.ID).ClearLiveSubjectID().Exec(ctx)
		}
	}
	if errors.Is(err, stripeport.ErrUnknownOutcome) {
		err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
			u, err := tx.PaymentAttempt.UpdateOneID(at.ID).Where(paymentattempt.StateEQ(paymentattempt.StateInFlight)).
				SetState(paymentattempt.StateUnknown).Save(ctx)
			if ent.IsNotFound(err) {
				return nil // the sweep took it already
			}
			if err != nil {
				return err
			}
			if err := payments.EnqueueReconcile(ctx, u); err != nil {
				return err
			}
			return schedulePrice(ctx, tx, mv.Pass) // the price job sets the phases again from our rows
		})
		if err != nil {
			return err
		}
		return refusal(http.StatusConflict, payments.CodeUnknownOutcome,
			"the move is recorded; the payment processor's answer was lost and it is being confirmed", "refresh").
			With("write_state", "unknown")
	}
	s.pay.Logger().ErrorContext(ctx, "move to flexible refused", "attempt_id", at.ID, "error", err)
	if err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		return revertMove(ctx, tx, mv.Pass.ID, at, prev)
	}); err != nil {
		return err
	}
	return stripeError()
}

// AuditMoveFailed records a move Stripe refused and that was put back.
const AuditMoveFailed = "membership.move_to_flexible_failed"

// revertMove puts back a move whose phases Stripe refused: the attempt
// fails and the pass's scheduled change is what it was before. One
// function for the refusal at the request and at the reconcile.
func revertMove(ctx context.Context, tx *ent.Tx, passID uuid.UUID, at *ent.PaymentAttempt, prev *model.FlexibleChange) error {
	n, err := tx.PaymentAttempt.Update().Where(paymentattempt.ID(at.ID),
		paymentattempt.StateIn(paymentattempt.StateInFlight, paymentattempt.StateUnknown)).
		SetState(paymentattempt.StateFailed).SetFailureCode("processor_refused").ClearLiveSubjectID().Save(ctx)
	if err != nil || n == 0 {
		return err // n == 0: settled already
	}
	upd := tx.Pass.UpdateOneID(passID).ClearFlexibleChange()
	if prev != nil {
		upd = tx.Pass.UpdateOneID(passID).SetFlexibleChange(prev)
	}
	if err := upd.Exec(ctx); err != nil {
		return err
	}
	_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditMoveFailed, Target: "pass:" + passID.String(),
		Details: map[string]any{"attempt_id": at.ID.String()}})
	return err
}

func moveScheduled(pending uuid.UUID) error {
	return refusal(http.StatusConflict, "MOVE_ALREADY_SCHEDULED", "a move of this membership is scheduled already", nil).
		With("pending_pass_id", pending.String())
}

// claimUpdate records a subscription_update attempt of sub holding its
// live slot in tx; a change in flight is PAYMENT_PENDING.
func claimUpdate(ctx context.Context, tx *ent.Tx, sub *ent.Subscription) (*ent.PaymentAttempt, error) {
	if n, err := tx.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(sub.ID)).Count(ctx); err != nil {
		return nil, err
	} else if n > 0 {
		return nil, refusal(http.StatusConflict, payments.CodePending, "another change of this membership is in progress", "refresh")
	}
	n, err := tx.PaymentAttempt.Query().Where(paymentattempt.SubjectID(sub.ID)).Count(ctx)
	if err != nil {
		return nil, err
	}
	return tx.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeSubscriptionUpdate).
		SetSubjectID(sub.ID).SetNumber(n + 1).SetState(paymentattempt.StateInFlight).
		SetLiveSubjectID(sub.ID).Save(ctx)
}

// intentLegacyMoveEnd is the intent kind of the update attempt that tells
// the subscription of a legacy move's old pass to end (endAt).
const intentLegacyMoveEnd = "legacy_move_end"

// finishLegacyMove finishes the Stripe steps of a move made the old way (a
// pending_activation pass with its own subscription), once however often
// it is asked: Start reuses its one creation attempt and answers a started
// subscription as it is, and the old subscription's end is sent only while
// no succeeded attempt of it names the new pass (its intent).
func (s *Service) finishLegacyMove(ctx context.Context, id uuid.UUID, mv *FlexMove) error {
	if _, err := s.Start(ctx, mv.NewPass.ID); err != nil {
		if ae := (*apperr.Error)(nil); errors.As(err, &ae) {
			return err
		}
		s.pay.Logger().ErrorContext(ctx, "move to flexible: start the new subscription", "pass_id", mv.NewPass.ID, "error", err)
		return stripeError()
	}
	ended, err := s.client.PaymentAttempt.Query().Where(paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionUpdate),
		paymentattempt.StateEQ(paymentattempt.StateSucceeded), func(q *sql.Selector) {
			q.Where(sqljson.ValueEQ(paymentattempt.FieldIntent, intentLegacyMoveEnd, sqljson.Path("kind")))
			q.Where(sqljson.ValueEQ(paymentattempt.FieldIntent, mv.NewPass.ID.String(), sqljson.Path("new_pass_id")))
		}).Exist(ctx)
	if err != nil || ended {
		return err
	}
	return s.endAt(ctx, id, mv.EffectiveOn, map[string]any{"kind": intentLegacyMoveEnd, "new_pass_id": mv.NewPass.ID.String()})
}

// applyMove gives the pass (upd) and its subscription the flexible pass
// type of move ch: the paid invoice is the first of the move's phase.
func applyMove(ctx context.Context, tx *ent.Tx, upd *ent.PassUpdateOne, sub *ent.Subscription, ch *model.FlexibleChange) error {
	to, err := uuid.Parse(ch.PassTypeID)
	if err != nil {
		return fmt.Errorf("billing: move to flexible: %w", err)
	}
	if err := upd.SetPassTypeID(to).Exec(ctx); err != nil {
		return err
	}
	return tx.Subscription.UpdateOneID(sub.ID).SetPassTypeID(to).SetAmountMinor(ch.PriceMinor).Exec(ctx)
}

// priceTerms are the terms (termsOf) that price pass p's renewals: none
// once the pass moved off the pass type it was sold as (a Move to
// Flexible), whose phase prices it from then on.
func priceTerms(ctx context.Context, c *ent.Client, p *ent.Pass, pt *ent.PassType) (*scheduleTerms, error) {
	sold, err := c.Checkout.Query().Where(checkout.PassID(p.ID), checkout.StatusEQ(checkout.StatusPaid),
		checkout.PassTypeIDNEQ(p.PassTypeID)).Exist(ctx)
	if sold || err != nil {
		return nil, err
	}
	return termsOf(ctx, c, p, pt)
}

// endAt tells the pass's subscription to end at the start of day (in the
// venue's time zone) instead of renewing, under an update attempt that
// keeps intent (why it ends).
func (s *Service) endAt(ctx context.Context, passID uuid.UUID, day time.Time, intent map[string]any) error {
	sub, err := s.liveSubscription(ctx, passID, CodeNoStripeSubscription)
	if err != nil {
		return err
	}
	_, loc, err := s.venueToday(ctx)
	if err != nil {
		return err
	}
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return err
	}
	at, err := s.updateAttempt(ctx, sub)
	if err != nil {
		return err
	}
	withIntent, err := s.client.PaymentAttempt.UpdateOne(at).SetIntent(intent).Save(ctx)
	if err != nil {
		_ = s.client.PaymentAttempt.UpdateOneID(at.ID).SetState(paymentattempt.StateCanceled).ClearLiveSubjectID().Exec(ctx)
		return err
	}
	at = withIntent
	// The earlier of the day's start in the venue and in UTC (renewals fall
	// at the start of their UTC day): never after the renewal it replaces.
	end := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, loc)
	if u := dateOf(day); u.Before(end) {
		end = u
	}
	if _, err := s.stripeUpdate(ctx, at, stripeport.SubscriptionUpdate{Account: *vp.AccountID, ID: *sub.ProcessorSubscriptionID,
		CancelAt: end}); err != nil {
		return err
	}
	return s.client.PaymentAttempt.UpdateOneID(at.ID).SetState(paymentattempt.StateSucceeded).
		SetProcessorObjectID(*sub.ProcessorSubscriptionID).ClearLiveSubjectID().Exec(ctx)
}

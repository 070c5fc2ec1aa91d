package billing

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Move to Flexible: a fixed recurring membership moves onto a flexible pass
// type at one of its renewals (1 to 24). Scheduling makes the new pass,
// pending_activation from that renewal with the selection, starts its
// subscription with its first charge on that day (the flexible price) and
// tells the old subscription to end then (cancel_at), so the old one never
// invoices that renewal. The new subscription's first paid invoice makes
// the new pass active.

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
	// NewPass is the pending_activation pass; nil in a preview.
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

// MoveToFlexible schedules the move PreviewMoveToFlexible prices: one
// transaction makes the pending_activation pass and the audit entry, then
// the new subscription is started (first charge on the move's day) and the
// old one told to end that day, each under its attempt row. A membership
// with a move scheduled already is 409 MOVE_ALREADY_SCHEDULED, unless the
// request names the same move (then it finishes the Stripe steps a failure
// left, and answers it).
func (s *Service) MoveToFlexible(ctx context.Context, id, target uuid.UUID, sel payments.Selection, n int, reason string) (*FlexMove, error) {
	var mv *FlexMove
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
		for _, q := range pending {
			same := q.PassTypeID == target && q.ValidFrom.Equal(mv.EffectiveOn) &&
				payments.PassSelection(q, mv.To.FlexiblePricingConfig) == sel
			if !same {
				return refusal(http.StatusConflict, "MOVE_ALREADY_SCHEDULED", "a move of this membership is scheduled already", nil).
					With("pending_pass_id", q.ID.String())
			}
			mv.NewPass = q
			return nil
		}
		pc := tx.Pass.Create().SetMemberID(mv.Pass.MemberID).SetPassTypeID(target).SetStatus(pass.StatusPendingActivation).
			SetValidFrom(mv.EffectiveOn).SetValidTo(mv.EffectiveOn).SetFlexibleKind(pass.FlexibleKind(sel.Kind()))
		if !sel.Unlimited {
			pc.SetFlexibleQuantity(sel.Quantity)
		}
		if mv.NewPass, err = pc.Save(ctx); err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditMovedToFlexible, Target: "pass:" + id.String(),
			Details: map[string]any{"member_id": mv.Pass.MemberID.String(), "new_pass_id": mv.NewPass.ID.String(),
				"to_pass_type_id": target.String(), "to": sel.AllowanceLabel(), "from_price_minor": mv.FromPrice,
				"to_price_minor": mv.ToPrice, "currency": mv.Currency, "renewal": n,
				"effective_on": mv.EffectiveOn.Format(time.DateOnly), "reason": reason}})
		return err
	})
	if err != nil {
		return nil, err
	}
	if _, err := s.Start(ctx, mv.NewPass.ID); err != nil {
		if ae := (*apperr.Error)(nil); errors.As(err, &ae) {
			return nil, err
		}
		s.pay.Logger().ErrorContext(ctx, "move to flexible: start the new subscription", "pass_id", mv.NewPass.ID, "error", err)
		return nil, stripeError()
	}
	if err := s.endAt(ctx, id, mv.EffectiveOn); err != nil {
		return nil, err
	}
	return mv, nil
}

// endAt tells the pass's subscription to end at the start of day (in the
// venue's time zone) instead of renewing, under an update attempt.
func (s *Service) endAt(ctx context.Context, passID uuid.UUID, day time.Time) error {
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

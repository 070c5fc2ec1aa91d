package billing

import (
	"context"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/loyaltyprice"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/ratelock"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/payments"
)

// New purchases of a pass type by a member with a loyalty price of it are
// quoted at it (the checkout quote's member price hook).
func init() {
	payments.RegisterMemberPriceHook(func(ctx context.Context, c *ent.Client, memberID uuid.UUID, pt *ent.PassType) (int64, bool, error) {
		if pt.PricingMode == passtype.PricingModeFlexibleQuantity {
			return 0, false, nil
		}
		g, err := c.LoyaltyPrice.Query().Where(loyaltyprice.MemberID(memberID), loyaltyprice.PassTypeID(pt.ID),
			loyaltyprice.StatusEQ(loyaltyprice.StatusActive)).First(ctx)
		if ent.IsNotFound(err) {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, err
		}
		return g.AmountMinor, strings.EqualFold(g.Currency, pt.Currency), nil
	})
}

// Loyalty prices: staff give one member their own price of a pass type.
// While a grant is active the member's renewing memberships of that pass
// type charge it (the subscription's price at Stripe changes through
// ChangeRecurringAmount, from the next invoice on, without proration) and
// the member's new purchases of it are quoted at it (LoyaltyQuotePrice, the
// checkout quote's price hook). Precedence of a renewal's price: an active,
// applied rate lock of the pass, then the loyalty price, then the pass
// type's own price. While a rate lock holds the price, a grant or a revoke
// changes only the price the lock returns to (its base_amount_minor).

// Audit actions and the staff permission of loyalty prices.
const (
	AuditLoyaltyPriceGranted = "membership.loyalty_price_granted"
	AuditLoyaltyPriceRevoked = "membership.loyalty_price_revoked"

	// PermLoyaltyPriceGrant is the contract's staff permission of grants
	// and revokes (API keys: write:passes).
	PermLoyaltyPriceGrant = "loyalty_price.grant"
)

// LoyaltyGrantParams is a new loyalty price: the member (by user id), the
// pass type, the amount in major units (Amount) or minor units
// (AmountMinor), exactly one, and optionally the pass it was granted from.
type LoyaltyGrantParams struct {
	UserID      uuid.UUID
	PassTypeID  uuid.UUID
	PassID      *uuid.UUID
	Amount      *float64
	AmountMinor *int64
	Reason      string
}

// LoyaltyRevokeParams names the grants to revoke: the member's active
// grants, or with PassID only the grant of that pass's pass type.
type LoyaltyRevokeParams struct {
	UserID uuid.UUID
	PassID *uuid.UUID
	Reason string
}

// memberOfUser is the venue's member of user: 404 when the user is not one.
func (s *Service) memberOfUser(ctx context.Context, userID uuid.UUID) (*ent.Member, error) {
	m, err := s.client.Member.Query().Where(member.UserID(userID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("member")
	}
	return m, err
}

// loyaltyAmount converts the request's amount to minor units of currency:
// exactly one of the two forms, above zero, whole minor units.
func loyaltyAmount(p LoyaltyGrantParams, currency string) (int64, error) {
	switch {
	case p.Amount != nil && p.AmountMinor != nil:
		return 0, apperr.Validation("amount", "give amount or amount_minor, not both")
	case p.Amount != nil:
		return minorOf(*p.Amount, currency)
	case p.AmountMinor != nil:
		if *p.AmountMinor <= 0 {
			return 0, apperr.Validation("amount_minor", "amount_minor must be more than 0")
		}
		return *p.AmountMinor, nil
	}
	return 0, apperr.Validation("amount", "amount or amount_minor is required")
}

// liveSubscriptionsOf are the member's subscriptions of a pass type that
// renew at Stripe now.
func (s *Service) liveSubscriptionsOf(ctx context.Context, memberID, passTypeID uuid.UUID) ([]*ent.Subscription, error) {
	return s.client.Subscription.Query().Where(subscription.MemberID(memberID), subscription.PassTypeID(passTypeID),
		subscription.ProcessorSubscriptionIDNotNil(), subscription.CanceledAtIsNil()).All(ctx)
}

// lockBases are the base prices of applied rate locks a loyalty change
// moves: the new ones (set in the change's transaction) and the old ones
// (put back when Stripe refuses the change).
type lockBases struct{ next, prev map[uuid.UUID]int64 }

func newLockBases() lockBases {
	return lockBases{next: map[uuid.UUID]int64{}, prev: map[uuid.UUID]int64{}}
}

// reprice makes sub's renewals charge amount: through the pass's applied
// rate lock when one holds the price (the lock then returns to amount, set
// in the change's transaction through locks), else as a target of the one
// price-change path (nil when nothing changes).
func (s *Service) reprice(ctx context.Context, sub *ent.Subscription, amount int64, why string, locks lockBases) (*priceTarget, error) {
	lk, err := s.client.RateLock.Query().Where(ratelock.PassID(sub.PassID), ratelock.StatusEQ(ratelock.StatusActive),
		ratelock.Applied(true)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	if lk != nil {
		locks.next[lk.ID], locks.prev[lk.ID] = amount, lk.BaseAmountMinor
		return nil, nil
	}
	if sub.AmountMinor == amount {
		return nil, nil
	}
	return &priceTarget{sub: sub, to: amount, reason: why}, nil
}

// GrantLoyaltyPrice gives a member their own price of a pass type (a grant
// of the same member and pass type before is replaced) and reprices the
// member's renewing memberships of it. Refusals change nothing: 404 (user
// not a member, pass type, pass not the member's of that pass type), 400
// VALIDATION_ERROR (amount, a flexible pass type), 502 STRIPE_ERROR.
func (s *Service) GrantLoyaltyPrice(ctx context.Context, p LoyaltyGrantParams) (*ent.LoyaltyPrice, error) {
	m, err := s.memberOfUser(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	pt, err := s.client.PassType.Get(ctx, p.PassTypeID)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("pass type")
	}
	if err != nil {
		return nil, err
	}
	if pt.PricingMode == passtype.PricingModeFlexibleQuantity {
		return nil, apperr.Validation("pass_type_id", "a flexible membership is priced by its tiers, not by one price")
	}
	if p.PassID != nil {
		n, err := s.client.Pass.Query().Where(pass.ID(*p.PassID), pass.MemberID(m.ID), pass.PassTypeID(pt.ID)).Count(ctx)
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, passNotFound()
		}
	}
	amount, err := loyaltyAmount(p, pt.Currency)
	if err != nil {
		return nil, err
	}
	prev, err := s.client.LoyaltyPrice.Query().Where(loyaltyprice.MemberID(m.ID), loyaltyprice.PassTypeID(pt.ID),
		loyaltyprice.StatusEQ(loyaltyprice.StatusActive)).All(ctx)
	if err != nil {
		return nil, err
	}
	// The same price of the same scope already granted (a grant Stripe
	// took only for some passes, retried): it stays, and only the passes
	// that do not charge it yet are written (loyalty_partial.go).
	keep := sameGrant(prev, p.PassID, amount)
	if keep != nil {
		prev = slices.DeleteFunc(slices.Clone(prev), func(g *ent.LoyaltyPrice) bool { return g.ID == keep.ID })
	}
	subs, err := s.liveSubscriptionsOf(ctx, m.ID, pt.ID)
	if err != nil {
		return nil, err
	}
	locks := newLockBases()
	var targets []priceTarget
	for _, sub := range subs {
		t, err := s.reprice(ctx, sub, amount, "loyalty price", locks)
		if err != nil {
			return nil, err
		}
		if t != nil {
			targets = append(targets, *t)
		}
	}
	var out *ent.LoyaltyPrice
	rows := func(ctx context.Context, tx *ent.Tx) error {
		if err := setLockBases(ctx, tx, locks.next); err != nil {
			return err
		}
		replaced := []string{}
		for _, g := range prev {
			if err := tx.LoyaltyPrice.UpdateOneID(g.ID).SetStatus(loyaltyprice.StatusRevoked).SetRevokedAt(s.now()).
				SetRevokeReason("replaced").Exec(ctx); err != nil {
				return err
			}
			replaced = append(replaced, g.ID.String())
		}
		if keep != nil {
			out = keep
			return nil
		}
		out, err = tx.LoyaltyPrice.Create().SetMemberID(m.ID).SetUserID(p.UserID).SetPassTypeID(pt.ID).
			SetNillablePassID(p.PassID).SetAmountMinor(amount).SetCurrency(pt.Currency).SetReason(p.Reason).
			SetNillableCreatedBy(actorID(ctx)).Save(ctx)
		if err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditLoyaltyPriceGranted, Target: "member:" + m.ID.String(),
			Details: map[string]any{"loyalty_price_id": out.ID.String(), "pass_type_id": pt.ID.String(), "amount_minor": amount,
				"currency": pt.Currency, "reason": p.Reason, "memberships_repriced": len(subs), "replaced": replaced}})
		return err
	}
	// Stripe refused: the grant goes, the grants it replaced and the lock
	// bases hold again.
	undo := func(ctx context.Context, tx *ent.Tx) error {
		if keep != nil {
			return setLockBases(ctx, tx, locks.prev) // the grant stays as it was
		}
		if err := tx.LoyaltyPrice.DeleteOneID(out.ID).Exec(ctx); err != nil {
			return err
		}
		for _, g := range prev {
			if err := tx.LoyaltyPrice.UpdateOneID(g.ID).SetStatus(loyaltyprice.StatusActive).ClearRevokedAt().
				ClearRevokeReason().Exec(ctx); err != nil {
				return err
			}
		}
		return setLockBases(ctx, tx, locks.prev)
	}
	// The member is told once Stripe took the prices (loyalty_notify.go).
	after := func(ctx context.Context, tx *ent.Tx) error { return tellLoyalty(ctx, tx, out, true) }
	// Stripe took the price for some passes only: the grant stays (those
	// passes charge it), the others keep their price, and the outcome per
	// pass is recorded and answered; a retry writes only the others.
	partial := func(ctx context.Context, tx *ent.Tx, refused map[uuid.UUID]bool) error {
		return recordLoyaltyPartial(ctx, tx, m.ID, []*ent.LoyaltyPrice{out}, true, passesOf(subs), refused)
	}
	err = s.changePrices(ctx, priceChange{targets: targets, rows: rows, undo: undo, after: after, partial: partial})
	if err != nil {
		return nil, loyaltyOutcome(err, passesOf(subs))
	}
	return out, nil
}

func setLockBases(ctx context.Context, tx *ent.Tx, locks map[uuid.UUID]int64) error {
	for id, base := range locks {
		if err := tx.RateLock.UpdateOneID(id).SetBaseAmountMinor(base).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// RevokeLoyaltyPrice revokes a member's active grants (or, with PassID,
// the grant of that pass's pass type): the pass type's own price returns
// from the next renewal on. 404 when the user is not a member, the pass is
// not theirs, or nothing is granted; nothing changes then.
func (s *Service) RevokeLoyaltyPrice(ctx context.Context, p LoyaltyRevokeParams) ([]*ent.LoyaltyPrice, error) {
	m, err := s.memberOfUser(ctx, p.UserID)
	if err != nil {
		return nil, err
	}
	q := s.client.LoyaltyPrice.Query().Where(loyaltyprice.MemberID(m.ID), loyaltyprice.StatusEQ(loyaltyprice.StatusActive))
	if p.PassID != nil {
		ps, err := s.client.Pass.Query().Where(pass.ID(*p.PassID), pass.MemberID(m.ID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, passNotFound()
		}
		if err != nil {
			return nil, err
		}
		q = q.Where(loyaltyprice.PassTypeID(ps.PassTypeID))
	}
	grants, err := q.All(ctx)
	if err != nil {
		return nil, err
	}
	if len(grants) == 0 {
		return nil, apperr.NotFound("loyalty price")
	}
	locks := newLockBases()
	var targets []priceTarget
	var passes []uuid.UUID
	for _, g := range grants {
		subs, err := s.liveSubscriptionsOf(ctx, m.ID, g.PassTypeID)
		if err != nil {
			return nil, err
		}
		passes = append(passes, passesOf(subs)...)
		for _, sub := range subs {
			ps, err := s.client.Pass.Query().Where(pass.ID(sub.PassID)).WithPassType().Only(ctx)
			if err != nil {
				return nil, err
			}
			t, err := s.reprice(ctx, sub, nextRenewalPrice(ps, ps.Edges.PassType), "loyalty price revoked", locks)
			if err != nil {
				return nil, err
			}
			if t != nil {
				targets = append(targets, *t)
			}
		}
	}
	out := make([]*ent.LoyaltyPrice, 0, len(grants))
	rows := func(ctx context.Context, tx *ent.Tx) error {
		if err := setLockBases(ctx, tx, locks.next); err != nil {
			return err
		}
		for _, g := range grants {
			r, err := tx.LoyaltyPrice.UpdateOneID(g.ID).SetStatus(loyaltyprice.StatusRevoked).SetRevokedAt(s.now()).
				SetRevokeReason(p.Reason).Save(ctx)
			if err != nil {
				return err
			}
			out = append(out, r)
			if _, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditLoyaltyPriceRevoked, Target: "member:" + m.ID.String(),
				Details: map[string]any{"loyalty_price_id": g.ID.String(), "pass_type_id": g.PassTypeID.String(),
					"amount_minor": g.AmountMinor, "reason": p.Reason}}); err != nil {
				return err
			}
		}
		return nil
	}
	// Stripe refused: the grants hold again, as do the lock bases.
	undo := func(ctx context.Context, tx *ent.Tx) error {
		for _, g := range grants {
			if err := tx.LoyaltyPrice.UpdateOneID(g.ID).SetStatus(loyaltyprice.StatusActive).ClearRevokedAt().
				ClearRevokeReason().Exec(ctx); err != nil {
				return err
			}
		}
		return setLockBases(ctx, tx, locks.prev)
	}
	after := func(ctx context.Context, tx *ent.Tx) error {
		for _, g := range out {
			if err := tellLoyalty(ctx, tx, g, false); err != nil {
				return err
			}
		}
		return nil
	}
	// Stripe took the usual price for some passes only: those keep it, the
	// grants stay active for the others (their renewals still charge the
	// loyalty price), and the outcome per pass is recorded and answered; a
	// retry writes only the others, then revokes.
	partial := func(ctx context.Context, tx *ent.Tx, refused map[uuid.UUID]bool) error {
		for _, g := range grants {
			if err := tx.LoyaltyPrice.UpdateOneID(g.ID).SetStatus(loyaltyprice.StatusActive).ClearRevokedAt().
				ClearRevokeReason().Exec(ctx); err != nil {
				return err
			}
		}
		return recordLoyaltyPartial(ctx, tx, m.ID, grants, false, passes, refused)
	}
	err = s.changePrices(ctx, priceChange{targets: targets, rows: rows, undo: undo, after: after, partial: partial})
	if err != nil {
		return nil, loyaltyOutcome(err, passes)
	}
	return out, nil
}

// activeLoyaltyPrice is the member's active grant of a pass type, or nil.
func (s *Service) activeLoyaltyPrice(ctx context.Context, memberID, passTypeID uuid.UUID) (*ent.LoyaltyPrice, error) {
	g, err := s.client.LoyaltyPrice.Query().Where(loyaltyprice.MemberID(memberID), loyaltyprice.PassTypeID(passTypeID),
		loyaltyprice.StatusEQ(loyaltyprice.StatusActive)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return g, err
}

// renewalPrice is what a new subscription of membership p renews at: the
// member's loyalty price of pt when one is active (not for flexible
// memberships, priced by their tiers), else nextRenewalPrice.
func (s *Service) renewalPrice(ctx context.Context, p *ent.Pass, pt *ent.PassType) (int64, error) {
	if pt.PricingMode != passtype.PricingModeFlexibleQuantity {
		g, err := s.activeLoyaltyPrice(ctx, p.MemberID, pt.ID)
		if err != nil {
			return 0, err
		}
		if g != nil && g.Currency == pt.Currency {
			return g.AmountMinor, nil
		}
	}
	return nextRenewalPrice(p, pt), nil
}

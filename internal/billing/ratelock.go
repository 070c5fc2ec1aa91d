package billing

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/ratelock"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Rate locks: staff keep what a membership's renewals cost until a
// venue-local day. Setting one changes the subscription's price at Stripe
// to the locked amount (ChangeRecurringAmount: without proration, from the
// next invoice on) when a renewal falls before locked_until; the price
// before comes back once the next renewal falls on or after locked_until
// (expireRateLocks, run after every invoice event of the subscription, so
// before that renewal is invoiced) or when staff remove the lock.

// Error codes and audit actions of rate locks.
const (
	CodeNotificationChannelUnavailable = "PASS_NOTIFICATION_CHANNEL_UNAVAILABLE"
	CodeNotificationPreflightFailed    = "PASS_NOTIFICATION_PREFLIGHT_FAILED"

	AuditRateLockSet     = "membership.rate_lock_set"
	AuditRateLockRemoved = "membership.rate_lock_removed"
	AuditRateLockExpired = "membership.rate_lock_expired"

	// KindRateLock is the outbox kind of a rate lock's e-mail to the member.
	KindRateLock = "membership.rate_lock"
	// PermReadPasses and PermWritePasses are the API-key scopes of rate locks.
	PermReadPasses  = "read:passes"
	PermWritePasses = "write:passes"
)

// AuthorizeOrKey admits what Authorize admits and API keys, whose scope the
// security handler has checked against the operation.
func AuthorizeOrKey(ctx context.Context, perm string) error {
	if _, ok := viewer.FromContext(ctx).(viewer.APIKey); ok {
		return nil
	}
	return Authorize(ctx, perm)
}

// RateLockParams is a new rate lock of a pass: Amount in major units of the
// subscription's currency, LockedUntil a venue-local day after today.
// Notify asks to tell the member on Channels (email only today).
type RateLockParams struct {
	PassID      uuid.UUID
	Amount      float64
	LockedUntil time.Time
	Reason      string
	Notify      bool
	Channels    []string
}

// minorOf converts a major-unit amount to minor units of currency: above
// zero and whole minor units, else 400 VALIDATION_ERROR.
func minorOf(amount float64, currency string) (int64, error) {
	scaled := amount * math.Pow10(money.Exponent(currency))
	minor := int64(math.Round(scaled))
	if amount <= 0 || math.IsNaN(amount) || math.IsInf(amount, 0) || math.Abs(scaled-float64(minor)) > 1e-6 || minor <= 0 {
		return 0, apperr.Validation("amount", "amount must be more than 0, in whole minor units of "+currency)
	}
	return minor, nil
}

func rateNotifyRefusal(status int, code, msg string) *apperr.Error {
	return &apperr.Error{Status: status, Code: code, Message: msg}
}

// preflight checks that the member can be told on channels before anything
// changes: 422 PASS_NOTIFICATION_CHANNEL_UNAVAILABLE for a channel the
// service cannot use for this message (sms, push) or a member without an
// e-mail address; 502 PASS_NOTIFICATION_PREFLIGHT_FAILED when the address
// cannot be read.
func (s *Service) preflight(ctx context.Context, memberID uuid.UUID, channels []string) (string, error) {
	if len(channels) == 0 {
		channels = []string{"email"}
	}
	for _, ch := range channels {
		if ch != "email" {
			return "", rateNotifyRefusal(http.StatusUnprocessableEntity, CodeNotificationChannelUnavailable,
				"this message can only be sent by e-mail").With("channel", ch)
		}
	}
	// System call site: the member's own address, to tell them of their price.
	m, err := s.client.Member.Query().Where(member.ID(memberID)).WithUser().Only(system.Allow(ctx, "billing.member_email"))
	if err != nil {
		return "", (rateNotifyRefusal(http.StatusBadGateway, CodeNotificationPreflightFailed,
			"the member's contact details could not be checked")).With("cause", "lookup")
	}
	if m.Edges.User == nil || m.Edges.User.Email == "" {
		return "", rateNotifyRefusal(http.StatusUnprocessableEntity, CodeNotificationChannelUnavailable,
			"the member has no e-mail address").With("channel", "email")
	}
	return m.Edges.User.Email, nil
}

// SetRateLock locks what a membership's renewals cost until a venue-local
// day (a lock set before replaces the active one). Refusals change nothing:
// 400 VALIDATION_ERROR (amount, a day not after today), 404 (pass), 422
// NO_STRIPE_SUBSCRIPTION (the pass does not renew at Stripe), the notify
// preflight's errors, 502 STRIPE_ERROR.
func (s *Service) SetRateLock(ctx context.Context, p RateLockParams) (*ent.RateLock, error) {
	today, loc, err := s.venueToday(ctx)
	if err != nil {
		return nil, err
	}
	until := time.Date(p.LockedUntil.Year(), p.LockedUntil.Month(), p.LockedUntil.Day(), 0, 0, 0, 0, time.UTC)
	if !until.After(today) {
		return nil, apperr.Validation("locked_until", "locked_until must be a day after today (venue time)")
	}
	sub, err := s.liveSubscription(ctx, p.PassID, CodeNoStripeSubscription)
	if err != nil {
		return nil, err
	}
	amount, err := minorOf(p.Amount, sub.Currency)
	if err != nil {
		return nil, err
	}
	var to string
	if p.Notify {
		if to, err = s.preflight(ctx, sub.MemberID, p.Channels); err != nil {
			return nil, err
		}
	}
	prev, err := s.client.RateLock.Query().Where(ratelock.PassID(p.PassID), ratelock.StatusEQ(ratelock.StatusActive)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	base := sub.AmountMinor
	if prev != nil && prev.Applied {
		base = prev.BaseAmountMinor
	}
	next, err := s.nextStart(ctx, s.client, sub)
	if err != nil {
		return nil, err
	}
	applies := localDay(next, loc).Before(until)
	var targets []priceTarget
	switch {
	case applies && sub.AmountMinor != amount:
		targets = []priceTarget{{sub: sub, to: amount, reason: "rate lock"}}
	case !applies && sub.AmountMinor != base:
		targets = []priceTarget{{sub: sub, to: base, reason: "rate lock replaced", own: true}}
	}
	var out *ent.RateLock
	err = s.changePrices(ctx, priceChange{targets: targets,
		rows: func(ctx context.Context, tx *ent.Tx) error {
			if prev != nil {
				if err := tx.RateLock.UpdateOneID(prev.ID).SetStatus(ratelock.StatusRemoved).SetApplied(false).
					SetEndedAt(s.now()).Exec(ctx); err != nil {
					return err
				}
			}
			var err error
			out, err = tx.RateLock.Create().SetPassID(p.PassID).SetMemberID(sub.MemberID).SetSubscriptionID(sub.ID).
				SetAmountMinor(amount).SetBaseAmountMinor(base).SetCurrency(sub.Currency).SetLockedUntil(until).
				SetReason(p.Reason).SetApplied(applies).SetNillableCreatedBy(actorID(ctx)).Save(ctx)
			if err != nil {
				return err
			}
			d := map[string]any{"rate_lock_id": out.ID.String(), "amount_minor": amount, "base_amount_minor": base,
				"currency": sub.Currency, "locked_until": until.Format(time.DateOnly), "reason": p.Reason,
				"applies_to_next_renewal": applies, "notified": p.Notify}
			if prev != nil {
				d["replaced_rate_lock_id"] = prev.ID.String()
				d["replaced_applied"] = prev.Applied
			}
			if ids := changeAttempts(ctx); len(ids) > 0 {
				d["attempt_ids"] = ids
			}
			_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditRateLockSet, Target: "pass:" + p.PassID.String(), Details: d})
			return err
		},
		// Stripe refused: revertPrice undoes the lock's rows (ratelock_phases.go).
		after: func(ctx context.Context, tx *ent.Tx) error {
			if !p.Notify {
				return nil
			}
			_, err := notify.EnqueueEmail(ctx, tx.Client(), notify.DirectEmail{
				To: to, MemberID: sub.MemberID, ToMember: true, Kind: KindRateLock,
				Subject: "Your membership price is locked",
				Body: fmt.Sprintf("Your membership renews at %s until %s.", money.Format(amount, sub.Currency),
					until.Format(time.DateOnly)),
				Data:          map[string]any{"rate_lock_id": out.ID.String(), "pass_id": p.PassID.String()},
				CorrelationID: "rate_lock:" + out.ID.String(),
			})
			return err
		},
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// localDay is the venue-local calendar day of t (in loc), as midnight UTC of
// that date: the form date columns and date comparisons use.
func localDay(t time.Time, loc *time.Location) time.Time {
	y, m, d := t.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// RemoveRateLock ends the active rate lock of a pass: the price before
// returns from the next renewal on. 404 when the pass has none.
func (s *Service) RemoveRateLock(ctx context.Context, passID uuid.UUID) (*ent.RateLock, error) {
	if err := s.passExists(ctx, passID); err != nil {
		return nil, err
	}
	lk, err := s.client.RateLock.Query().Where(ratelock.PassID(passID), ratelock.StatusEQ(ratelock.StatusActive)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("rate lock")
	}
	if err != nil {
		return nil, err
	}
	return s.endRateLock(ctx, lk, ratelock.StatusRemoved, AuditRateLockRemoved)
}

func (s *Service) passExists(ctx context.Context, passID uuid.UUID) error {
	if _, err := s.client.Pass.Get(ctx, passID); ent.IsNotFound(err) {
		return passNotFound()
	} else if err != nil {
		return err
	}
	return nil
}

// endRateLock puts the price before back at Stripe when the lock holds it
// and closes the lock.
func (s *Service) endRateLock(ctx context.Context, lk *ent.RateLock, to ratelock.Status, action string) (*ent.RateLock, error) {
	var targets []priceTarget
	if lk.Applied {
		sub, err := s.client.Subscription.Query().Where(subscription.ID(lk.SubscriptionID)).Only(ctx)
		if err != nil {
			return nil, err
		}
		// own: a schedule's phases get their own prices back (the price
		// change drops it when no schedule manages the subscription and the
		// amount is the base already).
		if sub.CanceledAt == nil && sub.ProcessorSubscriptionID != nil && lk.BaseAmountMinor > 0 {
			targets = []priceTarget{{sub: sub, to: lk.BaseAmountMinor, reason: "rate lock ended", own: true}}
		}
	}
	var out *ent.RateLock
	err := s.changePrices(ctx, priceChange{targets: targets,
		rows: func(ctx context.Context, tx *ent.Tx) error {
			var err error
			if out, err = tx.RateLock.UpdateOneID(lk.ID).SetStatus(to).SetApplied(false).SetEndedAt(s.now()).Save(ctx); err != nil {
				return err
			}
			d := map[string]any{"rate_lock_id": lk.ID.String(), "amount_minor": lk.AmountMinor,
				"base_amount_minor": lk.BaseAmountMinor, "locked_until": lk.LockedUntil.Format(time.DateOnly),
				"applied": lk.Applied}
			if ids := changeAttempts(ctx); len(ids) > 0 {
				d["attempt_ids"] = ids
			}
			_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: action, Target: "pass:" + lk.PassID.String(), Details: d})
			return err
		},
		// Stripe refused: revertPrice makes the lock hold again (ratelock_phases.go).
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// expireRateLocks ends the active locks of a subscription whose next
// renewal falls on or after their locked_until: run after each of its
// invoice events, so the price before is back at Stripe before that
// renewal is invoiced.
func (s *Service) expireRateLocks(ctx context.Context, subID uuid.UUID) error {
	locks, err := s.client.RateLock.Query().Where(ratelock.SubscriptionID(subID), ratelock.StatusEQ(ratelock.StatusActive)).All(ctx)
	if err != nil || len(locks) == 0 {
		return err
	}
	sub, err := s.client.Subscription.Get(ctx, subID)
	if err != nil {
		return err
	}
	next, err := s.nextStart(ctx, s.client, sub)
	if err != nil {
		return err
	}
	_, loc, err := s.venueToday(ctx)
	if err != nil {
		return err
	}
	for _, lk := range locks {
		if localDay(next, loc).Before(lk.LockedUntil.UTC()) && sub.CanceledAt == nil {
			continue
		}
		if _, err := s.endRateLock(ctx, lk, ratelock.StatusExpired, AuditRateLockExpired); err != nil {
			return err
		}
	}
	return nil
}

// RateContext is what prices a pass's renewals now beyond the pass type's
// own price, in precedence: its active rate lock, then the member's active
// loyalty price of the pass type (loyalty.go); either may be nil.
type RateContext struct {
	Pass         uuid.UUID
	RateLock     *ent.RateLock
	LoyaltyPrice *ent.LoyaltyPrice
}

// PassRateContext reads a pass's rate context: nil when nothing applies.
func (s *Service) PassRateContext(ctx context.Context, passID uuid.UUID) (*RateContext, error) {
	p, err := s.client.Pass.Get(ctx, passID)
	if ent.IsNotFound(err) {
		return nil, passNotFound()
	}
	if err != nil {
		return nil, err
	}
	lk, err := s.client.RateLock.Query().Where(ratelock.PassID(passID), ratelock.StatusEQ(ratelock.StatusActive)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	lp, err := s.activeLoyaltyPrice(ctx, p.MemberID, p.PassTypeID)
	if err != nil {
		return nil, err
	}
	if lk == nil && lp == nil {
		return nil, nil
	}
	return &RateContext{Pass: passID, RateLock: lk, LoyaltyPrice: lp}, nil
}

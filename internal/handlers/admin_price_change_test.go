package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/loyaltyprice"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/ratelock"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// lastUpdate is the newest subscription_update attempt of the pass's
// subscription.
func (e *lifeEnv) lastUpdate(t *testing.T) *ent.PaymentAttempt {
	t.Helper()
	sub := e.db().Subscription.Query().Where(subscription.PassID(e.pass)).OnlyX(e.op)
	return e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(sub.ID),
		paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionUpdate)).
		Order(ent.Desc(paymentattempt.FieldNumber)).FirstX(e.op)
}

// stripeSub is the pass's subscription id at Stripe and the price Stripe
// charges for it.
func (e *lifeEnv) stripeSub(t *testing.T) (string, int64) {
	t.Helper()
	sub := e.db().Subscription.Query().Where(subscription.PassID(e.pass)).OnlyX(e.op)
	amount, _ := e.fake.SubscriptionAmount(*sub.ProcessorSubscriptionID)
	return *sub.ProcessorSubscriptionID, amount
}

func (e *lifeEnv) activeLocks(t *testing.T) int {
	t.Helper()
	return e.db().RateLock.Query().Where(ratelock.StatusEQ(ratelock.StatusActive)).CountX(e.op)
}

// TestPriceChangeSurvivesStripeFaults: rate locks and loyalty prices change
// the Stripe price through one path that records the attempt and the
// intent first. Stripe answering 500 (past stripe-go's own retry) leaves
// the attempt unknown and the lock recorded; a retry with the same
// Idempotency-Key replays the answer, another key waits for the change in
// flight, and the reconcile finishes it with one update at Stripe, which
// the next renewal charges. A dropped answer (Stripe took the change) is
// finished by the reconcile without a second update. A refusal puts our
// rows back (no grant, the price before on both sides) and a retry with the
// same key then makes the change once.
func TestPriceChangeSurvivesStripeFaults(t *testing.T) {
	e := newLifeEnv(t)
	subID, before := e.stripeSub(t)
	require.Equal(t, int64(49900), before)
	updates := e.fake.SubscriptionUpdates(subID)
	until := e.db().Pass.GetX(e.op, e.pass).ValidTo.UTC().AddDate(0, 0, 40)
	lockReq := &api.AdminRateLockRequest{PassID: e.pass, Amount: 300, LockedUntil: until, Reason: "loyal"}

	// Stripe 500, twice (stripe-go retries once with the same key).
	e.fake.FailSubscriptionUpdates(2, 0, 0)
	key := uuid.NewString()
	_, err := e.boss.SetAdminRateLock(e.ctx, lockReq, api.SetAdminRateLockParams{IdempotencyKey: key})
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	at := e.lastUpdate(t)
	require.Equal(t, paymentattempt.StateUnknown, at.State)
	require.Equal(t, 1, e.activeLocks(t), "the intent is recorded with the lock")
	require.Equal(t, int64(30000), e.subAmount(t))
	_, stripeNow := e.stripeSub(t)
	require.Equal(t, int64(49900), stripeNow, "Stripe has not changed")
	require.Equal(t, updates, e.fake.SubscriptionUpdates(subID))

	// The same key replays; another key waits for the change in flight.
	_, err = e.boss.SetAdminRateLock(e.ctx, lockReq, api.SetAdminRateLockParams{IdempotencyKey: key})
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	_, err = e.lock(&api.AdminRateLockRequest{PassID: e.pass, Amount: 250, LockedUntil: until, Reason: "other"})
	requireCode(t, err, http.StatusConflict, "PAYMENT_PENDING")
	require.Equal(t, 1, e.locks(t))
	require.Equal(t, updates, e.fake.SubscriptionUpdates(subID))

	// The reconcile finishes the change: one update at Stripe.
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.Equal(t, paymentattempt.StateSucceeded, e.db().PaymentAttempt.GetX(e.op, at.ID).State)
	_, stripeNow = e.stripeSub(t)
	require.Equal(t, int64(30000), stripeNow)
	require.Equal(t, updates+1, e.fake.SubscriptionUpdates(subID))
	require.NoError(t, e.svc.Reconcile(e.op, at.ID), "a settled attempt is left alone")
	require.Equal(t, updates+1, e.fake.SubscriptionUpdates(subID))
	require.Equal(t, int64(30000), e.renew(t, false).TotalMinor, "the renewal charges the locked amount")

	// A dropped answer: Stripe took the removal; the reconcile sees it and
	// sends nothing again.
	e.fake.FailSubscriptionUpdates(0, 10, 0)
	updates = e.fake.SubscriptionUpdates(subID)
	_, err = e.boss.RemoveAdminRateLock(e.ctx, api.RemoveAdminRateLockParams{PassId: e.pass, IdempotencyKey: uuid.NewString()})
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	e.fake.FailSubscriptionUpdates(0, 0, 0)
	at = e.lastUpdate(t)
	require.Equal(t, paymentattempt.StateUnknown, at.State)
	require.Zero(t, e.activeLocks(t))
	require.Equal(t, updates+1, e.fake.SubscriptionUpdates(subID))
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.Equal(t, paymentattempt.StateSucceeded, e.db().PaymentAttempt.GetX(e.op, at.ID).State)
	require.Equal(t, updates+1, e.fake.SubscriptionUpdates(subID), "no second update")
	_, stripeNow = e.stripeSub(t)
	require.Equal(t, int64(49900), stripeNow)
	require.Equal(t, int64(49900), e.subAmount(t))

	// A refusal puts our rows back; the same key then grants once.
	s := e.signup(t, "granter@pay.example", goodPassword)
	enroll(t, e.authEnv, e.op, "granter@pay.example", "staff", billing.PermLoyaltyPriceGrant)
	granter := e.client(t, s.AccessToken)
	_, err = granter.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	ps := e.db().Pass.GetX(e.op, e.pass)
	uid := e.db().Member.Query().Where(member.ID(e.mid)).OnlyX(e.op).UserID
	grant := &api.AdminLoyaltyPriceGrantRequest{UserID: uid, PassTypeID: ps.PassTypeID, AmountMinor: api.NewOptInt64(39900), Reason: "ten years"}
	e.fake.FailSubscriptionUpdates(0, 0, 1)
	updates = e.fake.SubscriptionUpdates(subID)
	key = uuid.NewString()
	_, err = granter.GrantAdminLoyaltyPrice(e.ctx, grant, api.GrantAdminLoyaltyPriceParams{IdempotencyKey: key})
	requireCode(t, err, http.StatusBadGateway, "STRIPE_ERROR")
	require.Zero(t, e.loyaltyRows(t))
	require.Equal(t, int64(49900), e.subAmount(t))
	_, stripeNow = e.stripeSub(t)
	require.Equal(t, int64(49900), stripeNow)
	require.Equal(t, paymentattempt.StateFailed, e.lastUpdate(t).State)
	require.Equal(t, 1, e.audits(t, billing.AuditPriceChangeFailed))

	g, err := granter.GrantAdminLoyaltyPrice(e.ctx, grant, api.GrantAdminLoyaltyPriceParams{IdempotencyKey: key})
	require.NoError(t, err)
	again, err := granter.GrantAdminLoyaltyPrice(e.ctx, grant, api.GrantAdminLoyaltyPriceParams{IdempotencyKey: key})
	require.NoError(t, err)
	require.Equal(t, g.Data.ID, again.Data.ID)
	require.Equal(t, 1, e.db().LoyaltyPrice.Query().Where(loyaltyprice.StatusEQ(loyaltyprice.StatusActive)).CountX(e.op))
	require.Equal(t, updates+1, e.fake.SubscriptionUpdates(subID))
	_, stripeNow = e.stripeSub(t)
	require.Equal(t, int64(39900), stripeNow)
	require.Equal(t, int64(39900), e.subAmount(t))
	require.Equal(t, paymentattempt.StateSucceeded, e.lastUpdate(t).State)
}

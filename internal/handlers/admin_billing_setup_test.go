package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// pendingSetup is a pending pass of the monthly membership that never
// activated; started gives it a subscription at the fake Stripe.
func (e *lifeEnv) pendingSetup(t *testing.T, started bool) *ent.Pass {
	t.Helper()
	pt := e.db().PassType.Query().Where(passtype.Slug("monthly-renew")).OnlyX(e.op)
	start := time.Now().UTC().Truncate(24 * time.Hour)
	p := e.db().Pass.Create().SetMemberID(e.mid).SetPassTypeID(pt.ID).SetStatus(pass.StatusPending).
		SetValidFrom(start).SetValidTo(start.AddDate(0, 1, 0)).SaveX(e.op)
	if started {
		_, err := billing.New(e.svc).Start(e.op, p.ID)
		require.NoError(t, err)
	}
	return e.db().Pass.GetX(e.op, p.ID)
}

// keysClaimed counts the stored Idempotency-Keys among keys.
func (e *lifeEnv) keysClaimed(t *testing.T, keys ...string) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM idempotency_keys WHERE key = ANY($1)`, keys).Scan(&n))
	return n
}

func (e *lifeEnv) removeSetup(t *testing.T, id uuid.UUID, at time.Time) (*api.RemoveMembershipSetupResponse, error) {
	t.Helper()
	return e.boss.RemoveAdminMembershipSetup(e.ctx, &api.RemoveMembershipSetupRequest{ExpectedUpdatedAt: concurrency.Format(at)},
		api.RemoveAdminMembershipSetupParams{ID: id, IdempotencyKey: uuid.NewString()})
}

func (e *lifeEnv) requireSetupRefused(t *testing.T, id uuid.UUID, at time.Time, status int, code string) {
	t.Helper()
	_, err := e.removeSetup(t, id, at)
	st, got, _ := apiCode(t, err)
	require.Equal(t, status, st, code)
	require.Equal(t, code, got)
	require.True(t, e.db().Pass.Query().Where(pass.ID(id)).ExistX(e.op), "a refused removal keeps the pass")
}

// TestRemoveDeadSetup: every refusal of the contract is reachable and
// changes nothing; a setup whose subscription expired at Stripe, and one
// that never reached Stripe, are removed with their subscription rows and
// audited; a retry with the same key replays the answer.
func TestRemoveDeadSetup(t *testing.T) {
	e := newLifeEnv(t)
	removed := func() int { return e.audits(t, billing.AuditSetupRemoved) }

	// 400 IDEMPOTENCY_KEY_INVALID: the key must be a UUID.
	plain := e.pendingSetup(t, false)
	body := `{"expected_updated_at":"` + concurrency.Format(plain.UpdatedAt) + `"}`
	req, err := http.NewRequest(http.MethodPost, e.url+"/api/v1/admin/passes/"+plain.ID.String()+"/setup/removal", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+e.bossToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", "not-a-uuid")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	_, err = e.boss.RemoveAdminMembershipSetup(e.ctx, &api.RemoveMembershipSetupRequest{ExpectedUpdatedAt: concurrency.Format(plain.UpdatedAt)},
		api.RemoveAdminMembershipSetupParams{ID: plain.ID, IdempotencyKey: "key-1"})
	st, code, _ := apiCode(t, err)
	require.Equal(t, http.StatusBadRequest, st)
	require.Equal(t, "IDEMPOTENCY_KEY_INVALID", code)
	// The idempotency policy refuses before anything runs: the pass stays,
	// nothing is audited, and the refused keys are not claimed.
	require.True(t, e.db().Pass.Query().Where(pass.ID(plain.ID)).ExistX(e.op))
	require.Zero(t, removed())
	require.Zero(t, e.keysClaimed(t, "not-a-uuid", "key-1"))

	// 404, 403.
	_, err = e.removeSetup(t, e.foreignPass(t), time.Now())
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusNotFound, st)
	require.Equal(t, "NOT_FOUND", code)
	_, err = e.staff.RemoveAdminMembershipSetup(e.ctx, &api.RemoveMembershipSetupRequest{ExpectedUpdatedAt: concurrency.Format(plain.UpdatedAt)},
		api.RemoveAdminMembershipSetupParams{ID: plain.ID, IdempotencyKey: uuid.NewString()})
	st, _, _ = apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st, "cleanup_failed_setup is billing.manage")

	// NOT_RECURRING: a clip card.
	clip := e.plainPass(t, pass.StatusPending)
	e.requireSetupRefused(t, clip.ID, clip.UpdatedAt, http.StatusUnprocessableEntity, billing.CodeNotRecurring)
	// STALE: an older token.
	e.requireSetupRefused(t, plain.ID, plain.UpdatedAt.Add(-time.Second), http.StatusConflict, billing.CodeStale)
	_, err = e.boss.RemoveAdminMembershipSetup(e.ctx, &api.RemoveMembershipSetupRequest{ExpectedUpdatedAt: "yesterday"},
		api.RemoveAdminMembershipSetupParams{ID: plain.ID, IdempotencyKey: uuid.NewString()})
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusBadRequest, st)
	require.Equal(t, "VALIDATION_ERROR", code)
	// NOT_REMOVABLE: the membership that activated.
	live := e.db().Pass.GetX(e.op, e.pass)
	e.requireSetupRefused(t, live.ID, live.UpdatedAt, http.StatusUnprocessableEntity, billing.CodeNotRemovable)
	// HAS_HISTORY: a payment of the pass.
	paid := e.pendingSetup(t, false)
	e.db().Payment.Create().SetMemberID(e.mid).SetPassID(paid.ID).SetAmountMinor(100).SetCurrency("DKK").
		SetStatus(payment.StatusFailed).SetKind(payment.KindRenewal).ExecX(e.op)
	e.requireSetupRefused(t, paid.ID, paid.UpdatedAt, http.StatusUnprocessableEntity, billing.CodeHasHistory)
	// HAS_LIFECYCLE_HISTORY: staff changed it.
	changed := e.pendingSetup(t, false)
	_, err = audit.Record(e.op, e.db(), audit.Entry{Action: "pass_suspended", Target: "pass:" + changed.ID.String()})
	require.NoError(t, err)
	e.requireSetupRefused(t, changed.ID, changed.UpdatedAt, http.StatusUnprocessableEntity, billing.CodeHasLifecycleHistory)

	// NOT_SAFE: the subscription is live at Stripe; PROCESSOR_UNKNOWN: it
	// cannot be read.
	started := e.pendingSetup(t, true)
	sub := e.db().Subscription.Query().Where(subscription.PassID(started.ID)).OnlyX(e.op)
	require.NotNil(t, sub.ProcessorSubscriptionID)
	e.requireSetupRefused(t, started.ID, started.UpdatedAt, http.StatusUnprocessableEntity, billing.CodeNotSafe)
	e.fake.FailSubscriptionReads(*sub.ProcessorSubscriptionID, true)
	e.requireSetupRefused(t, started.ID, started.UpdatedAt, http.StatusUnprocessableEntity, billing.CodeProcessorUnknown)
	e.fake.FailSubscriptionReads(*sub.ProcessorSubscriptionID, false)
	require.Zero(t, removed())

	// Dead at Stripe: removed with its subscription row.
	e.fake.SetSubscriptionStatus(*sub.ProcessorSubscriptionID, "incomplete_expired")
	read, err := e.boss.GetAdminMembershipSetup(e.ctx, api.GetAdminMembershipSetupParams{ID: started.ID})
	require.NoError(t, err)
	require.True(t, read.Data.IsRecurring)
	require.Equal(t, api.MembershipSetupResponseDataPassStatusPending, read.Data.PassStatus)
	key := uuid.NewString()
	out, err := e.boss.RemoveAdminMembershipSetup(e.ctx, &api.RemoveMembershipSetupRequest{ExpectedUpdatedAt: read.Data.UpdatedAt},
		api.RemoveAdminMembershipSetupParams{ID: started.ID, IdempotencyKey: key})
	require.NoError(t, err)
	require.True(t, out.Data.Removed)
	require.Equal(t, "incomplete_expired", out.Data.ProcessorStatus)
	require.Equal(t, sub.ID, out.Data.SubscriptionID.Value)
	require.False(t, e.db().Pass.Query().Where(pass.ID(started.ID)).ExistX(e.op))
	require.False(t, e.db().Subscription.Query().Where(subscription.ID(sub.ID)).ExistX(e.op))
	require.Equal(t, 1, removed())
	again, err := e.boss.RemoveAdminMembershipSetup(e.ctx, &api.RemoveMembershipSetupRequest{ExpectedUpdatedAt: read.Data.UpdatedAt},
		api.RemoveAdminMembershipSetupParams{ID: started.ID, IdempotencyKey: key})
	require.NoError(t, err, "the same key replays the answer")
	require.Equal(t, out.Data.PassID, again.Data.PassID)
	require.Equal(t, 1, removed())

	// Never reached Stripe: absent.
	out, err = e.removeSetup(t, plain.ID, plain.UpdatedAt)
	require.NoError(t, err)
	require.Equal(t, "absent", out.Data.ProcessorStatus)
	require.True(t, out.Data.SubscriptionID.IsNull())
	require.Equal(t, 2, removed())
}

package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// legacyMove records a Move to Flexible of e's membership from renewal n
// with 9 classes the way moves were made before they were schedule phases:
// one transaction made a pending_activation pass of the flexible pass type
// (valid from and to the move's day) and the audit entry naming it; its
// Stripe steps (the new pass's subscription, the old one told to end that
// day) are left undone, as a failure after that transaction left them.
func (e *moveEnv) legacyMove(t *testing.T, n int) *ent.Pass {
	t.Helper()
	pv, err := e.staff.PreviewAdminMoveToFlexible(e.ctx, api.PreviewAdminMoveToFlexibleParams{ID: e.pass, PassTypeID: e.flex.ID,
		Kind: api.PreviewAdminMoveToFlexibleKindQuantity, Quantity: api.NewOptInt(9), Renewal: n})
	require.NoError(t, err)
	on := pv.Data.EffectiveOn
	old := e.studio.client.Pass.GetX(e.op, e.pass)
	np := e.studio.client.Pass.Create().SetMemberID(old.MemberID).SetPassTypeID(e.flex.ID).
		SetStatus(pass.StatusPendingActivation).SetValidFrom(on).SetValidTo(on).
		SetFlexibleKind(pass.FlexibleKindQuantity).SetFlexibleQuantity(9).SaveX(e.op)
	_, err = audit.Record(e.op, e.studio.client, audit.Entry{Action: billing.AuditMovedToFlexible, Target: "pass:" + e.pass.String(),
		Details: map[string]any{"member_id": old.MemberID.String(), "new_pass_id": np.ID.String(),
			"to_pass_type_id": e.flex.ID.String(), "to": "9 classes", "from_price_minor": 59900,
			"to_price_minor": 81000, "currency": "DKK", "renewal": n, "effective_on": on.Format(time.DateOnly)}})
	require.NoError(t, err)
	return np
}

// stripeWrites counts the writes (POSTs) the fake Stripe received.
func (e *moveEnv) stripeWrites() int {
	n := 0
	for _, r := range e.fake.Requests() {
		if r.Method == http.MethodPost {
			n++
		}
	}
	return n
}

// TestMoveToFlexibleFinishesLegacyMove: a move recorded the old way (a
// pending_activation pass, its Stripe steps undone) is finished by the
// same move again: the new pass gets its own subscription, first charged
// on the move's day, and the old subscription is told to end that day. The
// answer names the new pass. Asked twice more, the move answers the same
// and sends Stripe nothing: one subscription made, one end set. Over the
// billing clock the old membership renews once at 599.00 and ends; the new
// subscription's first invoice (810.00) activates the new pass.
func TestMoveToFlexibleFinishesLegacyMove(t *testing.T) {
	e := newMoveEnv(t, false)
	np := e.legacyMove(t, 2)
	require.Len(t, e.fake.Subscriptions(), 1)
	updates := e.fake.SubscriptionUpdates(e.sub)

	mv, err := e.move("legacy-1", 9, 2)
	require.NoError(t, err)
	require.Equal(t, np.ID, mv.Data.NewPassID.Value, "the answer names the pending pass")
	require.Len(t, e.fake.Subscriptions(), 2, "the new pass's subscription is made")
	newSub := e.studio.client.Subscription.Query().Where(subscription.PassID(np.ID)).OnlyX(e.op)
	require.NotNil(t, newSub.ProcessorSubscriptionID)
	amount, next := e.fake.SubscriptionAmount(*newSub.ProcessorSubscriptionID)
	require.Equal(t, int64(81000), amount)
	require.Equal(t, np.ValidTo.Format(time.DateOnly), next.UTC().Format(time.DateOnly), "first charged on the move's day")
	end, ended := e.fake.CancelAt(e.sub)
	require.False(t, ended)
	require.False(t, end.IsZero(), "the old subscription ends on the move's day")
	require.False(t, end.After(np.ValidFrom.Add(24*time.Hour)))
	require.Equal(t, updates+1, e.fake.SubscriptionUpdates(e.sub))
	require.Nil(t, e.studio.client.Pass.GetX(e.op, e.pass).FlexibleChange, "no phase move is recorded")
	writes := e.stripeWrites()

	for _, key := range []string{"legacy-2", "legacy-3"} {
		again, err := e.move(key, 9, 2)
		require.NoError(t, err, key)
		require.Equal(t, np.ID, again.Data.NewPassID.Value)
		require.Equal(t, writes, e.stripeWrites(), "%s: Stripe is sent nothing more", key)
	}
	require.Len(t, e.fake.Subscriptions(), 2)
	require.Equal(t, updates+1, e.fake.SubscriptionUpdates(e.sub))
	require.Equal(t, 1, e.audits(t, billing.AuditMovedToFlexible))

	e.renewals(t, 1)
	require.Equal(t, []int64{59900}, e.fake.InvoiceAmounts(e.sub))
	_, err = e.clock.Advance(e.op, next.Add(time.Hour))
	require.NoError(t, err)
	_, ended = e.fake.CancelAt(e.sub)
	require.True(t, ended, "the old subscription ended on the move's day")
	require.Equal(t, []int64{59900}, e.fake.InvoiceAmounts(e.sub))
	require.Equal(t, []int64{81000}, e.fake.InvoiceAmounts(*newSub.ProcessorSubscriptionID))
	got := e.studio.client.Pass.GetX(e.op, np.ID)
	require.Equal(t, pass.StatusActive, got.Status, "the paid first invoice activates the new pass")
	require.Equal(t, 9, *got.FlexibleQuantity)
}

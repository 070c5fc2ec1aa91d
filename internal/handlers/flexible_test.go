package handlers_test

import (
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/user"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
)

// TestFlexibleMembershipChoicesAndChange: the member's flexible membership
// lists its selections priced by volume tier, previews a change from an
// allowed renewal without writing, schedules it (a second schedule replaces
// the first), and refuses what the policy or configuration does not allow;
// another member's pass is 404.
func TestFlexibleMembershipChoicesAndChange(t *testing.T) {
	e := newPayEnv(t, false, false)
	m := e.studio.client.Member.Query().Where(member.HasUserWith(user.Email("buyer@pay.example"))).OnlyX(e.op)
	flex := e.studio.client.PassType.Query().Where(passtype.Slug("flexible")).OnlyX(e.op)
	today := e.localToday()
	p := e.studio.client.Pass.Create().SetMemberID(m.ID).SetPassTypeID(flex.ID).SetStatus(pass.StatusActive).
		SetValidFrom(today).SetValidTo(today.AddDate(0, 1, 0)).
		SetFlexibleKind(pass.FlexibleKindQuantity).SetFlexibleQuantity(8).SaveX(e.op)
	org := e.venue.ID

	ch, err := e.member.GetFlexibleChoices(e.ctx, api.GetFlexibleChoicesParams{ID: p.ID, XOrganizationID: org})
	require.NoError(t, err)
	c := ch.Data
	require.Equal(t, 8, c.Current.Quantity.Value)
	require.Equal(t, int64(80000), c.CurrentPriceMinor, "8 classes at 100.00")
	require.Len(t, c.Options, 10, "4 to 12 classes, and unlimited")
	require.Equal(t, int64(40000), c.Options[0].PriceMinor)
	require.Equal(t, int64(81000), c.Options[5].PriceMinor, "9 classes fall in the 90.00 tier")
	require.Equal(t, api.FlexibleSelectionKindUnlimited, c.Options[9].Selection.Kind)
	require.Equal(t, int64(120000), c.Options[9].PriceMinor)
	require.Equal(t, []int{1, 2}, c.ChangePolicy.AllowedCycleOffsets)
	require.Len(t, c.Renewals, 2)
	require.Equal(t, today.AddDate(0, 1, 0), c.Renewals[0].Date)
	require.Equal(t, today.AddDate(0, 2, 0), c.Renewals[1].Date)
	require.True(t, c.ScheduledChange.Null)

	pv, err := e.member.PreviewFlexibleChange(e.ctx, api.PreviewFlexibleChangeParams{ID: p.ID, XOrganizationID: org,
		Kind: api.PreviewFlexibleChangeKindQuantity, Quantity: api.NewOptInt(12), Renewal: api.NewOptInt(2)})
	require.NoError(t, err)
	require.Equal(t, int64(108000), pv.Data.ToPriceMinor)
	require.Equal(t, int64(28000), pv.Data.DifferenceMinor)
	require.Equal(t, today.AddDate(0, 2, 0), pv.Data.EffectiveOn)
	require.True(t, pv.Data.ScheduledAt.Null)
	require.Nil(t, e.studio.client.Pass.GetX(e.op, p.ID).FlexibleChange, "a preview writes nothing")

	sc, err := e.member.ScheduleFlexibleChange(e.ctx, &api.FlexibleChangeRequest{Kind: api.FlexibleChangeRequestKindQuantity,
		Quantity: api.NewOptInt(5)}, api.ScheduleFlexibleChangeParams{ID: p.ID, XOrganizationID: org, IdempotencyKey: "flex-1"})
	require.NoError(t, err)
	require.Equal(t, 1, sc.Data.Renewal, "the policy's default renewal")
	require.False(t, sc.Data.ScheduledAt.Null)
	_, err = e.member.ScheduleFlexibleChange(e.ctx, &api.FlexibleChangeRequest{Kind: api.FlexibleChangeRequestKindUnlimited,
		Renewal: api.NewOptInt(2)}, api.ScheduleFlexibleChangeParams{ID: p.ID, XOrganizationID: org, IdempotencyKey: "flex-2"})
	require.NoError(t, err)
	stored := e.studio.client.Pass.GetX(e.op, p.ID).FlexibleChange
	require.Equal(t, model.FlexibleChange{Kind: "unlimited", Renewal: 2, EffectiveOn: today.AddDate(0, 2, 0).Format("2006-01-02"),
		PriceMinor: 120000, Currency: "DKK", ScheduledAt: stored.ScheduledAt}, *stored, "the second schedule replaced the first")
	ch, err = e.member.GetFlexibleChoices(e.ctx, api.GetFlexibleChoicesParams{ID: p.ID, XOrganizationID: org})
	require.NoError(t, err)
	require.Equal(t, api.FlexibleSelectionKindUnlimited, ch.Data.ScheduledChange.Value.Selection.Kind)

	// Refusals, each with its reason, and nothing changed.
	refuse := func(kind api.PreviewFlexibleChangeKind, q, renewal int, reason string) {
		t.Helper()
		pp := api.PreviewFlexibleChangeParams{ID: p.ID, XOrganizationID: org, Kind: kind}
		if q > 0 {
			pp.Quantity = api.NewOptInt(q)
		}
		if renewal > 0 {
			pp.Renewal = api.NewOptInt(renewal)
		}
		_, err := e.member.PreviewFlexibleChange(e.ctx, pp)
		hookErr(t, err, 422, "VALIDATION_FAILED")
		require.Equal(t, reason, reasonOf(t, err))
	}
	refuse(api.PreviewFlexibleChangeKindQuantity, 13, 1, "selection_unavailable")
	refuse(api.PreviewFlexibleChangeKindQuantity, 3, 1, "selection_unavailable")
	refuse(api.PreviewFlexibleChangeKindQuantity, 6, 3, "renewal_not_allowed")
	_, err = e.member.PreviewFlexibleChange(e.ctx, api.PreviewFlexibleChangeParams{ID: p.ID, XOrganizationID: org,
		Kind: api.PreviewFlexibleChangeKindQuantity})
	hookErr(t, err, 400, "VALIDATION_ERROR")

	cfg := *flex.FlexiblePricingConfig
	cfg.ChangePolicy.MemberChangesEnabled = false
	e.studio.client.PassType.UpdateOne(flex).SetFlexiblePricingConfig(&cfg).ExecX(e.op)
	refuse(api.PreviewFlexibleChangeKindQuantity, 6, 1, "member_changes_disabled")

	// Another member's pass, an unknown one and a fixed pass are 404.
	other := e.memberClient(t, "other@pay.example")
	_, err = other.GetFlexibleChoices(e.ctx, api.GetFlexibleChoicesParams{ID: p.ID, XOrganizationID: org})
	hookErr(t, err, 404, "NOT_FOUND")
	_, err = e.member.GetFlexibleChoices(e.ctx, api.GetFlexibleChoicesParams{ID: uuid.New(), XOrganizationID: org})
	hookErr(t, err, 404, "NOT_FOUND")
	fixed := e.studio.client.Pass.Create().SetMemberID(m.ID).SetPassTypeID(e.ten.ID).SetValidFrom(today).SaveX(e.op)
	_, err = e.member.GetFlexibleChoices(e.ctx, api.GetFlexibleChoicesParams{ID: fixed.ID, XOrganizationID: org})
	hookErr(t, err, 404, "NOT_FOUND")
}

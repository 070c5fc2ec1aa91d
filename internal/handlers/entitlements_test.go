package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/passtype"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestEntitlements: the contract's fields for a member with a clip card and
// a brand-restricted membership, narrowed by brand and by class, and the
// error codes (scope combination, malformed ids, another venue's brand and
// class, no relationship).
func TestEntitlements(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	unlimited := e.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(e.op) // hot-yoga brand only
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(4))
	e.client.Pass.Create().SetMemberID(ana.m.ID).SetPassTypeID(unlimited.ID).SetValidFrom(time.Now().AddDate(0, 0, -1)).SaveX(e.op)
	// An expired pass and an empty clip card never count.
	e.client.Pass.Create().SetMemberID(ana.m.ID).SetPassTypeID(e.ten.ID).SetValidFrom(time.Now().AddDate(0, -2, 0)).
		SetValidTo(time.Now().AddDate(0, -1, 0)).SetClipsRemaining(3).SaveX(e.op)
	e.client.Pass.Create().SetMemberID(ana.m.ID).SetPassTypeID(e.ten.ID).SetValidFrom(time.Now().AddDate(0, 0, -1)).
		SetClipsRemaining(0).SaveX(e.op)

	got, err := ana.c.GetMyEntitlements(ctx, api.GetMyEntitlementsParams{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	d := got.Data
	require.Equal(t, e.venue.ID, d.OrganizationID)
	require.Equal(t, time.Now().In(e.loc).Format(time.DateOnly), d.AsOf.Format(time.DateOnly))
	require.Equal(t, "all", d.BrandScope)
	require.True(t, d.CanBookPhysical)
	require.True(t, d.CanWatchOnline)
	require.False(t, d.OnlineOnly)
	require.True(t, d.BookableClassTypeIds.IsEntitlementsBookableClassTypeIds1())
	require.Len(t, d.ActivePasses, 2)
	byName := map[string]api.EntitlementPass{}
	for _, p := range d.ActivePasses {
		byName[p.PassTypeSlug] = p
	}
	require.Equal(t, 4, byName["ten"].ClipsRemaining.Value)
	require.True(t, byName["unlimited"].ClipsRemaining.Null)
	require.Equal(t, []string{e.brand.String()}, uuidStrings(byName["unlimited"].AllowedBrandIds))
	require.Empty(t, byName["ten"].AllowedBrandIds)
	require.True(t, byName["ten"].Grants.InPerson && byName["ten"].Grants.Online)

	// The Spin brand: the hot-yoga membership does not count.
	spin, err := ana.c.GetMyEntitlements(ctx, api.GetMyEntitlementsParams{OrganizationID: e.venue.ID, BrandID: api.NewOptString(e.otherBrand.String())})
	require.NoError(t, err)
	require.Equal(t, e.otherBrand.String(), spin.Data.BrandScope)
	require.Len(t, spin.Data.ActivePasses, 1)
	require.Equal(t, "ten", spin.Data.ActivePasses[0].PassTypeSlug)
	// The online Spin class: online only, brand of the class.
	cls, err := ana.c.GetMyEntitlements(ctx, api.GetMyEntitlementsParams{OrganizationID: e.venue.ID, ClassInstanceID: api.NewOptString(e.onlineClass.String())})
	require.NoError(t, err)
	require.Equal(t, e.otherBrand.String(), cls.Data.BrandScope)
	require.True(t, cls.Data.OnlineOnly)
	require.False(t, cls.Data.CanBookPhysical)

	code := func(p api.GetMyEntitlementsParams, status int, want string) {
		t.Helper()
		_, err := ana.c.GetMyEntitlements(ctx, p)
		requireCode(t, err, status, want)
	}
	code(api.GetMyEntitlementsParams{OrganizationID: e.venue.ID, BrandID: api.NewOptString(e.brand.String()),
		ClassInstanceID: api.NewOptString(e.fullClass.String())}, http.StatusBadRequest, "INVALID_BRAND_SCOPE")
	code(api.GetMyEntitlementsParams{OrganizationID: e.venue.ID, BrandID: api.NewOptString("nope")}, http.StatusBadRequest, "INVALID_BRAND_SCOPE")
	b := e.venueB(t, "other")
	otherBrand := e.client.Brand.Create().SetName("B").SetSlug("b").SaveX(b.op)
	code(api.GetMyEntitlementsParams{OrganizationID: e.venue.ID, BrandID: api.NewOptString(otherBrand.ID.String())}, http.StatusNotFound, "BRAND_NOT_FOUND")
	code(api.GetMyEntitlementsParams{OrganizationID: e.venue.ID, ClassInstanceID: api.NewOptString(b.class.ID.String())}, http.StatusNotFound, "CLASS_NOT_FOUND")
	code(api.GetMyEntitlementsParams{OrganizationID: e.venue.ID, ClassInstanceID: api.NewOptString(e.unlisted.String())}, http.StatusNotFound, "CLASS_NOT_FOUND")
	code(api.GetMyEntitlementsParams{OrganizationID: b.org}, http.StatusForbidden, "ACCESS_DENIED")
}

func uuidStrings[T interface{ String() string }](ids []T) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}

package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/featureprovisioning"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// otherVenue creates a second venue in the studio's database and returns its
// operator context.
func (e *authEnv) otherVenue(t *testing.T, slug string) (context.Context, uuid.UUID) {
	t.Helper()
	v, err := venue.Create(context.Background(), e.db(), venue.CreateParams{Name: "Venue " + slug, Slug: slug})
	require.NoError(t, err)
	return viewer.NewContext(context.Background(), viewer.Operator{Org: v.ID, Name: "test"}), v.ID
}

// enroll gives email a relationship in the venue of the operator context op.
func enroll(t *testing.T, e *authEnv, op context.Context, email, role string, perms ...string) {
	t.Helper()
	p := members.EnrollParams{Email: email, Role: role}
	if perms != nil {
		p.Permissions = perms
	}
	_, err := members.Enroll(op, e.db(), p)
	require.NoError(t, err)
}

func membershipOf(t *testing.T, m *api.Me, org uuid.UUID) api.Membership {
	t.Helper()
	for _, ms := range m.Memberships {
		if ms.OrganizationID == org {
			return ms
		}
	}
	t.Fatalf("no membership of %s", org)
	return api.Membership{}
}

// TestMeWorkspaces: memberships as workspaces, permissions of the active
// organization only, selection rules, and permission changes seen at once.
func TestMeWorkspaces(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	s := e.signup(t, "ana@example.com", goodPassword)
	c := e.client(t, s.AccessToken)

	got, err := c.GetMe(ctx)
	require.NoError(t, err)
	require.Equal(t, api.MePermissionsScopeActiveOrg, got.Data.PermissionsScope)
	require.Empty(t, got.Data.Memberships)
	require.True(t, got.Data.ActiveOrganizationID.Null)

	studio := e.venue.ID
	enroll(t, e, e.op, "ana@example.com", "staff", "bookings.manage")
	otherOp, other := e.otherVenue(t, "other")
	enroll(t, e, otherOp, "ana@example.com", "member")
	soloOp, solo := e.otherVenue(t, "solo")
	enroll(t, e, soloOp, "ana@example.com", "owner")

	got, err = c.GetMe(ctx)
	require.NoError(t, err)
	require.Len(t, got.Data.Memberships, 3)
	st := membershipOf(t, &got.Data, studio)
	require.Equal(t, api.MembershipWorkspaceGroupWorksAt, st.WorkspaceGroup)
	require.True(t, st.IsWorkplace && st.IsSelectable && !st.IsActive)
	require.Empty(t, st.Permissions, "not the active organization")
	require.Contains(t, st.Capabilities, "staff_app")
	mv := membershipOf(t, &got.Data, other)
	require.Equal(t, api.MembershipWorkspaceGroupMemberVenues, mv.WorkspaceGroup)
	require.True(t, mv.IsRelationship && !mv.IsSelectable)
	require.Equal(t, []string{"book", "buy"}, mv.Capabilities)
	ow := membershipOf(t, &got.Data, solo)
	require.Equal(t, api.MembershipWorkspaceGroupOwned, ow.WorkspaceGroup)
	require.True(t, ow.IsOwned && ow.IsIndividual && ow.IsSelectable)

	// Selection: member-only is not selectable, an unrelated venue is 404.
	_, err = c.SetActiveOrganization(ctx, &api.ActiveOrganizationRequest{OrganizationID: other})
	es := errorOf(t, err)
	require.Equal(t, http.StatusForbidden, es.StatusCode)
	require.Equal(t, "WORKSPACE_NOT_SELECTABLE", es.Response.Error.Code)
	_, err = c.SetActiveOrganization(ctx, &api.ActiveOrganizationRequest{OrganizationID: uuid.New()})
	require.Equal(t, http.StatusNotFound, errorOf(t, err).StatusCode)
	sel, err := c.SetActiveOrganization(ctx, &api.ActiveOrganizationRequest{OrganizationID: studio})
	require.NoError(t, err)
	require.Equal(t, api.ActiveOrganizationRoleStaff, sel.Data.Role)
	require.Equal(t, []string{"bookings.manage"}, sel.Data.Permissions)

	got, err = c.GetMe(ctx)
	require.NoError(t, err)
	require.Equal(t, studio, got.Data.ActiveOrganizationID.Value)
	st = membershipOf(t, &got.Data, studio)
	require.True(t, st.IsActive)
	require.Equal(t, []string{"bookings.manage"}, st.Permissions)
	require.Empty(t, membershipOf(t, &got.Data, solo).Permissions, "owner of another venue: not active")

	// A grant by the venue shows on the next request.
	enroll(t, e, e.op, "ana@example.com", "", "bookings.manage", "staff.view")
	got, err = c.GetMe(ctx)
	require.NoError(t, err)
	require.Equal(t, []string{"bookings.manage", "staff.view"}, membershipOf(t, &got.Data, studio).Permissions)

	// The session's workspace travels with the same access token: features of
	// the active organization without a header.
	_, err = e.db().FeatureProvisioning.Update().Where(featureprovisioning.OrganizationID(studio)).
		SetModules(map[string]bool{"shop": true, "loyalty": false}).Save(e.op)
	require.NoError(t, err)
	f, err := c.GetMyFeatures(ctx, api.GetMyFeaturesParams{})
	require.NoError(t, err)
	require.Equal(t, api.Feature{Enabled: true, Source: "venue", Tier: api.NewOptString("pro")}, f.Data["shop"])
	require.False(t, f.Data["loyalty"].Enabled)
	// The modules the platform acts on are listed with their defaults when
	// the venue never set them, and the API flag is the venue's.
	require.Equal(t, api.Feature{Enabled: true, Source: "default", Tier: api.NewOptString("pro")}, f.Data["notifications_email"])
	require.Equal(t, api.Feature{Enabled: false, Source: "default", Tier: api.NewOptString("pro")}, f.Data["notifications_sms"])
	require.Equal(t, api.Feature{Enabled: true, Source: "default", Tier: api.NewOptString("pro")}, f.Data["inquiries"])
	require.Equal(t, "venue", f.Data["api"].Source)

	// Owners hold every permission once selected.
	sel, err = c.SetActiveOrganization(ctx, &api.ActiveOrganizationRequest{OrganizationID: solo})
	require.NoError(t, err)
	require.Len(t, sel.Data.Permissions, 38)
}

// TestMeFeatures: the header names a venue of the user's; else the active
// organization; else {}. Another venue is 404.
func TestMeFeatures(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	s := e.signup(t, "ana@example.com", goodPassword)
	c := e.client(t, s.AccessToken)
	f, err := c.GetMyFeatures(ctx, api.GetMyFeaturesParams{})
	require.NoError(t, err)
	require.Empty(t, f.Data)
	_, err = c.GetMyFeatures(ctx, api.GetMyFeaturesParams{XOrganizationID: api.NewOptUUID(e.venue.ID)})
	require.Equal(t, http.StatusNotFound, errorOf(t, err).StatusCode, "no relationship")
	enroll(t, e, e.op, "ana@example.com", "member")
	_, err = c.GetMyFeatures(ctx, api.GetMyFeaturesParams{XOrganizationID: api.NewOptUUID(e.venue.ID)})
	require.NoError(t, err)
}

// TestMePatch: profile fields only.
func TestMePatch(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	s := e.signup(t, "ana@example.com", goodPassword)
	c := e.client(t, s.AccessToken)
	got, err := c.UpdateMe(ctx, &api.MeUpdateRequest{
		FirstName: api.NewOptString("Ana"), Phone: api.NewOptString("+45 1234"),
		Country: api.NewOptString("dk"), MarketingConsent: api.NewOptBool(true),
	})
	require.NoError(t, err)
	require.Equal(t, "Ana", got.Data.FirstName)
	require.Equal(t, "DK", got.Data.Country.Value)
	require.True(t, got.Data.MarketingConsent)
	for _, phone := range []string{"abc", "+45", "12345", "+45 1234 x5", "1234567890123456"} {
		_, err = c.UpdateMe(ctx, &api.MeUpdateRequest{Phone: api.NewOptString(phone)})
		es := errorOf(t, err)
		require.Equal(t, http.StatusBadRequest, es.StatusCode, phone)
		require.Equal(t, "phone", es.Response.Error.Details.Parameter.Value, phone)
	}
	ok, err := c.UpdateMe(ctx, &api.MeUpdateRequest{Phone: api.NewOptString("+45 (0) 12-34.56 78")})
	require.NoError(t, err)
	require.Equal(t, "+45 (0) 12-34.56 78", ok.Data.Phone.Value)
	_, err = c.UpdateMe(ctx, &api.MeUpdateRequest{Country: api.NewOptString("D1")})
	require.Equal(t, "country", errorOf(t, err).Response.Error.Details.Parameter.Value)

	for _, body := range []string{`{"email":"x@example.com"}`, `{"role":"owner"}`, `{"first_name":"A","balance":5}`} {
		req, _ := http.NewRequest(http.MethodPatch, e.url+"/api/v1/me", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+s.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusBadRequest, res.StatusCode, body)
	}
	again, err := c.GetMe(ctx)
	require.NoError(t, err)
	require.Equal(t, "ana@example.com", again.Data.Email)
	require.Equal(t, "Ana", again.Data.FirstName)

	// Without a token: 401.
	res, err := http.Get(e.url + "/api/v1/me")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusUnauthorized, res.StatusCode)
}

// TestMeMinimal: public, never 401, CORS for allowlisted origins only.
func TestMeMinimal(t *testing.T) {
	t.Setenv("VENUE_EMBED_ORIGINS", "https://embed.example.com, https://shop.example.com/")
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	s := e.signup(t, "ana@example.com", goodPassword)
	_, err := e.client(t, s.AccessToken).UpdateMe(ctx, &api.MeUpdateRequest{FirstName: api.NewOptString("Ana")})
	require.NoError(t, err)

	m, err := e.client(t, "").GetMeMinimal(ctx)
	require.NoError(t, err)
	require.False(t, m.Data.LoggedIn)
	require.True(t, m.Data.FirstName.Null)
	m, err = e.client(t, "not-a-token").GetMeMinimal(ctx)
	require.NoError(t, err)
	require.False(t, m.Data.LoggedIn)
	m, err = e.client(t, s.AccessToken).GetMeMinimal(ctx)
	require.NoError(t, err)
	require.True(t, m.Data.LoggedIn)
	require.Equal(t, "Ana", m.Data.FirstName.Value)
	require.True(t, m.Data.VenueID.Null)
	require.True(t, m.Data.PreferredBrandID.Null)

	for origin, allowed := range map[string]bool{
		"https://embed.example.com": true, "https://shop.example.com": true,
		"https://evil.example.com": false, "null": false,
	} {
		for _, method := range []string{http.MethodGet, http.MethodOptions} {
			req, _ := http.NewRequest(method, e.url+"/api/v1/me/minimal", nil)
			req.Header.Set("Origin", origin)
			req.Header.Set("Access-Control-Request-Method", "GET")
			res, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			res.Body.Close()
			if allowed {
				require.Equal(t, origin, res.Header.Get("Access-Control-Allow-Origin"), origin)
			} else {
				require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"), origin)
			}
			if method == http.MethodOptions {
				want := http.StatusForbidden
				if allowed {
					want = http.StatusNoContent
				}
				require.Equal(t, want, res.StatusCode, origin)
			}
		}
	}
	// Other paths never carry CORS headers.
	req, _ := http.NewRequest(http.MethodGet, e.url+"/api/v1/me", nil)
	req.Header.Set("Origin", "https://embed.example.com")
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Empty(t, res.Header.Get("Access-Control-Allow-Origin"))
}

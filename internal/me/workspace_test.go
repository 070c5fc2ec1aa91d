package me_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/me"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestWorkspaceCarriesPermissions: the workspace a bearer request acts in is
// the session's active organization with the permissions held now.
func TestWorkspaceCarriesPermissions(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	ctx := context.Background()
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Studio", Slug: "studio"})
	require.NoError(t, err)
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "test"})
	acct, err := accounts.New(client, accounts.Config{})
	require.NoError(t, err)
	s, err := acct.Signup(ctx, accounts.SignupParams{Email: "ana@example.com", Password: "correct horse battery"})
	require.NoError(t, err)
	uid := s.User.ID

	ws, err := me.LoadWorkspace(ctx, client, uid, s.SessionID)
	require.NoError(t, err)
	require.Equal(t, me.Workspace{}, ws, "no active organization yet")

	_, err = members.Enroll(op, client, members.EnrollParams{Email: "ana@example.com", Role: "staff",
		Permissions: []string{"bookings.manage"}})
	require.NoError(t, err)
	uctx := viewer.NewContext(ctx, viewer.User{UserID: uid, SessionID: s.SessionID})
	_, err = me.New(client).SelectOrganization(uctx, v.ID)
	require.NoError(t, err)

	ws, err = me.LoadWorkspace(ctx, client, uid, s.SessionID)
	require.NoError(t, err)
	require.Equal(t, v.ID, ws.Org)
	u := viewer.User{UserID: uid, Org: ws.Org, Role: ws.Role, Permissions: ws.Permissions}
	require.True(t, u.HasPermission("bookings.manage"))
	require.False(t, u.HasPermission("admin.users.manage"))

	// Demoted to a client: the workspace is gone on the next request.
	_, err = members.Enroll(op, client, members.EnrollParams{Email: "ana@example.com", Role: "member"})
	require.NoError(t, err)
	ws, err = me.LoadWorkspace(ctx, client, uid, s.SessionID)
	require.NoError(t, err)
	require.Equal(t, me.Workspace{}, ws)
}

package members_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func setup(t *testing.T) (*ent.Client, context.Context, context.Context) {
	t.Helper()
	client := db.NewClient(pgtest.NewPool(t))
	ctx := context.Background()
	a, err := venue.Create(ctx, client, venue.CreateParams{Name: "A", Slug: "a"})
	require.NoError(t, err)
	b, err := venue.Create(ctx, client, venue.CreateParams{Name: "B", Slug: "b"})
	require.NoError(t, err)
	return client,
		viewer.NewContext(ctx, viewer.Operator{Org: a.ID, Name: "test"}),
		viewer.NewContext(ctx, viewer.Operator{Org: b.ID, Name: "test"})
}

func TestEnroll(t *testing.T) {
	client, actx, bctx := setup(t)

	e, err := members.Enroll(actx, client, members.EnrollParams{
		Email: " Mette@Example.COM ", FirstName: "Mette", LastName: "Hansen",
		Role: "staff", Permissions: []string{"bookings.manage", "staff.view"},
	})
	require.NoError(t, err)
	require.True(t, e.CreatedUser)
	require.True(t, e.CreatedMember)
	require.Equal(t, "mette@example.com", e.User.Email)
	require.Equal(t, "password_never_used", string(e.User.AccountState))
	require.Equal(t, "staff", string(e.Member.Role))
	require.Equal(t, []string{"bookings.manage", "staff.view"}, e.Member.Permissions)

	// Again in the same venue: the same rows, the role changes.
	again, err := members.Enroll(actx, client, members.EnrollParams{Email: "mette@example.com", Role: "owner"})
	require.NoError(t, err)
	require.False(t, again.CreatedUser)
	require.False(t, again.CreatedMember)
	require.Equal(t, e.Member.ID, again.Member.ID)
	require.Equal(t, "owner", string(again.Member.Role))
	require.Equal(t, []string{"bookings.manage", "staff.view"}, again.Member.Permissions, "nil permissions keep them")

	// In another venue: the same person, a second membership; neither venue
	// sees the other's row.
	inB, err := members.Enroll(bctx, client, members.EnrollParams{Email: "METTE@example.com", FirstName: "Other"})
	require.NoError(t, err)
	require.False(t, inB.CreatedUser)
	require.True(t, inB.CreatedMember)
	require.Equal(t, e.User.ID, inB.User.ID)
	require.Equal(t, "Mette", inB.User.FirstName, "an active account keeps its name")
	require.Equal(t, "member", string(inB.Member.Role))
	_, err = client.Member.Get(bctx, e.Member.ID)
	require.True(t, ent.IsNotFound(err))
	n, err := client.Member.Query().Count(bctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
}

func TestEnrollRefusals(t *testing.T) {
	client, actx, _ := setup(t)
	_, err := members.Enroll(actx, client, members.EnrollParams{Email: "x@example.com", Role: "staff", Permissions: []string{"fly"}})
	require.ErrorContains(t, err, `permissions: unknown permission "fly"`)
	_, err = members.Enroll(actx, client, members.EnrollParams{Email: "not an email"})
	require.ErrorContains(t, err, "email: invalid email")
	_, err = members.Enroll(actx, client, members.EnrollParams{Email: "x@example.com", Role: "boss"})
	require.ErrorContains(t, err, `role: unknown role "boss"`)
	_, err = members.EnrollAll(actx, client, []members.EnrollParams{{Email: "x@example.com"}, {Email: "X@example.com"}})
	require.ErrorContains(t, err, "given twice")
	_, err = members.Enroll(context.Background(), client, members.EnrollParams{Email: "x@example.com"})
	require.ErrorIs(t, err, members.ErrNoVenue)
	n, err := client.Member.Query().Count(actx)
	require.NoError(t, err)
	require.Zero(t, n)
}

func TestEnrollImportedRefreshesUnclaimedAccount(t *testing.T) {
	client, actx, _ := setup(t)
	p := members.EnrollParams{Email: "a@example.com", FirstName: "Anna", ImportRef: "m1", AccountState: "imported_unclaimed"}
	first, err := members.Enroll(actx, client, p)
	require.NoError(t, err)
	p.FirstName = "Anne"
	second, err := members.Enroll(actx, client, p)
	require.NoError(t, err)
	require.Equal(t, first.User.ID, second.User.ID)
	require.Equal(t, "Anne", second.User.FirstName)
	require.Equal(t, "m1", *second.Member.ImportRef)

	// The ref now belongs to a@example.com: another email cannot take it.
	_, err = members.Enroll(actx, client, members.EnrollParams{Email: "b@example.com", ImportRef: "m1"})
	require.ErrorContains(t, err, `import ref "m1" already belongs to a member with another email`)
}

package members_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func enroll(t *testing.T, ctx context.Context, client *ent.Client, p members.EnrollParams) uuid.UUID {
	t.Helper()
	e, err := members.Enroll(ctx, client, p)
	require.NoError(t, err)
	return e.Member.ID
}

// names returns the "first last" names of ms.
func names(ms []*ent.Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Edges.User.FirstName + " " + m.Edges.User.LastName
	}
	return out
}

func TestSearchRanking(t *testing.T) {
	client, actx, bctx := setup(t)
	people := []members.EnrollParams{
		{Email: "h1@example.com", FirstName: "Hanne", LastName: "Berg"},
		{Email: "h2@example.com", FirstName: "Han", LastName: "Solo"},
		{Email: "h3@example.com", FirstName: "Anna", LastName: "Hansen"},
		{Email: "h4@example.com", FirstName: "Johan", LastName: "Lund"},
		{Email: "h5@example.com", FirstName: "Ida", LastName: "Han"},
		{Email: "h6@example.com", FirstName: "Sofie", LastName: "Møller", Phone: "+4512345678", ClientDisplayID: "C-1001"},
		{Email: "h7@example.com", FirstName: "Søren", LastName: "Ørsted", ClientDisplayID: "C-1002"},
		{Email: "chandler@example.com", FirstName: "Mads", LastName: "Holm"},
	}
	for _, p := range people {
		enroll(t, actx, client, p)
	}
	// The other venue has a better "han" than any of A's: never found in A.
	enroll(t, bctx, client, members.EnrollParams{Email: "b@example.com", FirstName: "Han", LastName: "Han"})

	got, more, err := members.Search(actx, client, "han", 0)
	require.NoError(t, err)
	require.False(t, more)
	// Exact names first (by the matching name: "han ida", then "han solo"),
	// then name prefixes ("hanne berg", "hansen anna"); never a match inside
	// a word (Johan, chandler@).
	require.Equal(t, []string{"Ida Han", "Han Solo", "Hanne Berg", "Anna Hansen"}, names(got))

	// Stable: the same query gives the same order.
	again, _, err := members.Search(actx, client, "han", 0)
	require.NoError(t, err)
	require.Equal(t, names(got), names(again))

	// The limit cuts the list and says more matched.
	two, more, err := members.Search(actx, client, "han", 2)
	require.NoError(t, err)
	require.True(t, more)
	require.Equal(t, []string{"Ida Han", "Han Solo"}, names(two))

	// Case, accents and spaces fold; a full name matches as a whole.
	for q, want := range map[string]string{
		"  SØREN   ørsted ": "Søren Ørsted",
		"soren":             "Søren Ørsted",
		"orsted s":          "Søren Ørsted",
		"moller":            "Sofie Møller",
		"c-1001":            "Sofie Møller",
		"12345678":          "Sofie Møller",
		"345 678":           "Sofie Møller",
		"+45 1234 5678":     "Sofie Møller",
		"chand":             "Mads Holm",
		"CHANDLER@EXAMPLE.": "Mads Holm",
		"anna hans":         "Anna Hansen",
	} {
		got, _, err := members.Search(actx, client, q, 0)
		require.NoError(t, err, q)
		require.Equal(t, []string{want}, names(got), q)
	}

	// Short queries (1-2 characters) are name prefixes only: "ha" finds the
	// names starting with it, not Johan nor chandler@ (which contain it).
	short, _, err := members.Search(actx, client, "ha", 0)
	require.NoError(t, err)
	require.Equal(t, []string{"Ida Han", "Han Solo", "Hanne Berg", "Anna Hansen"}, names(short))
	one, _, err := members.Search(actx, client, "s", 0)
	require.NoError(t, err)
	require.Equal(t, []string{"Sofie Møller", "Han Solo", "Søren Ørsted"}, names(one))

	// Emails, client ids and phone endings rank after names, in byte order
	// of the matching value: "c-1001", "c-1002" (client ids) before
	// "chandler@..." (an email); "h1@..." .. "h7@..." emails after the name
	// "han solo".
	mixed, _, err := members.Search(actx, client, "c-100", 0)
	require.NoError(t, err)
	require.Equal(t, []string{"Sofie Møller", "Søren Ørsted"}, names(mixed))
	ch, _, err := members.Search(actx, client, "ch", 0)
	require.NoError(t, err)
	require.Empty(t, ch, "two characters match names only")
	h, _, err := members.Search(actx, client, "h1@", 0)
	require.NoError(t, err)
	require.Equal(t, []string{"Hanne Berg"}, names(h))
	// Too few digits for a phone, too many for nothing.
	for _, q := range []string{"78", "99 345678"} {
		got, _, err := members.Search(actx, client, q, 0)
		require.NoError(t, err, q)
		require.Empty(t, got, q)
	}

	// Odd input: wildcards are literal, nothing matches nothing.
	for _, q := range []string{"%", "_", "%%%", "\\", "   ", "a'b", "zzzz", "ohan", "andler"} {
		got, _, err := members.Search(actx, client, q, 0)
		require.NoError(t, err, q)
		require.Empty(t, got, q)
	}
}

func TestSearchFollowsUserChanges(t *testing.T) {
	pool := pgtest.NewPool(t)
	client := db.NewClient(pool)
	ctx := context.Background()
	a, err := venue.Create(ctx, client, venue.CreateParams{Name: "A", Slug: "a"})
	require.NoError(t, err)
	actx := viewer.NewContext(ctx, viewer.Operator{Org: a.ID, Name: "test"})
	id := enroll(t, actx, client, members.EnrollParams{Email: "old@example.com", FirstName: "Vera", LastName: "Dahl"})

	find := func(q string) []uuid.UUID {
		t.Helper()
		ms, _, err := members.Search(actx, client, q, 0)
		require.NoError(t, err)
		var out []uuid.UUID
		for _, m := range ms {
			out = append(out, m.ID)
		}
		return out
	}
	require.Equal(t, []uuid.UUID{id}, find("vera"))

	// Any writer of the user (here plain SQL) moves what search finds, in
	// the same transaction, through the database trigger.
	_, err = pool.Exec(ctx, `UPDATE users SET first_name = 'Liva', email = 'new@example.com' WHERE email = 'old@example.com'`)
	require.NoError(t, err)
	require.Empty(t, find("vera"))
	require.Empty(t, find("old@example"))
	require.Equal(t, []uuid.UUID{id}, find("liva"))
	require.Equal(t, []uuid.UUID{id}, find("new@example"))

	// A new client display id is found too; an attempt to write the search
	// columns directly is overwritten from the user.
	_, err = client.Member.UpdateOneID(id).SetClientDisplayID("K-77").Save(actx)
	require.NoError(t, err)
	require.Equal(t, []uuid.UUID{id}, find("k-77"))
	_, err = pool.Exec(ctx, `UPDATE members SET search_first = 'zed', search_email = 'zed' WHERE id = $1`, id)
	require.NoError(t, err)
	require.Empty(t, find("zed"))
	require.Equal(t, []uuid.UUID{id}, find("liva dahl"))
}

func TestSearchWall(t *testing.T) {
	client, actx, bctx := setup(t)
	enroll(t, actx, client, members.EnrollParams{Email: "a@example.com", FirstName: "Astrid", LastName: "Berg"})
	enroll(t, bctx, client, members.EnrollParams{Email: "b@example.com", FirstName: "Astrid", LastName: "Bergström"})
	got, _, err := members.Search(actx, client, "astrid", 0)
	require.NoError(t, err)
	require.Equal(t, []string{"Astrid Berg"}, names(got))
	got, _, err = members.Search(bctx, client, "bergström", 0)
	require.NoError(t, err)
	require.Equal(t, []string{"Astrid Bergström"}, names(got))

	org, ok := viewer.VenueFromContext(actx)
	require.True(t, ok)
	for name, ctx := range map[string]context.Context{
		"no viewer":        context.Background(),
		"public visitor":   viewer.NewContext(context.Background(), viewer.Public{Org: org}),
		"acting as member": viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New(), Org: org, MemberID: uuid.New()}),
		"no venue":         viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New()}),
	} {
		_, _, err := members.Search(ctx, client, "astrid", 0)
		require.ErrorIs(t, err, members.ErrSearchDenied, name)
	}
	staff := viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New(), Org: org, Role: "staff"})
	got, _, err = members.Search(staff, client, "astrid", 0)
	require.NoError(t, err)
	require.Len(t, got, 1)
}

// TestSearchManyExact: more exact matches than a page come in name order and
// leave no room for prefixes.
func TestSearchManyExact(t *testing.T) {
	client, actx, _ := setup(t)
	for i := range 30 {
		enroll(t, actx, client, members.EnrollParams{Email: fmt.Sprintf("m%02d@example.com", i), FirstName: "Emil", LastName: fmt.Sprintf("Zed%02d", 29-i)})
	}
	enroll(t, actx, client, members.EnrollParams{Email: "emilie@example.com", FirstName: "Emilie", LastName: "Aaberg"})
	got, more, err := members.Search(actx, client, "emil", 0)
	require.NoError(t, err)
	require.True(t, more)
	require.Len(t, got, members.MaxSearchResults)
	require.Equal(t, "Emil Zed00", names(got)[0])
	require.Equal(t, "Emil Zed24", names(got)[24])
}

package seed_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/seed"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestSeed(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var last, total int
	res, err := seed.Run(ctx, pool, seed.Params{Venues: 2, Members: 300, Days: 3, Seed: 7, Now: now,
		Progress: func(done, tot int) {
			require.GreaterOrEqual(t, done, last)
			last, total = done, tot
		}})
	require.NoError(t, err)
	require.Equal(t, []string{"seed-7-venue-1", "seed-7-venue-2"}, res.Venues)
	require.Equal(t, 600, res.Counts["members"])
	require.Equal(t, 600, res.Counts["users"])
	require.Equal(t, 2, res.Counts["organizations"])
	require.Equal(t, 2*2*2*6*3, res.Counts["class_instances"])
	require.Equal(t, total, last)

	// The rows read back through the venue wall, within capacity.
	client := db.NewClient(pool)
	v, err := venue.BySlug(ctx, client, "seed-7-venue-1")
	require.NoError(t, err)
	require.True(t, v.APIEnabled())
	vctx := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "test"})
	n, err := client.Member.Query().Count(vctx)
	require.NoError(t, err)
	require.Equal(t, 300, n)
	classes, err := client.ClassInstance.Query().WithBookings().All(vctx)
	require.NoError(t, err)
	waitlisted := 0
	for _, c := range classes {
		seats := 0
		for _, b := range c.Edges.Bookings {
			switch b.Status {
			case booking.StatusWaitlisted:
				waitlisted++
			case booking.StatusCancelled, booking.StatusLateCancelled:
			default:
				seats++
			}
		}
		require.LessOrEqual(t, seats, c.Capacity)
	}
	require.Positive(t, waitlisted)

	// Same seed again: nothing fails, nothing is added.
	again, err := seed.Run(ctx, pool, seed.Params{Venues: 3, Members: 300, Days: 3, Seed: 7, Now: now})
	require.NoError(t, err)
	require.Equal(t, []string{"seed-7-venue-1", "seed-7-venue-2"}, again.Skipped)
	require.Equal(t, 300, again.Counts["members"])
}

func TestSeedIsDeterministic(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var ids [2][]string
	for i := range ids {
		pool := pgtest.NewPool(t)
		_, err := seed.Run(ctx, pool, seed.Params{Venues: 1, Members: 50, Days: 2, Seed: 42, Now: now})
		require.NoError(t, err)
		rows, err := pool.Query(ctx, "SELECT id::text FROM bookings ORDER BY id")
		require.NoError(t, err)
		for rows.Next() {
			var id string
			require.NoError(t, rows.Scan(&id))
			ids[i] = append(ids[i], id)
		}
		require.NoError(t, rows.Err())
	}
	require.NotEmpty(t, ids[0])
	require.Equal(t, ids[0], ids[1])
}

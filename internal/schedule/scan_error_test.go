package schedule_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/schedule"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// TestListKeepsTheQueryError: a statement the server refuses (a NUL in a
// filter, which the faces' input gate keeps away) fails List with the
// server's error wrapped, not only "0 columns, want 15", so the log shows
// the cause.
func TestListKeepsTheQueryError(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	ctx := context.Background()
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Scan", Slug: "scan-err"})
	require.NoError(t, err)
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID})
	now := time.Now()
	for _, f := range []schedule.Filter{
		{Start: now, End: now.Add(24 * time.Hour), ClassTypeName: "a\x00b", Limit: 10},
		{Start: now, End: now.Add(24 * time.Hour), InstructorName: "a\x00b", Limit: 10},
	} {
		_, _, err := schedule.List(op, client, f, now)
		require.Error(t, err)
		var pgErr *pgconn.PgError
		require.True(t, errors.As(err, &pgErr), "the server's error is wrapped: %v", err)
		require.NotContains(t, err.Error(), "0 columns")
	}
}

package demo_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/service"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/demo"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// The demo venue offers services, two of them open to booking inquiries.
func TestDemoServices(t *testing.T) {
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	client := db.NewClient(pool)
	res, err := demo.Ensure(ctx, pool, client, time.Date(2026, 11, 23, 13, 30, 0, 0, time.UTC))
	require.NoError(t, err)
	require.Equal(t, 3, res.Counts["services"])
	v, err := venue.BySlug(ctx, client, demo.Slug)
	require.NoError(t, err)
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "test"})
	n, err := client.Service.Query().Where(service.AcceptsInquiries(true), service.IsActive(true)).Count(op)
	require.NoError(t, err)
	require.Equal(t, 2, n)
}

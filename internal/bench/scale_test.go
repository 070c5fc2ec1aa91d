package bench

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/pgtest"
)

// TestMembersFamilyEndToEnd runs the members family's ops and the directory
// search on tiny scales: a small venue alone, a larger one with the small
// one beside it, the ratios and their goals. The scales are large enough
// that the signed-in staff and members spread the load under their
// per-user rate limits on a fast machine, as the full-size runs do.
func TestMembersFamilyEndToEnd(t *testing.T) {
	ctx := context.Background()
	url := pgtest.New(t)
	conn, err := pgx.Connect(ctx, url)
	require.NoError(t, err)
	var dbname string
	require.NoError(t, conn.QueryRow(ctx, "SELECT current_database()").Scan(&dbname))
	conn.Close(ctx)
	t.Cleanup(func() {
		admin, err := pgx.Connect(ctx, pgtest.ServerURL("postgres"))
		require.NoError(t, err)
		defer admin.Close(ctx)
		for _, s := range []string{"_bench_members_200", "_bench_members_600", "_bench_geo_2", "_bench_geo_5"} {
			_, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{dbname + s}.Sanitize()+" WITH (FORCE)")
			require.NoError(t, err)
		}
	})
	cfg := Config{
		DatabaseURL: url, Days: 3, Seed: 9,
		MemberScales: []int{200, 600}, GeoVenues: []int{2, 5},
		Ops: []string{"members-search", "members-schedule", "members-admin-schedule", "members-checkin-roster", "members-bookings", "venues-search",
			"members-webhook-deliveries", "members-audit-list",
			"members-checkout-preview", "members-pos-preview", "members-pos-cash-sale",
			"members-pos-pass-preview", "members-pos-restock"},
		Concurrency: []int{2},
		Warmup:      50 * time.Millisecond, Duration: 250 * time.Millisecond,
		Timeout: 10 * time.Second,
	}
	var progress bytes.Buffer
	rep, err := Execute(ctx, cfg, NewDisplay(&progress, false))
	require.NoError(t, err)

	var names []string
	for _, s := range rep.Sets {
		names = append(names, s.Name)
	}
	require.Equal(t, []string{"geo-2", "geo-5", "members-200", "members-600", "platform-600"}, names)
	require.Equal(t, 200, rep.Sets[2].Members)
	require.Equal(t, 600, rep.Sets[3].Members)
	require.Equal(t, 200, rep.Sets[4].Members, "the platform set is the small venue")

	require.Len(t, rep.Steps, 12*3+2)
	for _, s := range rep.Steps {
		require.Positive(t, s.Requests, "%s %s", s.Op, s.Set)
		require.Zero(t, s.Errors, "%s %s: %v", s.Op, s.Set, s.ErrorSample)
	}
	// The history ops read one delivery and one audit entry per member of
	// the large venue, written once for the data set; the staff are a
	// quarter of the members at most, none of them a signed-in member.
	large, err := pgx.Connect(ctx, pgtest.ServerURL(dbname+"_bench_members_600"))
	require.NoError(t, err)
	defer large.Close(ctx)
	var venue, sub string
	var deliveries, entries, staff, staffManaging int
	require.NoError(t, large.QueryRow(ctx, `SELECT organization_id, id FROM webhook_subscriptions
		WHERE description = $1 AND organization_id = (SELECT organization_id FROM members GROUP BY 1 ORDER BY count(*) DESC LIMIT 1)`,
		benchSubscription).Scan(&venue, &sub))
	require.NoError(t, large.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM webhook_deliveries WHERE subscription_id = $2),
		(SELECT count(*) FROM audit_logs WHERE organization_id = $1 AND actor = 'bench'),
		(SELECT count(*) FROM members WHERE organization_id = $1 AND role = 'staff'),
		(SELECT count(*) FROM members WHERE organization_id = $1 AND role = 'staff' AND permissions ? 'settings.business')`,
		venue, sub).Scan(&deliveries, &entries, &staff, &staffManaging))
	require.Equal(t, 600*HistoryPerMember, deliveries)
	require.Equal(t, 600*HistoryPerMember, entries)
	require.Equal(t, min(StaffPerVenue, 600/4), staff)
	require.Equal(t, staff, staffManaging, "every staff member holds the webhook permission")

	// The desk ops sell the venue's bench products in cash and restock
	// them: every sale took its stock, every restock added its unit, and
	// nothing was sold below zero.
	var products, sales, sold, restocked, stock int
	require.NoError(t, large.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM products WHERE organization_id = $1 AND sku LIKE 'bench-%'),
		(SELECT count(*) FROM pos_sales WHERE organization_id = $1 AND method = 'cash'),
		(SELECT COALESCE(-sum(delta), 0) FROM stock_movements WHERE organization_id = $1 AND kind = 'sale'),
		(SELECT COALESCE(sum(delta), 0) FROM stock_movements WHERE organization_id = $1 AND kind = 'adjustment' AND reason = 'bench delivery'),
		(SELECT sum(stock_on_hand) FROM products WHERE organization_id = $1 AND sku LIKE 'bench-%')`,
		venue).Scan(&products, &sales, &sold, &restocked, &stock))
	require.Equal(t, ProductsPerVenue, products)
	require.Positive(t, sales)
	require.Positive(t, sold)
	require.Positive(t, restocked)
	require.Equal(t, ProductsPerVenue*ProductStock-sold+restocked, stock)

	// Per members op: scale and platform rows; the search also against the
	// schedule; the directory's scale row.
	require.Len(t, rep.Scale, 12*2+1+1)
	goals := map[string]int{}
	for _, g := range rep.Goals {
		goals[g.Op]++
		require.Positive(t, g.Value, "%s %s", g.Op, g.Goal)
	}
	require.Equal(t, map[string]int{"members-search": 3, "members-schedule": 2, "members-admin-schedule": 2,
		"members-checkin-roster": 2, "members-bookings": 2, "venues-search": 1,
		"members-webhook-deliveries": 2, "members-audit-list": 2,
		"members-checkout-preview": 2, "members-pos-preview": 2, "members-pos-cash-sale": 2,
		"members-pos-pass-preview": 2, "members-pos-restock": 2}, goals)
	var text bytes.Buffer
	require.NoError(t, rep.WriteText(&text))
	require.Contains(t, text.String(), "members-search / members-schedule members-600 -> members-600")
	require.Contains(t, text.String(), "members-search members-200 -> platform-600")

	// The scales come from the flags, smallest first.
	cfg.MemberScales = []int{600, 200}
	_, err = Execute(ctx, cfg, NewDisplay(&progress, false))
	require.ErrorContains(t, err, "increasing")
}

func TestSearchTermsAreDeterministicAndVaried(t *testing.T) {
	seen := map[string]bool{}
	for n := range uint64(500) {
		q := searchTerm(n)
		require.Equal(t, q, searchTerm(n))
		require.GreaterOrEqual(t, len([]rune(q)), 2, q)
		require.Equal(t, strings.TrimSpace(q), q)
		seen[q] = true
	}
	require.Greater(t, len(seen), 100)
}

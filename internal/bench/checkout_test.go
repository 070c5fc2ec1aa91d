package bench

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/pgtest"
)

// TestCheckoutBuyOp runs the purchase op on tiny scales: every request
// previews and buys a clip card or a drop-in through the fake Stripe without an error,
// and each answered purchase is one paid checkout, one charge at the fake
// and one active pass, at the quote's amount.
func TestCheckoutBuyOp(t *testing.T) {
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
		for _, s := range []string{"_bench_members_200", "_bench_members_400"} {
			_, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{dbname + s}.Sanitize()+" WITH (FORCE)")
			require.NoError(t, err)
		}
	})
	cfg := Config{
		DatabaseURL: url, Days: 3, Seed: 9,
		MemberScales: []int{200, 400},
		Ops:          []string{"members-checkout-buy"},
		Concurrency:  []int{2},
		Warmup:       50 * time.Millisecond, Duration: 250 * time.Millisecond,
		Timeout: 10 * time.Second,
	}
	var progress bytes.Buffer
	rep, err := Execute(ctx, cfg, NewDisplay(&progress, false))
	require.NoError(t, err)
	require.Len(t, rep.Steps, 3, "the small venue, the large one, the small one beside it")
	for _, s := range rep.Steps {
		require.Positive(t, s.Requests, "%s %s", s.Op, s.Set)
		require.Zero(t, s.Errors, "%s %s: %v", s.Op, s.Set, s.ErrorSample)
	}

	large, err := pgx.Connect(ctx, pgtest.ServerURL(dbname+"_bench_members_400"))
	require.NoError(t, err)
	defer large.Close(ctx)
	var paid, passes, attempts, mismatched int
	require.NoError(t, large.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM checkouts WHERE status = 'paid'),
		(SELECT count(*) FROM passes p JOIN checkouts c ON c.pass_id = p.id WHERE p.status = 'active'),
		(SELECT count(*) FROM payment_attempts WHERE state = 'succeeded'),
		(SELECT count(*) FROM checkouts c JOIN pass_types t ON t.id = c.pass_type_id
		  WHERE NOT t.slug = ANY($1) OR c.amount_minor <> t.price_minor - c.credit_applied_minor)`, PurchasePassTypes).
		Scan(&paid, &passes, &attempts, &mismatched))
	require.Positive(t, paid)
	require.Equal(t, paid, passes, "one active pass per paid checkout")
	require.Equal(t, paid, attempts, "one charge per paid checkout")
	require.Zero(t, mismatched, "every checkout charged its pass type's quote")
	var charged int
	for _, id := range benchStripe().Intents() {
		if benchStripe().Intent(id)["status"] == "succeeded" {
			charged++
		}
	}
	require.GreaterOrEqual(t, charged, paid, "the fake saw every charge (of both data sets)")
}

package handlers_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/giftcard"
	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/db"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/server"
	"github.com/venueplatform/venue/internal/venue"
)

// giftBench is a venue with n members signed in and its ent client.
type giftBench struct {
	org     *venue.Venue
	client  *ent.Client
	members []*api.Client
}

func newGiftBench(b *testing.B, n int) *giftBench {
	b.Helper()
	pool := pgtest.NewPool(b)
	client := db.NewClient(pool)
	ctx := context.Background()
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Gift bench", Slug: "gift-bench"})
	require.NoError(b, err)
	key, err := token.GenerateSigningKey()
	require.NoError(b, err)
	acct, err := accounts.New(client, accounts.Config{SigningKey: key, Sink: &sink{}})
	require.NoError(b, err)
	h, err := server.New(server.Deps{Pool: pool, Client: client, Accounts: acct, Settings: settings(b),
		Log: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	require.NoError(b, err)
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	gb := &giftBench{org: v, client: client}
	for i := range n {
		en, err := members.Enroll(opOf(v.ID), client, members.EnrollParams{Email: fmt.Sprintf("g%d@bench.example", i)})
		require.NoError(b, err)
		tok, _, err := acct.Tokens().Issue(token.Claims{Subject: en.User.ID.String(), SessionID: en.User.ID.String()})
		require.NoError(b, err)
		c, err := api.NewClient(srv.URL+"/api/v1", bearer(tok))
		require.NoError(b, err)
		gb.members = append(gb.members, c)
	}
	return gb
}

// BenchmarkGiftCardRedeem measures POST /gift-cards/redeem (row lock,
// credit, ledger line) against GET /me by the same member in the same run
// (the baseline: the same credential, middleware chain and envelope), both
// as medians. Members take turns to stay under the per-principal limit.
func BenchmarkGiftCardRedeem(b *testing.B) {
	pb := newGiftBench(b, b.N/40+1)
	ctx := context.Background()
	op := opOf(pb.org.ID)
	card := pb.client.GiftCard.Create().SetCode("BENCH-1").SetGiftType(giftcard.GiftTypeAmount).
		SetInitialAmountMinor(int64(b.N)*100 + 100).SetRemainingAmountMinor(int64(b.N)*100 + 100).
		SetCurrency("DKK").SaveX(op)
	base, redeem := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		m := pb.members[i/40]
		t0 := time.Now()
		_, err := m.GetMe(ctx)
		base = append(base, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		t0 = time.Now()
		_, err = m.RedeemGiftCard(ctx, &api.GiftCardRedeemRequest{Code: card.Code, AmountMinor: api.NewOptInt64(100)},
			api.RedeemGiftCardParams{XOrganizationID: pb.org.ID, IdempotencyKey: fmt.Sprintf("bench-%d", i)})
		redeem = append(redeem, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	p50(b, redeem, "redeem-p50-ms")
	p50(b, base, "me-p50-ms")
}

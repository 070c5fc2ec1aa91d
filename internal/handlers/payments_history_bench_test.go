package handlers_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/payment"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// BenchmarkPaymentHistory measures the first page (25) of
// GET /me/payments/history for members with 200 payment rows each, against
// GET /me by the same members in the same run; both reported as medians.
func BenchmarkPaymentHistory(b *testing.B) {
	pb := newPayBench(b, b.N/40+1)
	ctx := context.Background()
	op := opOf(pb.org.ID)
	for _, m := range pb.client.Member.Query().AllX(op) {
		bulk := make([]*ent.PaymentCreate, 0, 200)
		for i := range 200 {
			bulk = append(bulk, pb.client.Payment.Create().SetMemberID(m.ID).SetAmountMinor(int64(1000+i)).
				SetCurrency("DKK").SetStatus(payment.StatusSucceeded).SetPaidAt(time.Now()))
		}
		require.NoError(b, pb.client.Payment.CreateBulk(bulk...).Exec(op))
	}
	base, hist := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
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
		res, err := m.ListMyPaymentHistory(ctx, api.ListMyPaymentHistoryParams{XOrganizationID: pb.org.ID})
		hist = append(hist, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Data) != 25 {
			b.Fatalf("page of %d", len(res.Data))
		}
	}
	b.StopTimer()
	p50(b, hist, "history-p50-ms")
	p50(b, base, "me-p50-ms")
}

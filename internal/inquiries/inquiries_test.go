package inquiries_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/inquiry"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/inquiries"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestRedeliverPending: inquiries stored but never delivered reach their
// venues' staff through the sweep, each once, and fresh ones are left to
// the member's own retry.
func TestRedeliverPending(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	ctx := context.Background()
	var fail atomic.Bool
	var got atomic.Int32
	relay := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if fail.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		got.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(relay.Close)
	svc := inquiries.New(client, inquiries.HTTPNotifier{URL: relay.URL}, nil)

	ops := map[uuid.UUID]context.Context{} // each inquiry's venue operator
	pending := func(slug string, age time.Duration) uuid.UUID {
		v, err := venue.Create(ctx, client, venue.CreateParams{Name: slug, Slug: slug})
		require.NoError(t, err)
		op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "test"})
		s := client.Service.Create().SetName("Massage").SetSlug("massage").SetDurationMinutes(60).
			SetPriceMinor(1).SetCurrency("DKK").SetAcceptsInquiries(true).SaveX(op)
		id := client.Inquiry.Create().SetUserID(uuid.New()).SetServiceID(s.ID).SetServiceName(s.Name).
			SetRequestID(uuid.NewString()).SetCreatedAt(time.Now().Add(-age)).SaveX(op).ID
		ops[id] = op
		return id
	}
	oldA, oldB, fresh := pending("venue-a", time.Hour), pending("venue-b", 10*time.Minute), pending("venue-c", 0)

	fail.Store(true)
	n, err := svc.RedeliverPending(ctx, inquiries.RedeliverAfter)
	require.NoError(t, err)
	require.Zero(t, n, "the relay is down: nothing delivered, attempts counted")

	fail.Store(false)
	n, err = svc.RedeliverPending(ctx, inquiries.RedeliverAfter)
	require.NoError(t, err)
	require.Equal(t, 2, n)
	require.EqualValues(t, 2, got.Load())
	n, err = svc.RedeliverPending(ctx, inquiries.RedeliverAfter)
	require.NoError(t, err)
	require.Zero(t, n, "each once")

	for id, want := range map[uuid.UUID]inquiry.Status{oldA: inquiry.StatusSent, oldB: inquiry.StatusSent, fresh: inquiry.StatusPending} {
		row, err := client.Inquiry.Get(ops[id], id)
		require.NoError(t, err)
		require.Equal(t, want, row.Status, id)
		if want == inquiry.StatusSent {
			require.NotNil(t, row.StaffNotifiedAt)
			require.Equal(t, 2, row.NotifyAttempts)
		}
	}
}

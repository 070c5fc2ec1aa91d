package events_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/pos"
	"github.com/venueplatform/venue/internal/viewer"
)

func init() { coveredElsewhere[events.PosSaleCompleted] = true }

// TestPosSaleCompletedRecordedWithTheChange: a desk sale records
// pos.sale.completed with its delivery in the sale's transaction, and
// nothing when that transaction rolls back.
func TestPosSaleCompletedRecordedWithTheChange(t *testing.T) {
	e := newCatalogueEnv(t)
	clerk := viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New(), Org: e.org.ID, Role: "staff",
		Permissions: []string{pos.PermSell}})
	p, err := pos.New(e.client, nil).CreateProduct(e.op, uuid.New(), pos.NewProduct{Name: "Water", InitialStock: 5,
		Prices: []pos.Price{{Currency: "DKK", PriceMinor: 2500}}})
	require.NoError(t, err)
	sale := pos.SaleParams{Cart: pos.Cart{Items: []pos.Item{{ProductID: p.ID, Quantity: 2}}}, Method: pos.MethodCash, RequestKey: "rk-1"}
	_, _, jobsBefore := e.outbox(t, events.PosSaleCompleted)
	err = events.WithTx(clerk, e.client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := pos.New(tx.Client(), nil).Sell(ctx, sale); err != nil {
			return err
		}
		return errAbort
	})
	require.ErrorIs(t, err, errAbort)
	evs, ds, jobs := e.outbox(t, events.PosSaleCompleted)
	require.Empty(t, evs)
	require.Zero(t, ds)
	require.Equal(t, jobsBefore, jobs)
	require.Equal(t, 5, e.client.Product.GetX(e.op, p.ID).StockOnHand)

	s, err := pos.New(e.client, nil).Sell(clerk, sale)
	require.NoError(t, err)
	evs, ds, _ = e.outbox(t, events.PosSaleCompleted)
	require.Len(t, evs, 1)
	require.Equal(t, 1, ds)
	require.Equal(t, s.ID.String(), evs[0].Payload["sale_id"])
	for _, k := range []string{"payment_id", "kind", "method", "total_minor", "vat_minor", "currency", "member_id"} {
		require.Contains(t, evs[0].Payload, k)
	}
}

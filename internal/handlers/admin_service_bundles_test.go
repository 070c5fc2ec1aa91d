package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestServiceBundles: staff create a combo package of two services (one as
// a variant) and list it with its items, time and separate price; a
// repeated service, a foreign service or variant, one item, or services of
// two currencies are refused with nothing saved; an inactive bundle is
// listed only on request; staff without bookings.manage are refused.
func TestServiceBundles(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	staff := e.staff(t, "manager@studio.example", "bookings.manage")
	plain := e.staff(t, "desk@studio.example")
	cut := e.db().Service.Create().SetName("Cut").SetSlug("cut").SetDurationMinutes(45).
		SetPriceMinor(40000).SetCurrency("DKK").SaveX(e.op)
	colour := e.db().Service.Create().SetName("Colour").SetSlug("colour").SetDurationMinutes(90).
		SetPriceMinor(90000).SetCurrency("DKK").SaveX(e.op)
	short := e.db().ServiceVariant.Create().SetServiceID(colour.ID).SetName("Short hair").
		SetDurationMinutes(60).SetPriceMinor(70000).SaveX(e.op)
	euro := e.db().Service.Create().SetName("Brow").SetSlug("brow").SetDurationMinutes(15).
		SetPriceMinor(2000).SetCurrency("EUR").SaveX(e.op)
	foreign := e.db().Service.Create().SetName("Other").SetSlug("other").SetDurationMinutes(50).
		SetPriceMinor(60000).SetCurrency("DKK").SaveX(e.otherOp)

	create := func(price float64, active bool, items ...api.ServiceBundleItemRequest) (*api.ServiceBundleResponse, error) {
		return staff.CreateServiceBundle(ctx, &api.ServiceBundleCreateRequest{Name: "Cut & colour", PriceAmount: price,
			IsActive: api.NewOptBool(active), Items: items}, api.CreateServiceBundleParams{IdempotencyKey: api.NewOptString(uuid.NewString())})
	}
	item := func(id uuid.UUID) api.ServiceBundleItemRequest { return api.ServiceBundleItemRequest{ServiceID: id} }

	b, err := create(999.5, true, item(cut.ID), api.ServiceBundleItemRequest{ServiceID: colour.ID, VariantID: api.NewOptUUID(short.ID)})
	require.NoError(t, err)
	require.Equal(t, int64(99950), b.Data.PriceMinor)
	require.Equal(t, "DKK", b.Data.Currency)
	require.Equal(t, 105, b.Data.TotalDurationMinutes)
	require.Equal(t, int64(110000), b.Data.SeparatePriceMinor)
	require.Len(t, b.Data.Items, 2)
	require.Equal(t, "Colour", b.Data.Items[1].ServiceName)
	require.Equal(t, short.ID, b.Data.Items[1].VariantID.Value)

	before := e.db().ServiceBundle.Query().CountX(e.op)
	_, err = create(100, true, item(cut.ID), item(cut.ID))
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = create(100, true, item(cut.ID), item(foreign.ID))
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = create(100, true, item(cut.ID), api.ServiceBundleItemRequest{ServiceID: cut.ID, VariantID: api.NewOptUUID(short.ID)})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = create(100, true, item(cut.ID), item(euro.ID))
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = create(100, true, item(cut.ID))
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, before, e.db().ServiceBundle.Query().CountX(e.op))
	require.Equal(t, 2, e.db().ServiceBundleItem.Query().CountX(e.op))

	_, err = create(500, false, item(cut.ID), item(colour.ID))
	require.NoError(t, err)
	list, err := staff.ListServiceBundles(ctx, api.ListServiceBundlesParams{})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	require.Equal(t, b.Data.ID, list.Data[0].ID)
	all, err := staff.ListServiceBundles(ctx, api.ListServiceBundlesParams{IncludeInactive: api.NewOptBool(true)})
	require.NoError(t, err)
	require.Len(t, all.Data, 2)
	_, err = plain.ListServiceBundles(ctx, api.ListServiceBundlesParams{})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Zero(t, e.db().ServiceBundle.Query().CountX(e.otherOp), "the other venue sees none of them")
}

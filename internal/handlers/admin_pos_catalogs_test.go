package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/flashsale"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/pos"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// requireDenied asserts a 403 ACCESS_DENIED naming pos.access.
func requireDenied(t *testing.T, err error) {
	t.Helper()
	var es *api.ErrorStatusCode
	require.ErrorAs(t, err, &es)
	require.Equal(t, http.StatusForbidden, es.StatusCode)
	require.Equal(t, "ACCESS_DENIED", es.Response.Error.Code)
}

// TestPosCatalogs: the desk's service, bundle, perk and flash-sale catalogs
// read what the venue has (active only, in the venue's order, prices in
// their own currencies with their exponents), never another venue's rows,
// and need pos.access.
func TestPosCatalogs(t *testing.T) {
	e := newPosEnv(t)
	c, op := e.studio.client, e.op
	// Services in JPY and KWD (their own exponents), one inactive, one unlisted.
	massage := c.Service.Create().SetName("Massage").SetSlug("massage").SetCategory("Body").SetDurationMinutes(60).
		SetPriceMinor(8000).SetCurrency("JPY").SetSortOrder(1).SaveX(op)
	short := c.ServiceVariant.Create().SetServiceID(massage.ID).SetName("30 min").SetDurationMinutes(30).SetPriceMinor(4500).SaveX(op)
	c.ServiceVariant.Create().SetServiceID(massage.ID).SetName("retired").SetDurationMinutes(90).SetPriceMinor(1).SetIsActive(false).SaveX(op)
	facial := c.Service.Create().SetName("Facial").SetSlug("facial").SetDurationMinutes(45).SetPriceMinor(12500).
		SetCurrency("KWD").SetListed(false).SetSortOrder(2).SaveX(op)
	c.Service.Create().SetName("Old").SetSlug("old").SetDurationMinutes(10).SetPriceMinor(1).SetCurrency("DKK").SetIsActive(false).SaveX(op)
	foot := c.Service.Create().SetName("Foot").SetSlug("foot").SetDurationMinutes(20).SetPriceMinor(3000).SetCurrency("JPY").SetSortOrder(3).SaveX(op)
	// A bundle of the massage's short variant and the foot treatment; one inactive.
	b := c.ServiceBundle.Create().SetName("Relax").SetDescription("two").SetPriceMinor(7000).SetCurrency("JPY").SaveX(op)
	c.ServiceBundleItem.Create().SetBundleID(b.ID).SetServiceID(massage.ID).SetVariantID(short.ID).SetPosition(0).ExecX(op)
	c.ServiceBundleItem.Create().SetBundleID(b.ID).SetServiceID(foot.ID).SetPosition(1).ExecX(op)
	c.ServiceBundle.Create().SetName("Gone").SetPriceMinor(1).SetCurrency("JPY").SetIsActive(false).ExecX(op)
	// Flash sales: live with capacity, scheduled, ended, cancelled, sold out.
	now := time.Now()
	mk := func(name string, from, to time.Duration) uuid.UUID {
		return c.FlashSale.Create().SetName(name).
			SetCommercialRule(model.CommercialRule{Version: 2, Kind: "introductory_price", Currency: "DKK", VatMode: "included",
				Pricing: model.RulePricing{Mode: "shared", Price: 199.5}}).
			SetProductFamily(flashsale.ProductFamilyNonRecurring).SetStartsAt(now.Add(from)).SetEndsAt(now.Add(to)).
			SetPlacements([]string{"public_link"}).SetPresentation(model.Presentation{Style: "clean"}).
			AddApplicablePassTypeIDs(e.ten.ID).SaveX(op).ID
	}
	live := mk("Live", -time.Hour, 24*time.Hour)
	c.FlashSale.UpdateOneID(live).SetCapacityMax(10).SetClaimedCount(3).ExecX(op)
	scheduled := mk("Later", 2*time.Hour, 48*time.Hour)
	mk("Ended", -48*time.Hour, -time.Hour)
	gone := mk("Cancelled", -time.Hour, time.Hour)
	c.FlashSale.UpdateOneID(gone).SetCancelledAt(now).ExecX(op)
	full := mk("Full", -time.Hour, time.Hour)
	c.FlashSale.UpdateOneID(full).SetCapacityMax(2).SetClaimedCount(2).ExecX(op)

	// Another venue's service, bundle and offer in the same database stay out.
	other, err := venue.Create(e.ctx, c, venue.CreateParams{Name: "Rival", Slug: "rival-pos"})
	require.NoError(t, err)
	oop := viewer.NewContext(context.Background(), viewer.Operator{Org: other.ID, Name: "test"})
	c.Service.Create().SetName("Rival massage").SetSlug("massage").SetDurationMinutes(60).SetPriceMinor(1).SetCurrency("DKK").ExecX(oop)
	c.ServiceBundle.Create().SetName("Rival bundle").SetPriceMinor(1).SetCurrency("DKK").ExecX(oop)
	c.FlashSale.Create().SetName("Rival sale").
		SetCommercialRule(model.CommercialRule{Version: 2, Kind: "introductory_price", Currency: "DKK", Pricing: model.RulePricing{Mode: "shared", Price: 1}}).
		SetProductFamily(flashsale.ProductFamilyNonRecurring).SetStartsAt(now.Add(-time.Hour)).SetEndsAt(now.Add(time.Hour)).
		SetPlacements([]string{"public_link"}).SetPresentation(model.Presentation{}).ExecX(oop)

	svcs, err := e.clerk.ListPosServices(e.ctx)
	require.NoError(t, err)
	require.Equal(t, 3, svcs.Meta.Total)
	require.Equal(t, []string{"Massage", "Facial", "Foot"}, []string{svcs.Data[0].Name, svcs.Data[1].Name, svcs.Data[2].Name})
	m := svcs.Data[0]
	require.Equal(t, api.PosService{ID: massage.ID, Name: "Massage", Category: "Body", DurationMinutes: 60, PriceMinor: 8000,
		Price: 8000, Currency: "JPY", CurrencyExponent: 0, Listed: true,
		Variants: []api.PosServiceVariant{{ID: short.ID, Name: "30 min", DurationMinutes: 30, PriceMinor: 4500, Price: 4500}}}, m)
	f := svcs.Data[1]
	require.Equal(t, facial.ID, f.ID)
	require.False(t, f.Listed, "staff-only services are sold at the desk too")
	require.Equal(t, 3, f.CurrencyExponent)
	require.InDelta(t, 12.5, f.Price, 1e-9)
	require.Empty(t, f.Variants)

	bs, err := e.clerk.ListPosBundles(e.ctx)
	require.NoError(t, err)
	require.Equal(t, 1, bs.Meta.Total)
	require.Equal(t, b.ID, bs.Data[0].ID)
	require.Equal(t, int64(7000), bs.Data[0].PriceMinor)
	require.Equal(t, int64(4500+3000), bs.Data[0].SeparatePriceMinor)
	require.Equal(t, 50, bs.Data[0].TotalMinutes)
	require.Len(t, bs.Data[0].Services, 2)
	require.Equal(t, short.ID, bs.Data[0].Services[0].VariantID.Value)
	require.Equal(t, "Massage (30 min)", bs.Data[0].Services[0].Name)
	require.True(t, bs.Data[0].Services[1].VariantID.IsNull())
	require.Equal(t, foot.ID, bs.Data[0].Services[1].ServiceID)

	perks, err := e.clerk.ListPosPerks(e.ctx)
	require.NoError(t, err)
	require.Equal(t, 0, perks.Meta.Total)
	require.NotNil(t, perks.Data)

	fss, err := e.clerk.ListPosFlashSales(e.ctx)
	require.NoError(t, err)
	require.Equal(t, 2, fss.Meta.Total)
	require.Equal(t, live, fss.Data[0].ID)
	require.Equal(t, api.PosFlashSaleStatusLive, fss.Data[0].Status)
	require.Equal(t, 7, fss.Data[0].Remaining.Value)
	require.Equal(t, int64(19950), fss.Data[0].PriceMinor)
	require.Equal(t, "DKK", fss.Data[0].Currency)
	require.Equal(t, []uuid.UUID{e.ten.ID}, fss.Data[0].PassTypeIds)
	require.Equal(t, scheduled, fss.Data[1].ID)
	require.Equal(t, api.PosFlashSaleStatusScheduled, fss.Data[1].Status)
	require.True(t, fss.Data[1].Remaining.IsNull())

	// Without pos.access every catalog is 403.
	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	seller := h.staffWith(t, "seller@pos.example", pos.PermSell)
	_, err = seller.ListPosServices(e.ctx)
	requireDenied(t, err)
	_, err = seller.ListPosBundles(e.ctx)
	requireDenied(t, err)
	_, err = seller.ListPosPerks(e.ctx)
	requireDenied(t, err)
	_, err = seller.ListPosFlashSales(e.ctx)
	requireDenied(t, err)
	_, err = seller.GetPosKiosk(e.ctx)
	requireDenied(t, err)
}

// TestPosKiosk: the kiosk shows the quick-sale pins in order with their
// current prices (a product's in the venue's currency), availability (out
// of stock, no price in the venue's currency) and stock, leaves out pins of
// items deactivated since, and says whether the caller set a kiosk PIN.
func TestPosKiosk(t *testing.T) {
	e := newPosEnv(t)
	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	manager := h.staffWith(t, "manager@pos.example", pos.PermManage, pos.PermAccess)
	water := e.product(t, "Water", 5, "DKK", 2500)
	mat := e.product(t, "Mat", 1, "DKK", 30000)
	euro := e.product(t, "EuroTowel", 3, "EUR", 900)
	gone := e.product(t, "Gone", 3, "DKK", 100)
	_, err := manager.SetPosFavorites(e.ctx, &api.PosFavoritesRequest{Pinned: []api.PosPin{
		{Kind: api.PosPinKindProduct, ID: mat.ID}, {Kind: api.PosPinKindPassType, ID: e.ten.ID},
		{Kind: api.PosPinKindProduct, ID: euro.ID}, {Kind: api.PosPinKindProduct, ID: gone.ID},
		{Kind: api.PosPinKindProduct, ID: water.ID},
	}}, api.SetPosFavoritesParams{IdempotencyKey: "pins-1"})
	require.NoError(t, err)
	e.studio.client.Product.UpdateOneID(gone.ID).SetActive(false).ExecX(e.op)
	// The last mat is sold: it shows as out of stock.
	_, err = e.sell(e.clerk, "mat-1", &api.PosSaleRequest{Items: []api.PosCartItem{item(mat.ID, 1)}, Method: api.PosSaleRequestMethodCash})
	require.NoError(t, err)

	k, err := e.clerk.GetPosKiosk(e.ctx)
	require.NoError(t, err)
	d := k.Data
	require.Equal(t, e.venue.Name, d.VenueName)
	require.Equal(t, "DKK", d.Currency)
	require.Equal(t, e.venue.Timezone, d.Timezone)
	n := time.Now().In(e.studio.loc)
	require.Equal(t, time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.UTC), d.BusinessDate)
	require.Equal(t, []api.PosKioskPaymentMethodsItem{"cash", "gift_card"}, d.PaymentMethods)
	require.False(t, d.PinSet)
	require.Len(t, d.Tiles, 4, "the deactivated product is left out")
	require.Equal(t, mat.ID, d.Tiles[0].ID)
	require.False(t, d.Tiles[0].Available)
	require.Equal(t, api.PosKioskTileReasonOutOfStock, d.Tiles[0].Reason.Value)
	require.Equal(t, 0, d.Tiles[0].StockOnHand.Value)
	require.Equal(t, e.ten.ID, d.Tiles[1].ID)
	require.True(t, d.Tiles[1].Available)
	require.Equal(t, e.ten.PriceMinor, d.Tiles[1].PriceMinor.Value)
	require.True(t, d.Tiles[1].StockOnHand.IsNull())
	require.Equal(t, euro.ID, d.Tiles[2].ID)
	require.False(t, d.Tiles[2].Available)
	require.Equal(t, api.PosKioskTileReasonNoPrice, d.Tiles[2].Reason.Value)
	require.True(t, d.Tiles[2].PriceMinor.IsNull())
	require.Equal(t, water.ID, d.Tiles[3].ID)
	require.True(t, d.Tiles[3].Available)
	require.True(t, d.Tiles[3].Reason.IsNull())
	require.Equal(t, int64(2500), d.Tiles[3].PriceMinor.Value)
	require.InDelta(t, 25.0, d.Tiles[3].Price.Value, 1e-9)
	require.Equal(t, 5, d.Tiles[3].StockOnHand.Value)

	_, err = e.clerk.SetPosKioskPin(e.ctx, &api.PosKioskPinSetRequest{Pin: "4821"}, api.SetPosKioskPinParams{IdempotencyKey: "pin-1"})
	require.NoError(t, err)
	k, err = e.clerk.GetPosKiosk(e.ctx)
	require.NoError(t, err)
	require.True(t, k.Data.PinSet)
}

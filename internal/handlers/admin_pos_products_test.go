package handlers_test

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/stockmovement"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/pos"
)

func (e *posEnv) patchProduct(c *api.Client, key string, id uuid.UUID, req *api.PosProductUpdateRequest) (*api.PosProductResponse, error) {
	return c.UpdatePosProduct(e.ctx, req, api.UpdatePosProductParams{ProductId: id, IdempotencyKey: key})
}

func (e *posEnv) adjust(c *api.Client, key string, id uuid.UUID, req *api.PosStockAdjustmentRequest) (*api.PosStockAdjustmentResponse, error) {
	return c.AdjustPosProductStock(e.ctx, req, api.AdjustPosProductStockParams{ProductId: id, IdempotencyKey: key})
}

func priceOf(p api.PosProduct, cur string) api.PosProductPrice {
	for _, pr := range p.Prices {
		if pr.Currency == cur {
			return pr
		}
	}
	return api.PosProductPrice{}
}

// TestPosProductPriceChangeBetweenPreviewAndSale: a price change makes the
// next price book version of its currency (others keep theirs); a sale held
// to a catalog preview made before the change is refused with 409
// BALANCE_CHANGED and the new quote, even when the cart's total is the same
// (two prices moved in opposite directions), and takes nothing; the new
// preview sells at the new prices and versions. The change is audited;
// refusals (no permission, empty body, currency twice, unknown product)
// change nothing. A deactivated product leaves the desk.
func TestPosProductPriceChangeBetweenPreviewAndSale(t *testing.T) {
	e := newPosEnv(t)
	towel := e.product(t, "Towel", 10, "DKK", 5000, "EUR", 700)
	mat := e.product(t, "Mat", 10, "DKK", 3000)
	cart := []api.PosCartItem{item(towel.ID, 1), item(mat.ID, 1)}
	preview := func() api.PosQuote {
		pv, err := e.clerk.PreviewPosCatalog(e.ctx, &api.PosCatalogPreviewRequest{Items: cart, ProductCurrency: api.NewOptString("DKK")})
		require.NoError(t, err)
		return pv.Data
	}
	before := preview()
	require.Equal(t, int64(8000), before.TotalMinor)

	// Refusals first: nothing changes.
	_, err := e.patchProduct(e.clerk, "u-denied", towel.ID, &api.PosProductUpdateRequest{Prices: []api.PosPrice{{Currency: "DKK", PriceMinor: 1}}})
	hookErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.patchProduct(e.keeper, "u-empty", towel.ID, &api.PosProductUpdateRequest{})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = e.patchProduct(e.keeper, "u-twice", towel.ID, &api.PosProductUpdateRequest{Prices: []api.PosPrice{
		{Currency: "DKK", PriceMinor: 1}, {Currency: "DKK", PriceMinor: 2}}})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = e.patchProduct(e.keeper, "u-unknown", uuid.New(), &api.PosProductUpdateRequest{Name: api.NewOptString("X")})
	hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, before.ProductQuote.Value.Fingerprint, preview().ProductQuote.Value.Fingerprint, "refusals moved no price")
	require.Zero(t, e.studio.client.AuditLog.Query().Where(auditlog.Action("pos.product_updated")).CountX(e.op))

	// Towel up 10.00, mat down 10.00: the same total, other price books.
	up, err := e.patchProduct(e.keeper, "u-towel", towel.ID, &api.PosProductUpdateRequest{Prices: []api.PosPrice{{Currency: "DKK", PriceMinor: 6000}}})
	require.NoError(t, err)
	require.Equal(t, api.PosProductPrice{Currency: "DKK", PriceMinor: 6000, Price: 60, Version: 2}, priceOf(up.Data, "DKK"))
	require.Equal(t, 1, priceOf(up.Data, "EUR").Version, "another currency keeps its version")
	down, err := e.patchProduct(e.keeper, "u-mat", mat.ID, &api.PosProductUpdateRequest{Name: api.NewOptString(" Yoga mat "),
		Prices: []api.PosPrice{{Currency: "DKK", PriceMinor: 2000}, {Currency: "EUR", PriceMinor: 300}}})
	require.NoError(t, err)
	require.Equal(t, "Yoga mat", down.Data.Name)
	require.Equal(t, 2, priceOf(down.Data, "DKK").Version)
	require.Equal(t, 1, priceOf(down.Data, "EUR").Version, "a new currency starts at version 1")
	same, err := e.patchProduct(e.keeper, "u-same", mat.ID, &api.PosProductUpdateRequest{Prices: []api.PosPrice{{Currency: "DKK", PriceMinor: 2000}}})
	require.NoError(t, err)
	require.Equal(t, 2, priceOf(same.Data, "DKK").Version, "an unchanged price is not a new version")

	stale := before.ProductQuote.Value
	sale := func(key string, pq api.PosQuoteProductQuote) (*api.PosSaleResponse, error) {
		return e.sell(e.clerk, key, &api.PosSaleRequest{Items: cart, ProductCurrency: api.NewOptString("DKK"),
			Method: api.PosSaleRequestMethodCash, ProductQuote: api.NewOptPosSaleRequestProductQuote(api.PosSaleRequestProductQuote{
				Currency: pq.Currency, TotalMinor: pq.TotalMinor, Fingerprint: pq.Fingerprint})})
	}
	_, err = sale("s-stale", stale)
	es := hookErr(t, err, http.StatusConflict, "BALANCE_CHANGED")
	require.Equal(t, "price_book_changed", es.Response.Error.Details.Reason.Value)
	require.JSONEq(t, "8000", string(es.Response.Error.Details.AdditionalProps["total_minor"]))
	after := preview()
	require.Equal(t, strconv.Quote(after.ProductQuote.Value.Fingerprint), string(es.Response.Error.Details.AdditionalProps["fingerprint"]))
	require.Equal(t, 10, e.stock(t, towel.ID))
	require.Equal(t, 10, e.stock(t, mat.ID))
	require.Zero(t, e.count(t, "pos_sales"))

	require.Equal(t, int64(8000), after.TotalMinor)
	require.NotEqual(t, stale.Fingerprint, after.ProductQuote.Value.Fingerprint)
	for _, v := range after.ProductPriceBookVersions {
		require.Equal(t, 2, v.Version)
	}
	s, err := sale("s-fresh", after.ProductQuote.Value)
	require.NoError(t, err)
	require.Equal(t, int64(8000), s.Data.TotalMinor)
	for _, l := range s.Data.Lines {
		require.Equal(t, 2, l.PriceBookVersion.Value)
	}
	require.Equal(t, 9, e.stock(t, towel.ID))

	entry := e.studio.client.AuditLog.Query().Where(auditlog.Action("pos.product_updated"), auditlog.Target("product:"+towel.ID.String())).OnlyX(e.op)
	require.Contains(t, fmt.Sprint(entry.Details["changes"]), "6000")

	off, err := e.patchProduct(e.keeper, "u-off", towel.ID, &api.PosProductUpdateRequest{Active: api.NewOptBool(false)})
	require.NoError(t, err)
	require.False(t, off.Data.Active)
	_, err = e.clerk.PreviewPosCatalog(e.ctx, &api.PosCatalogPreviewRequest{Items: cart})
	hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
	list, err := e.clerk.ListPosProducts(e.ctx)
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
}

// TestPosStockAdjustments: restock, write-off and count each write one
// adjustment movement with its reason and the stock after it, audited; a
// retry under the same Idempotency-Key moves nothing again; a write-off of
// more than is in stock is 422 PRODUCT_QUANTITY_LIMIT (out_of_stock) and
// inconsistent bodies, missing permissions and unknown products are
// refused; none of them moves stock.
func TestPosStockAdjustments(t *testing.T) {
	e := newPosEnv(t)
	p := e.product(t, "Water", 4, "DKK", 2500)
	adj := func(key string, kind api.PosStockAdjustmentRequestKind, qty, counted int) (*api.PosStockAdjustmentResponse, error) {
		req := &api.PosStockAdjustmentRequest{Kind: kind, Reason: "delivery " + key}
		if qty > 0 {
			req.Quantity = api.NewOptInt(qty)
		}
		if counted >= 0 {
			req.Counted = api.NewOptInt(counted)
		}
		return e.adjust(e.keeper, key, p.ID, req)
	}
	r, err := adj("a-restock", api.PosStockAdjustmentRequestKindRestock, 6, -1)
	require.NoError(t, err)
	require.Equal(t, 10, r.Data.StockOnHand)
	require.Equal(t, 6, r.Data.Movement.Delta)
	require.Equal(t, 10, r.Data.Movement.StockAfter)
	require.Equal(t, api.PosStockMovementKindAdjustment, r.Data.Movement.Kind)
	require.Equal(t, "delivery a-restock", r.Data.Movement.Reason)
	again, err := adj("a-restock", api.PosStockAdjustmentRequestKindRestock, 6, -1)
	require.NoError(t, err)
	require.Equal(t, r.Data.Movement.ID, again.Data.Movement.ID, "the retry replays the first answer")
	require.Equal(t, 10, e.stock(t, p.ID))

	w, err := adj("a-broken", api.PosStockAdjustmentRequestKindWriteOff, 3, -1)
	require.NoError(t, err)
	require.Equal(t, -3, w.Data.Movement.Delta)
	require.Equal(t, 7, w.Data.StockOnHand)
	c, err := adj("a-count", api.PosStockAdjustmentRequestKindCount, 0, 5)
	require.NoError(t, err)
	require.Equal(t, -2, c.Data.Movement.Delta)
	require.Equal(t, 5, c.Data.StockOnHand)

	_, err = adj("a-too-many", api.PosStockAdjustmentRequestKindWriteOff, 6, -1)
	es := hookErr(t, err, http.StatusUnprocessableEntity, "PRODUCT_QUANTITY_LIMIT")
	require.Equal(t, "out_of_stock", es.Response.Error.Details.Reason.Value)
	require.JSONEq(t, "5", string(es.Response.Error.Details.AdditionalProps["available"]))
	_, err = adj("a-mixed", api.PosStockAdjustmentRequestKindCount, 2, 5)
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = adj("a-noqty", api.PosStockAdjustmentRequestKindRestock, 0, -1)
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = e.adjust(e.keeper, "a-blank", p.ID, &api.PosStockAdjustmentRequest{Kind: api.PosStockAdjustmentRequestKindRestock,
		Quantity: api.NewOptInt(1), Reason: "   "})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = e.adjust(e.clerk, "a-clerk", p.ID, &api.PosStockAdjustmentRequest{Kind: api.PosStockAdjustmentRequestKindRestock,
		Quantity: api.NewOptInt(1), Reason: "found one"})
	hookErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.adjust(e.keeper, "a-unknown", uuid.New(), &api.PosStockAdjustmentRequest{Kind: api.PosStockAdjustmentRequestKindRestock,
		Quantity: api.NewOptInt(1), Reason: "found one"})
	hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, 5, e.stock(t, p.ID))

	mv := e.studio.client.StockMovement.Query().Where(stockmovement.ProductID(p.ID), stockmovement.KindEQ(stockmovement.KindAdjustment)).
		Order(stockmovement.ByCreatedAt()).AllX(e.op)
	require.Len(t, mv, 4, "initial stock, restock, write-off, count")
	sum := 0
	for _, m := range mv {
		sum += m.Delta
		require.Equal(t, sum, m.StockAfter)
	}
	require.Equal(t, 3, e.studio.client.AuditLog.Query().Where(auditlog.Action("pos.stock_adjusted")).CountX(e.op))
}

// TestPosRestockDuringConcurrentSales: 30 desk sales of one unit race 5
// restocks of 2 units on a product with 10 in stock. Every sale is sold or
// refused with 422 PRODUCT_QUANTITY_LIMIT (out_of_stock), never more than
// the 20 units there ever were are sold, the stock ends at 20 less the
// units sold, never below zero, and the movements add up to it.
func TestPosRestockDuringConcurrentSales(t *testing.T) {
	e := newPosEnv(t)
	p := e.product(t, "Water", 10, "DKK", 2500)
	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	clerks := []*api.Client{e.clerk}
	for i := 1; i < 5; i++ {
		clerks = append(clerks, h.staffWith(t, fmt.Sprintf("desk%d@pos.example", i), pos.PermSell))
	}
	var (
		wg            sync.WaitGroup
		mu            sync.Mutex
		sold, refused int
		others        []error
		start         = make(chan struct{})
	)
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := e.adjust(e.keeper, fmt.Sprintf("restock-%d", i), p.ID, &api.PosStockAdjustmentRequest{
				Kind: api.PosStockAdjustmentRequestKindRestock, Quantity: api.NewOptInt(2), Reason: "delivery"})
			if err != nil {
				mu.Lock()
				others = append(others, err)
				mu.Unlock()
			}
		}()
	}
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := e.sell(clerks[i%5], fmt.Sprintf("race-%02d", i), &api.PosSaleRequest{
				Items: []api.PosCartItem{item(p.ID, 1)}, Method: api.PosSaleRequestMethodCash})
			mu.Lock()
			defer mu.Unlock()
			var es *api.ErrorStatusCode
			switch {
			case err == nil:
				sold++
			case asStatus(err, &es) && es.StatusCode == http.StatusUnprocessableEntity &&
				es.Response.Error.Code == "PRODUCT_QUANTITY_LIMIT" && es.Response.Error.Details.Reason.Value == "out_of_stock":
				refused++
			default:
				others = append(others, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	require.Empty(t, others)
	require.Equal(t, 30, sold+refused)
	require.GreaterOrEqual(t, sold, 10, "a refusal means the stock was empty: the first 10 units were sold")
	require.LessOrEqual(t, sold, 20)
	require.Equal(t, 20-sold, e.stock(t, p.ID))
	mv := e.studio.client.StockMovement.Query().Where(stockmovement.ProductID(p.ID)).AllX(e.op)
	sum, sales := 0, 0
	for _, m := range mv {
		sum += m.Delta
		require.GreaterOrEqual(t, m.StockAfter, 0)
		if m.Kind == stockmovement.KindSale {
			sales++
		}
	}
	require.Equal(t, 20-sold, sum)
	require.Equal(t, sold, sales)
}

// TestPosPassTypesList: the desk's pass types are the venue's active ones
// with their VAT-inclusive price in minor and major units; a deactivated
// pass type leaves the list; without pos.access it is 403.
func TestPosPassTypesList(t *testing.T) {
	e := newPosEnv(t)
	res, err := e.clerk.ListPosPassTypes(e.ctx)
	require.NoError(t, err)
	require.Equal(t, len(res.Data), res.Meta.Total)
	var found *api.PosPassType
	for i := range res.Data {
		if res.Data[i].ID == e.ten.ID {
			found = &res.Data[i]
		}
	}
	require.NotNil(t, found)
	require.Equal(t, e.ten.PriceMinor, found.PriceMinor)
	require.Equal(t, e.ten.Currency, found.Currency)
	require.InDelta(t, money.ToMajor(e.ten.PriceMinor, e.ten.Currency), found.Price, 1e-9)

	e.studio.client.PassType.UpdateOneID(e.ten.ID).SetActive(false).ExecX(e.op)
	after, err := e.clerk.ListPosPassTypes(e.ctx)
	require.NoError(t, err)
	require.Len(t, after.Data, len(res.Data)-1)
	for _, pt := range after.Data {
		require.NotEqual(t, e.ten.ID, pt.ID)
	}

	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	seller := h.staffWith(t, "seller@pos.example", pos.PermSell)
	_, err = seller.ListPosPassTypes(e.ctx)
	hookErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
}

// TestPosStockMovementsList: a product's movements newest first, with the
// sale a sale movement belongs to and who moved each; limit cuts the list;
// pos.access reads it, pos.sell alone is 403, an unknown product 404.
func TestPosStockMovementsList(t *testing.T) {
	e := newPosEnv(t)
	p := e.product(t, "Water", 5, "DKK", 2500)
	s, err := e.sell(e.clerk, "mv-sale", &api.PosSaleRequest{Items: []api.PosCartItem{item(p.ID, 2)}, Method: api.PosSaleRequestMethodCash})
	require.NoError(t, err)
	_, err = e.adjust(e.keeper, "mv-restock", p.ID, &api.PosStockAdjustmentRequest{Kind: api.PosStockAdjustmentRequestKindRestock,
		Quantity: api.NewOptInt(4), Reason: "delivery"})
	require.NoError(t, err)

	res, err := e.clerk.ListPosStockMovements(e.ctx, api.ListPosStockMovementsParams{ProductId: p.ID})
	require.NoError(t, err)
	require.Equal(t, 7, res.Meta.StockOnHand)
	require.Len(t, res.Data, 3)
	require.Equal(t, 3, res.Meta.Total)
	require.Equal(t, []int{4, -2, 5}, []int{res.Data[0].Delta, res.Data[1].Delta, res.Data[2].Delta})
	require.Equal(t, []int{7, 3, 5}, []int{res.Data[0].StockAfter, res.Data[1].StockAfter, res.Data[2].StockAfter})
	require.Equal(t, api.PosStockMovementKindSale, res.Data[1].Kind)
	require.Equal(t, s.Data.ID, res.Data[1].SaleID.Value)
	require.True(t, res.Data[0].SaleID.Null)
	require.Equal(t, "delivery", res.Data[0].Reason)
	require.False(t, res.Data[0].UserID.Null)

	one, err := e.keeper.ListPosStockMovements(e.ctx, api.ListPosStockMovementsParams{ProductId: p.ID, Limit: api.NewOptInt(1)})
	require.NoError(t, err)
	require.Len(t, one.Data, 1)
	require.Equal(t, res.Data[0].ID, one.Data[0].ID)

	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	seller := h.staffWith(t, "seller@pos.example", pos.PermSell)
	_, err = seller.ListPosStockMovements(e.ctx, api.ListPosStockMovementsParams{ProductId: p.ID})
	hookErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = e.clerk.ListPosStockMovements(e.ctx, api.ListPosStockMovementsParams{ProductId: uuid.New()})
	hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
}

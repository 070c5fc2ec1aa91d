package handlers_test

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/giftcardmovement"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/productprice"
	"github.com/venueplatform/venue/ent/stockmovement"
	"github.com/venueplatform/venue/ent/user"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/giftcards"
	"github.com/venueplatform/venue/internal/pos"
)

// posEnv is a studio with a desk clerk (pos.access, pos.sell), a stock
// keeper (products.manage_inventory and pos.access) and a signed-in member.
type posEnv struct {
	*payEnv
	clerk, keeper *api.Client
}

func newPosEnv(t *testing.T) *posEnv {
	t.Helper()
	e := &posEnv{payEnv: newPayEnv(t, false, false)}
	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	e.clerk = h.staffWith(t, "clerk@pos.example", pos.PermAccess, pos.PermSell)
	e.keeper = h.staffWith(t, "keeper@pos.example", pos.PermInventory, pos.PermAccess)
	return e
}

// product creates a product with stock and prices (currency, minor, ...).
func (e *posEnv) product(t *testing.T, name string, stock int, prices ...any) api.PosProduct {
	t.Helper()
	req := &api.PosProductCreateRequest{Name: name, InitialStock: api.NewOptInt(stock)}
	for i := 0; i < len(prices); i += 2 {
		req.Prices = append(req.Prices, api.PosPrice{Currency: prices[i].(string), PriceMinor: int64(prices[i+1].(int))})
	}
	res, err := e.keeper.CreatePosProduct(e.ctx, req, api.CreatePosProductParams{IdempotencyKey: "p-" + name})
	require.NoError(t, err)
	return res.Data
}

func (e *posEnv) stock(t *testing.T, id uuid.UUID) int {
	return e.studio.client.Product.GetX(e.op, id).StockOnHand
}

func (e *posEnv) sell(c *api.Client, key string, req *api.PosSaleRequest) (*api.PosSaleResponse, error) {
	res, err := c.CreatePosSale(e.ctx, req, api.CreatePosSaleParams{IdempotencyKey: key})
	if err != nil {
		return nil, err
	}
	s, ok := res.(*api.PosSaleResponse)
	if !ok {
		return nil, fmt.Errorf("the sale waits for its card payment: %T", res)
	}
	return s, nil
}

func item(id uuid.UUID, n int) api.PosCartItem {
	return api.PosCartItem{ProductID: api.NewOptUUID(id), Quantity: api.NewOptInt(n)}
}

func (e *posEnv) memberID(t *testing.T, email string) uuid.UUID {
	return e.studio.client.Member.Query().Where(member.HasUserWith(user.Email(email))).OnlyX(e.op).ID
}

// TestPosLastUnitsUnderConcurrentSales: 50 desk sales race for the last 10
// units of a product: exactly 10 are sold, the other 40 are refused with
// 422 PRODUCT_QUANTITY_LIMIT (out_of_stock), the stock ends at 0 (never
// below), and the movements and payment rows match the sales one for one.
func TestPosLastUnitsUnderConcurrentSales(t *testing.T) {
	e := newPosEnv(t)
	p := e.product(t, "Water", 10, "DKK", 2500)
	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	clerks := []*api.Client{e.clerk}
	for i := 1; i < 5; i++ { // five desks, ten sales each: no clerk meets a rate limit
		clerks = append(clerks, h.staffWith(t, fmt.Sprintf("desk%d@pos.example", i), pos.PermSell))
	}
	var (
		wg            sync.WaitGroup
		mu            sync.Mutex
		sold, refused int
		others        []error
		start         = make(chan struct{})
	)
	for i := range 50 {
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
	require.Equal(t, 10, sold)
	require.Equal(t, 40, refused)
	require.Equal(t, 0, e.stock(t, p.ID))
	mv := e.studio.client.StockMovement.Query().Where(stockmovement.ProductID(p.ID), stockmovement.KindEQ(stockmovement.KindSale)).AllX(e.op)
	require.Len(t, mv, 10)
	after := map[int]bool{}
	for _, m := range mv {
		require.Equal(t, -1, m.Delta)
		after[m.StockAfter] = true
	}
	require.Len(t, after, 10, "each sale saw its own stock: 9 down to 0")
	require.Equal(t, 10, e.studio.client.Payment.Query().Where(payment.KindEQ(payment.KindProduct)).CountX(e.op))
	// The database itself refuses a negative stock, whoever writes.
	_, err := e.pool.Exec(e.ctx, `UPDATE products SET stock_on_hand = -1 WHERE id = $1`, p.ID)
	require.ErrorContains(t, err, "products_stock_non_negative")
}

func asStatus(err error, es **api.ErrorStatusCode) bool { return errors.As(err, es) }

// TestPosPreviewIsWhatTheSaleCharges: the preview of a cart and the sale of
// the same cart at the same time charge the same total, VAT-inclusive, in
// the chosen price book; the payment row holds exactly it. A price change
// between preview and sale is 409 BALANCE_CHANGED and takes nothing; cart
// errors are the contract's and change nothing.
func TestPosPreviewIsWhatTheSaleCharges(t *testing.T) {
	e := newPosEnv(t)
	mat := e.product(t, "Mat", 5, "DKK", 29900, "EUR", 3995)
	towel := e.product(t, "Towel", 8, "DKK", 4950, "EUR", 665)
	dkkOnly := e.product(t, "Socks", 8, "DKK", 7500)
	cart := []api.PosCartItem{item(mat.ID, 1), item(towel.ID, 3)}

	pv, err := e.clerk.PreviewPosCatalog(e.ctx, &api.PosCatalogPreviewRequest{Items: cart, ProductCurrency: api.NewOptString("EUR")})
	require.NoError(t, err)
	q := pv.Data
	require.Equal(t, "EUR", q.Currency)
	require.Equal(t, int64(3995+3*665), q.SubtotalMinor)
	require.Equal(t, q.SubtotalMinor-q.DiscountMinor, q.TotalMinor)
	require.Equal(t, int64(1198), q.VatMinor, "25 %% VAT inside 5990, rounded half up")
	require.InDelta(t, 59.90, q.Total, 1e-9)
	require.InDelta(t, 11.98, q.VatAmount, 1e-9)
	require.Len(t, q.ProductPriceBookVersions, 2)
	require.True(t, q.ProductQuote.Set)
	require.Equal(t, q.TotalMinor, q.ProductQuote.Value.TotalMinor)

	res, err := e.sell(e.clerk, "s-1", &api.PosSaleRequest{Items: cart, ProductCurrency: api.NewOptString("EUR"),
		Method: api.PosSaleRequestMethodCash, ExpectedTotalMinor: api.NewOptInt64(q.TotalMinor)})
	require.NoError(t, err)
	s := res.Data
	require.Equal(t, q.TotalMinor, s.TotalMinor)
	require.Equal(t, q.VatMinor, s.VatMinor)
	require.Equal(t, q.SubtotalMinor, s.SubtotalMinor)
	pay := e.studio.client.Payment.GetX(e.op, s.PaymentID)
	require.Equal(t, q.TotalMinor, pay.AmountMinor)
	require.Equal(t, "EUR", pay.Currency)
	require.Equal(t, payment.StatusSucceeded, pay.Status)
	require.Equal(t, payment.KindProduct, pay.Kind)
	require.Equal(t, 4, e.stock(t, mat.ID))
	require.Equal(t, 5, e.stock(t, towel.ID))
	// A retry of the same request is the same sale.
	again, err := e.sell(e.clerk, "s-1", &api.PosSaleRequest{Items: cart, ProductCurrency: api.NewOptString("EUR"),
		Method: api.PosSaleRequestMethodCash, ExpectedTotalMinor: api.NewOptInt64(q.TotalMinor)})
	require.NoError(t, err)
	require.Equal(t, s.ID, again.Data.ID)
	require.Equal(t, 4, e.stock(t, mat.ID))

	// The price changes after the preview: the sale held to it refuses.
	pp := e.studio.client.ProductPrice.Query().Where(productprice.ProductID(towel.ID), productprice.Currency("EUR")).OnlyX(e.op)
	pp.Update().SetPriceMinor(700).AddVersion(1).ExecX(e.op)
	payments := e.count(t, "payments")
	_, err = e.sell(e.clerk, "s-2", &api.PosSaleRequest{Items: cart, ProductCurrency: api.NewOptString("EUR"),
		Method: api.PosSaleRequestMethodCash, ExpectedTotalMinor: api.NewOptInt64(q.TotalMinor)})
	hookErr(t, err, 409, "BALANCE_CHANGED")
	pv2, err := e.clerk.PreviewPosCatalog(e.ctx, &api.PosCatalogPreviewRequest{Items: cart, ProductCurrency: api.NewOptString("EUR")})
	require.NoError(t, err)
	require.Equal(t, int64(3995+3*700), pv2.Data.TotalMinor)
	require.Equal(t, 2, pv2.Data.ProductPriceBookVersions[1].Version+pv2.Data.ProductPriceBookVersions[0].Version-1)

	// Cart errors: nothing is written.
	for _, c := range []struct {
		req    *api.PosSaleRequest
		status int
		code   string
	}{
		{&api.PosSaleRequest{Items: []api.PosCartItem{item(dkkOnly.ID, 1)}, ProductCurrency: api.NewOptString("EUR"), Method: api.PosSaleRequestMethodCash}, 422, "PRODUCT_PRICE_BOOK_UNAVAILABLE"},
		{&api.PosSaleRequest{Items: cart, PassTypeID: api.NewOptUUID(e.ten.ID), Method: api.PosSaleRequestMethodCash}, 422, "MIXED_CART_NOT_SUPPORTED"},
		{&api.PosSaleRequest{Method: api.PosSaleRequestMethodCash}, 422, "PRODUCTS_REQUIRED"},
		{&api.PosSaleRequest{Items: []api.PosCartItem{item(mat.ID, 60), item(mat.ID, 60)}, Method: api.PosSaleRequestMethodCash}, 422, "PRODUCT_QUANTITY_LIMIT"},
		{&api.PosSaleRequest{Items: []api.PosCartItem{item(mat.ID, 5)}, Method: api.PosSaleRequestMethodCash}, 422, "PRODUCT_QUANTITY_LIMIT"},
		{&api.PosSaleRequest{Items: []api.PosCartItem{item(uuid.New(), 1)}, Method: api.PosSaleRequestMethodCash}, 404, "NOT_FOUND"},
		{&api.PosSaleRequest{Items: cart, Method: api.PosSaleRequestMethodGiftCard}, 400, "VALIDATION_ERROR"},
	} {
		_, err := e.sell(e.clerk, "bad-"+uuid.NewString(), c.req)
		hookErr(t, err, c.status, c.code)
	}
	_, err = e.clerk.PreviewPosCatalog(e.ctx, &api.PosCatalogPreviewRequest{Items: []api.PosCartItem{{PassTypeID: api.NewOptUUID(e.ten.ID)}}})
	hookErr(t, err, 422, "PRODUCTS_REQUIRED")
	require.Equal(t, payments, e.count(t, "payments"))
	require.Equal(t, 1, e.count(t, "pos_sales"))
	require.Equal(t, 4, e.stock(t, mat.ID))

	// Without pos.sell (or for a member) nothing is sold.
	_, err = e.sell(e.keeper, "k-1", &api.PosSaleRequest{Items: cart, Method: api.PosSaleRequestMethodCash})
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = e.sell(e.member, "m-1", &api.PosSaleRequest{Items: cart, Method: api.PosSaleRequestMethodCash})
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = e.clerk.CreatePosProduct(e.ctx, &api.PosProductCreateRequest{Name: "X", Prices: []api.PosPrice{{Currency: "DKK", PriceMinor: 1}}},
		api.CreatePosProductParams{IdempotencyKey: "c-x"})
	hookErr(t, err, 403, "ACCESS_DENIED")
	require.Equal(t, 1, e.count(t, "pos_sales"))
	list, err := e.clerk.ListPosProducts(e.ctx)
	require.NoError(t, err)
	require.Len(t, list.Data, 3)
}

// TestPosPassAndGiftCards: a gift card sold over the counter lands on the
// shared ledger with a gift_card payment row; a pass sold to a member is
// paid with it (a redemption line on the same card), becomes an active
// pass with a pass_purchase payment, a receipt e-mail in the outbox and
// pos.sale.completed for partners; a card holding too little is refused
// and nothing changes.
func TestPosPassAndGiftCards(t *testing.T) {
	e := newPosEnv(t)
	mid := e.memberID(t, "buyer@pay.example")

	gc, err := e.clerk.SellPosGiftCard(e.ctx, &api.PosGiftCardSaleRequest{AmountMinor: 150000},
		api.SellPosGiftCardParams{IdempotencyKey: "g-1"})
	require.NoError(t, err)
	card := gc.Data.GiftCard
	require.Equal(t, int64(150000), card.RemainingAmountMinor)
	require.Equal(t, api.PosSaleKindGiftCard, gc.Data.Sale.Kind)
	require.Equal(t, int64(0), gc.Data.Sale.VatMinor)
	require.Equal(t, payment.KindGiftCard, e.studio.client.Payment.GetX(e.op, gc.Data.Sale.PaymentID).Kind)
	_, err = e.clerk.SellPosGiftCard(e.ctx, &api.PosGiftCardSaleRequest{AmountMinor: 1000, SendNotification: api.NewOptBool(true),
		RecipientEmail: api.NewOptString("friend@pos.example")}, api.SellPosGiftCardParams{IdempotencyKey: "g-2"})
	hookErr(t, err, 403, "ACCESS_DENIED")

	pv, err := e.clerk.PreviewPosPass(e.ctx, &api.PosPassPreviewRequest{PassTypeID: e.ten.ID, MemberID: api.NewOptUUID(mid)})
	require.NoError(t, err)
	require.Equal(t, e.ten.PriceMinor, pv.Data.TotalMinor)

	res, err := e.sell(e.clerk, "pass-1", &api.PosSaleRequest{PassTypeID: api.NewOptUUID(e.ten.ID), MemberID: api.NewOptUUID(mid),
		Method: api.PosSaleRequestMethodGiftCard, GiftCardCode: api.NewOptString(card.Code), ExpectedTotalMinor: api.NewOptInt64(pv.Data.TotalMinor)})
	require.NoError(t, err)
	s := res.Data
	require.Equal(t, pv.Data.TotalMinor, s.TotalMinor)
	require.Equal(t, pv.Data.VatMinor, s.VatMinor)
	ps := e.studio.client.Pass.GetX(e.op, s.PassID.Value)
	require.Equal(t, pass.StatusActive, ps.Status)
	require.Equal(t, mid, ps.MemberID)
	pay := e.studio.client.Payment.GetX(e.op, s.PaymentID)
	require.Equal(t, payment.KindPassPurchase, pay.Kind)
	require.Equal(t, ps.ID, *pay.PassID)
	mv := e.ledgerOK(t, card.ID)
	require.Len(t, mv, 2)
	require.Equal(t, giftcardmovement.KindRedemption, mv[1].Kind)
	require.Equal(t, -e.ten.PriceMinor, mv[1].AmountMinor)
	nd := e.studio.client.NotificationDelivery.Query().Where(notificationdelivery.Kind(pos.ReceiptKind)).OnlyX(e.op)
	require.Equal(t, "buyer@pay.example", nd.Address)
	evs := e.studio.client.Event.Query().Where(event.Type("pos.sale.completed")).AllX(e.op)
	require.Len(t, evs, 2, "the gift card sale and the pass sale")

	// 1500.00 - 1200.00 leaves 300.00: not enough for another ten-clip card.
	before := e.count(t, "payments")
	_, err = e.sell(e.clerk, "pass-2", &api.PosSaleRequest{PassTypeID: api.NewOptUUID(e.ten.ID), MemberID: api.NewOptUUID(mid),
		Method: api.PosSaleRequestMethodGiftCard, GiftCardCode: api.NewOptString(card.Code)})
	hookErr(t, err, 422, giftcards.CodeNotRedeemable)
	_, err = e.sell(e.clerk, "pass-3", &api.PosSaleRequest{PassTypeID: api.NewOptUUID(e.ten.ID), Method: api.PosSaleRequestMethodCash})
	hookErr(t, err, 400, "VALIDATION_ERROR")
	require.Equal(t, before, e.count(t, "payments"))
	require.Len(t, e.ledgerOK(t, card.ID), 2)
	require.Equal(t, 1, e.studio.client.Pass.Query().Where(pass.MemberID(mid), pass.PassTypeID(e.ten.ID)).CountX(e.op))
}

// TestPosEndOfDayAndReturns: the day's takings per method, expected
// against counted cash, a second close of the date replacing the first;
// returns once per key (8 to 160 ASCII characters), a reused key with
// another body refused, and a return beyond what a sale has left stale.
func TestPosEndOfDayAndReturns(t *testing.T) {
	e := newPosEnv(t)
	p := e.product(t, "Mat", 10, "DKK", 30000)
	s1, err := e.sell(e.clerk, "d-1", &api.PosSaleRequest{Items: []api.PosCartItem{item(p.ID, 2)}, Method: api.PosSaleRequestMethodCash})
	require.NoError(t, err)
	gc, err := e.clerk.SellPosGiftCard(e.ctx, &api.PosGiftCardSaleRequest{AmountMinor: 50000}, api.SellPosGiftCardParams{IdempotencyKey: "d-g"})
	require.NoError(t, err)
	_, err = e.sell(e.clerk, "d-2", &api.PosSaleRequest{Items: []api.PosCartItem{item(p.ID, 1)}, Method: api.PosSaleRequestMethodGiftCard,
		GiftCardCode: api.NewOptString(gc.Data.GiftCard.Code)})
	require.NoError(t, err)

	day, err := e.clerk.GetPosDay(e.ctx, api.GetPosDayParams{})
	require.NoError(t, err)
	require.True(t, day.Data.Close.Null)
	require.Equal(t, []api.PosMethodTotal{
		{Method: api.PosMethodTotalMethodCash, Currency: "DKK", Count: 2, TotalMinor: 110000},
		{Method: api.PosMethodTotalMethodGiftCard, Currency: "DKK", Count: 1, TotalMinor: 30000},
	}, day.Data.Totals)
	require.Equal(t, int64(110000), day.Data.ExpectedCashMinor)

	closed, err := e.clerk.ClosePosDay(e.ctx, &api.PosDayCloseRequest{CountedCashMinor: 119000, OpeningFloatMinor: api.NewOptInt64(10000)},
		api.ClosePosDayParams{IdempotencyKey: "close-1"})
	require.NoError(t, err)
	c := closed.Data.Close.Value
	require.Equal(t, int64(120000), c.ExpectedCashMinor)
	require.Equal(t, int64(-1000), c.DifferenceMinor)
	closed, err = e.clerk.ClosePosDay(e.ctx, &api.PosDayCloseRequest{CountedCashMinor: 120000, OpeningFloatMinor: api.NewOptInt64(10000), Note: api.NewOptString("recount")},
		api.ClosePosDayParams{IdempotencyKey: "close-2"})
	require.NoError(t, err)
	require.Equal(t, int64(0), closed.Data.Close.Value.DifferenceMinor)
	require.Equal(t, 1, e.count(t, "pos_day_closes"), "the second close replaced the first")
	_, err = e.clerk.ClosePosDay(e.ctx, &api.PosDayCloseRequest{CountedCashMinor: 1, Date: api.NewOptDate(e.studio.today.AddDate(0, 0, 2))},
		api.ClosePosDayParams{IdempotencyKey: "close-3"})
	hookErr(t, err, 400, "VALIDATION_ERROR")
	_, err = e.keeper.ClosePosDay(e.ctx, &api.PosDayCloseRequest{CountedCashMinor: 1}, api.ClosePosDayParams{IdempotencyKey: "close-4"})
	hookErr(t, err, 403, "ACCESS_DENIED")
	require.Equal(t, "recount", e.studio.client.PosDayClose.Query().OnlyX(e.op).Note)

	// Returns.
	ret := func(c *api.Client, key string, sale uuid.UUID, n int, reason string) (*api.PosReturnResponse, error) {
		req := &api.PosReturnRequest{Items: []api.PosReturnItem{{ProductID: p.ID, Quantity: n}}, Reason: reason}
		if sale != uuid.Nil {
			req.SaleID = api.NewOptUUID(sale)
		}
		return c.CreatePosReturn(e.ctx, req, api.CreatePosReturnParams{IdempotencyKey: key})
	}
	require.Equal(t, 7, e.stock(t, p.ID))
	r, err := ret(e.keeper, "return-0001", s1.Data.ID, 1, "torn")
	require.NoError(t, err)
	require.False(t, r.Data.Replayed)
	require.Equal(t, 8, e.stock(t, p.ID))
	r2, err := ret(e.keeper, "return-0001", s1.Data.ID, 1, "torn")
	require.NoError(t, err)
	require.True(t, r2.Data.Replayed)
	require.Equal(t, r.Data.ID, r2.Data.ID)
	require.Equal(t, 8, e.stock(t, p.ID), "a replay moves nothing")
	_, err = ret(e.keeper, "return-0001", s1.Data.ID, 1, "another reason")
	hookErr(t, err, 409, "POS_RETURN_KEY_CONFLICT")
	_, err = ret(e.keeper, "return-0002", s1.Data.ID, 2, "both torn")
	hookErr(t, err, 409, "POS_RETURN_STALE")
	_, err = ret(e.keeper, "short", uuid.Nil, 1, "torn")
	hookErr(t, err, 400, "INVALID_IDEMPOTENCY_KEY")
	_, err = ret(e.clerk, "return-0003", uuid.Nil, 1, "torn")
	hookErr(t, err, 403, "ACCESS_DENIED")
	require.Equal(t, 8, e.stock(t, p.ID))
	require.Equal(t, 1, e.count(t, "pos_returns"))
	r3, err := ret(e.keeper, "return-0004", uuid.Nil, 3, "found in the store room")
	require.NoError(t, err)
	require.True(t, r3.Data.SaleID.Null)
	require.Equal(t, 11, e.stock(t, p.ID))
	last := e.studio.client.StockMovement.Query().Where(stockmovement.ProductID(p.ID)).
		Order(ent.Desc(stockmovement.FieldCreatedAt)).FirstX(e.op)
	require.Equal(t, 11, last.StockAfter)
	require.Equal(t, stockmovement.KindReturn, last.Kind)
}

// TestPosFavoritesAndKioskPin: pins are replaced whole by pos.manage and
// must name the venue's own items; the kiosk check answers only valid or
// not (unknown staff, no PIN and a wrong PIN look alike) and is rate
// limited per caller.
func TestPosFavoritesAndKioskPin(t *testing.T) {
	e := newPosEnv(t)
	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	manager := h.staffWith(t, "manager@pos.example", pos.PermManage, pos.PermAccess)
	p := e.product(t, "Water", 3, "DKK", 2500)

	got, err := e.clerk.GetPosFavorites(e.ctx)
	require.NoError(t, err)
	require.Empty(t, got.Data.Pinned)
	pins := []api.PosPin{{Kind: api.PosPinKindProduct, ID: p.ID}, {Kind: api.PosPinKindPassType, ID: e.ten.ID}}
	_, err = manager.SetPosFavorites(e.ctx, &api.PosFavoritesRequest{Pinned: pins}, api.SetPosFavoritesParams{IdempotencyKey: "f-1"})
	require.NoError(t, err)
	_, err = e.clerk.SetPosFavorites(e.ctx, &api.PosFavoritesRequest{Pinned: pins[:1]}, api.SetPosFavoritesParams{IdempotencyKey: "f-2"})
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = manager.SetPosFavorites(e.ctx, &api.PosFavoritesRequest{Pinned: []api.PosPin{{Kind: api.PosPinKindProduct, ID: e.ten.ID}}},
		api.SetPosFavoritesParams{IdempotencyKey: "f-3"})
	hookErr(t, err, 404, "NOT_FOUND")
	_, err = manager.SetPosFavorites(e.ctx, &api.PosFavoritesRequest{Pinned: []api.PosPin{pins[0], pins[0]}},
		api.SetPosFavoritesParams{IdempotencyKey: "f-4"})
	hookErr(t, err, 400, "VALIDATION_ERROR")
	got, err = e.clerk.GetPosFavorites(e.ctx)
	require.NoError(t, err)
	require.Equal(t, pins, got.Data.Pinned)
	_, err = manager.SetPosFavorites(e.ctx, &api.PosFavoritesRequest{Pinned: pins[1:]}, api.SetPosFavoritesParams{IdempotencyKey: "f-5"})
	require.NoError(t, err)
	got, err = e.clerk.GetPosFavorites(e.ctx)
	require.NoError(t, err)
	require.Equal(t, pins[1:], got.Data.Pinned)
	require.Equal(t, 1, e.count(t, "pos_favorites"))

	// Kiosk PINs.
	_, err = e.clerk.SetPosKioskPin(e.ctx, &api.PosKioskPinSetRequest{Pin: "4821"}, api.SetPosKioskPinParams{IdempotencyKey: "k-1"})
	require.NoError(t, err)
	clerkID := e.studio.client.User.Query().Where(user.Email("clerk@pos.example")).OnlyX(e.op).ID
	managerID := e.studio.client.User.Query().Where(user.Email("manager@pos.example")).OnlyX(e.op).ID
	hash := e.studio.client.StaffPin.Query().OnlyX(e.op).PinHash
	require.NotContains(t, hash, "4821")
	check := func(staff uuid.UUID, pin string) (bool, error) {
		res, err := manager.CheckPosKioskPin(e.ctx, &api.PosKioskPinCheckRequest{StaffID: staff, Pin: pin})
		if err != nil {
			return false, err
		}
		return res.Data.Valid, nil
	}
	for _, c := range []struct {
		staff uuid.UUID
		pin   string
		valid bool
	}{
		{clerkID, "4821", true},
		{clerkID, "4822", false},    // wrong PIN
		{managerID, "4821", false},  // staff without a PIN
		{uuid.New(), "4821", false}, // nobody
		{clerkID, "48x1", false},    // not a PIN at all
	} {
		v, err := check(c.staff, c.pin)
		require.NoError(t, err)
		require.Equal(t, c.valid, v, "%v %s", c.staff, c.pin)
	}
	_, err = e.member.CheckPosKioskPin(e.ctx, &api.PosKioskPinCheckRequest{StaffID: clerkID, Pin: "4821"})
	hookErr(t, err, 403, "ACCESS_DENIED")
	// Ten checks a minute per caller: the next ones are refused unanswered.
	limited := false
	for range 10 {
		if _, err := check(clerkID, "0000"); err != nil {
			hookErr(t, err, 429, "RATE_LIMITED")
			limited = true
			break
		}
	}
	require.True(t, limited)
}

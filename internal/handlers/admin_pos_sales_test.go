package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/poscardsale"
	"github.com/venueplatform/venue/ent/stockmovement"
	"github.com/venueplatform/venue/ent/user"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/stripetest"
	"github.com/venueplatform/venue/internal/pos"
)

// deskCard saves a card (pm) on the buyer's customer at the venue's
// account, as the app's payment sheet would have, and returns the buyer's
// member id.
func (e *posEnv) deskCard(t *testing.T, pm string) uuid.UUID {
	t.Helper()
	m := e.memberID(t, "buyer@pay.example")
	if n := e.studio.client.PaymentCustomer.Query().CountX(e.op); n == 0 {
		e.studio.client.PaymentCustomer.Create().SetMemberID(m).SetAccountID(payAccount).SetCustomerID("cus_desk").SaveX(e.op)
	}
	e.fake.AttachCard("cus_desk", pm, "visa", "4242", "")
	return m
}

// sellAny is a desk sale whatever it answers: the completed sale (201) or
// the card sale waiting for its money (202).
func (e *posEnv) sellAny(t *testing.T, key string, req *api.PosSaleRequest) (*api.PosSale, *api.PosCardSale, error) {
	t.Helper()
	res, err := e.clerk.CreatePosSale(e.ctx, req, api.CreatePosSaleParams{IdempotencyKey: key})
	if err != nil {
		return nil, nil, err
	}
	switch r := res.(type) {
	case *api.PosSaleResponse:
		return &r.Data, nil, nil
	case *api.PosCardSaleResponse:
		return nil, &r.Data, nil
	}
	t.Fatalf("unexpected answer %T", res)
	return nil, nil, nil
}

func (e *posEnv) events(t *testing.T, typ string) int {
	return e.studio.client.Event.Query().Where(event.Type(typ)).CountX(e.op)
}

// TestPosSaleBySavedCard: a desk sale charged to the member's saved card,
// off-session, on the venue's connected account, through an attempt row:
// the charged total is the preview's, the payment row, the sale, the stock
// movements, pos.sale.completed and the receipt are written once; a retry
// charges nothing again. Declines, authentication, another member's card,
// another venue's member and a stale total are refused with the contract's
// codes and leave stock and money as they were; an unknown outcome waits
// for reconcile, which completes the sale.
func TestPosSaleBySavedCard(t *testing.T) {
	e := newPosEnv(t)
	m := e.deskCard(t, "pm_desk_visa")
	mat := e.product(t, "Mat", 10, "DKK", 29900)
	cart := []api.PosCartItem{item(mat.ID, 2)}
	pv, err := e.clerk.PreviewPosCatalog(e.ctx, &api.PosCatalogPreviewRequest{Items: cart})
	require.NoError(t, err)
	total := pv.Data.TotalMinor
	req := func() *api.PosSaleRequest {
		return &api.PosSaleRequest{Items: cart, Method: api.PosSaleRequestMethodCard, MemberID: api.NewOptUUID(m),
			PaymentMethodID: api.NewOptString("pm_desk_visa"), ExpectedTotalMinor: api.NewOptInt64(total)}
	}

	s, pending, err := e.sellAny(t, "card-1", req())
	require.NoError(t, err)
	require.Nil(t, pending)
	require.Equal(t, api.PosSaleMethodCard, s.Method)
	require.Equal(t, total, s.TotalMinor)
	require.Equal(t, pv.Data.VatMinor, s.VatMinor)
	pay := e.studio.client.Payment.GetX(e.op, s.PaymentID)
	require.Equal(t, total, pay.AmountMinor)
	require.Equal(t, payment.MethodCard, pay.Method)
	require.Equal(t, payment.StatusSucceeded, pay.Status)
	require.Equal(t, 8, e.stock(t, mat.ID))
	intents := e.fake.Intents()
	require.Len(t, intents, 1)
	pi := e.fake.Intent(intents[0])
	require.Equal(t, true, pi["off_session"], "a desk charge of a saved card is off-session")
	require.EqualValues(t, total, pi["amount"])
	require.Equal(t, "cus_desk", pi["customer"])
	require.Equal(t, *pay.ProcessorPaymentID, intents[0])
	at := e.studio.client.PaymentAttempt.Query().Where(paymentattempt.SubjectID(s.ID)).OnlyX(e.op)
	require.Equal(t, paymentattempt.PurposePosSaleCharge, at.Purpose)
	require.Equal(t, paymentattempt.StateSucceeded, at.State)
	for _, r := range e.fake.Requests() {
		if r.Path == "/v1/payment_intents" {
			require.Equal(t, payAccount, r.StripeAccount)
			require.Equal(t, "v1:pos_sale_charge:"+at.ID.String()+":create", r.IdempotencyKey)
		}
	}
	require.Equal(t, 1, e.events(t, "pos.sale.completed"))
	require.Equal(t, 1, e.studio.client.NotificationDelivery.Query().Where(notificationdelivery.Kind(pos.ReceiptKind)).CountX(e.op))

	// The same request again: the same sale, no second charge.
	again, _, err := e.sellAny(t, "card-1", req())
	require.NoError(t, err)
	require.Equal(t, s.ID, again.ID)
	require.Len(t, e.fake.Intents(), 1)
	require.Equal(t, 8, e.stock(t, mat.ID))

	// Refusals: nothing sold, stock and payments as they were.
	payments := e.count(t, "payments")
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"})
	_, _, err = e.sellAny(t, "card-2", req())
	es := hookErr(t, err, http.StatusPaymentRequired, "CHARGE_DECLINED")
	require.JSONEq(t, `"insufficient_funds"`, string(es.Response.Error.Details.AdditionalProps["decline_code"]))
	e.fake.Script(stripetest.Outcome{Decline: "authentication_required"})
	_, _, err = e.sellAny(t, "card-3", req())
	es = hookErr(t, err, http.StatusPaymentRequired, "CHARGE_REQUIRES_ACTION")
	require.JSONEq(t, `"send_payment_link"`, string(es.Response.Error.Details.AdditionalProps["desk_action"]))
	bad := req()
	bad.PaymentMethodID = api.NewOptString("pm_someone_elses")
	_, _, err = e.sellAny(t, "card-4", bad)
	hookErr(t, err, http.StatusNotFound, "PAYMENT_METHOD_NOT_FOUND")
	bad = req()
	bad.ExpectedTotalMinor = api.NewOptInt64(total - 1)
	_, _, err = e.sellAny(t, "card-5", bad)
	hookErr(t, err, http.StatusConflict, "BALANCE_CHANGED")
	op2, _ := e.otherVenue(t, "elsewhere")
	enroll(t, e.authEnv, op2, "stranger@pos.example", "member")
	stranger := e.studio.client.Member.Query().Where(member.HasUserWith(user.Email("stranger@pos.example"))).OnlyX(op2).ID
	bad = req()
	bad.MemberID = api.NewOptUUID(stranger)
	_, _, err = e.sellAny(t, "card-6", bad)
	hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, payments, e.count(t, "payments"))
	require.Equal(t, 8, e.stock(t, mat.ID))
	require.Equal(t, 2, e.studio.client.PosCardSale.Query().Where(poscardsale.StatusEQ(poscardsale.StatusFailed)).CountX(e.op))
	require.Equal(t, 2, e.studio.client.StockMovement.Query().Where(stockmovement.KindEQ(stockmovement.KindRelease)).CountX(e.op),
		"the declined sales' reserved units went back")

	// The bank asks for authentication: the sale waits with its stock held
	// until the member finished; the desk's confirm completes it.
	e.fake.Script(stripetest.Outcome{Status: "requires_action"})
	_, _, err = e.sellAny(t, "card-7", req())
	es = hookErr(t, err, http.StatusPaymentRequired, "CHARGE_REQUIRES_ACTION")
	require.JSONEq(t, `"member_authenticates"`, string(es.Response.Error.Details.AdditionalProps["desk_action"]))
	var saleID uuid.UUID
	require.NoError(t, saleID.UnmarshalText([]byte(strings.Trim(string(es.Response.Error.Details.AdditionalProps["sale_id"]), `"`))))
	require.Equal(t, 6, e.stock(t, mat.ID))
	e.fake.SetStatus(e.fake.Intents()[len(e.fake.Intents())-1], "succeeded")
	got, err := e.clerk.ConfirmPosCardSale(e.ctx, api.ConfirmPosCardSaleParams{SaleId: saleID})
	require.NoError(t, err)
	require.Equal(t, api.PosCardSaleStatusCompleted, got.Data.Status)
	require.True(t, !got.Data.Sale.Null)
	require.Equal(t, total, got.Data.Sale.Value.TotalMinor)
	require.Equal(t, 6, e.stock(t, mat.ID))
	require.Equal(t, 2, e.events(t, "pos.sale.completed"))

	// The processor's answer is lost: 409 UNKNOWN_WRITE_OUTCOME; reconcile
	// finds the charge and completes the sale, once.
	e.fake.Script(stripetest.Outcome{Hang: time.Second, HangTimes: 2})
	_, _, err = e.sellAny(t, "card-8", req())
	es = hookErr(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	require.NoError(t, saleID.UnmarshalText([]byte(strings.Trim(string(es.Response.Error.Details.AdditionalProps["sale_id"]), `"`))))
	at = e.studio.client.PaymentAttempt.Query().Where(paymentattempt.SubjectID(saleID)).OnlyX(e.op)
	require.Equal(t, paymentattempt.StateUnknown, at.State)
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	cs := e.studio.client.PosCardSale.GetX(e.op, saleID)
	require.Equal(t, poscardsale.StatusCompleted, cs.Status)
	require.Equal(t, 3, e.events(t, "pos.sale.completed"))
	require.Equal(t, 4, e.stock(t, mat.ID))
}

// TestPosSaleByPaymentLink: the desk rings up a sale as a payment link (202
// with the link); the stock is reserved meanwhile; the processor's event
// completes it once (a redelivery changes nothing) with the preview's
// total; a link left unpaid lapses: its stock goes back and the member's
// intent is cancelled by a job.
func TestPosSaleByPaymentLink(t *testing.T) {
	e := newPosEnv(t)
	towel := e.product(t, "Towel", 5, "DKK", 4950)
	cart := []api.PosCartItem{item(towel.ID, 2)}
	link := func() *api.PosSaleRequest {
		u, _ := url.Parse("https://desk.example/pay")
		return &api.PosSaleRequest{Items: cart, Method: api.PosSaleRequestMethodPaymentLink, ReturnBaseURL: api.NewOptURI(*u),
			ExpectedTotalMinor: api.NewOptInt64(9900)}
	}
	_, c, err := e.sellAny(t, "link-1", link())
	require.NoError(t, err)
	require.NotNil(t, c)
	require.Equal(t, api.PosCardSaleStatusPending, c.Status)
	require.True(t, !c.PaymentLink.Null)
	pl := c.PaymentLink.Value
	require.True(t, strings.HasPrefix(pl.URL, "https://desk.example/pay?pos_sale="+c.ID.String()+"#"), pl.URL)
	require.Contains(t, pl.URL, "payment_intent_client_secret="+pl.ClientSecret)
	require.Equal(t, 3, e.stock(t, towel.ID), "reserved while the link is open")
	require.Zero(t, e.events(t, "pos.sale.completed"))
	payments := e.count(t, "payments")

	// Reading it again answers the same link.
	got, err := e.clerk.GetPosCardSale(e.ctx, api.GetPosCardSaleParams{SaleId: c.ID})
	require.NoError(t, err)
	require.Equal(t, pl.PaymentIntentID, got.Data.PaymentLink.Value.PaymentIntentID)

	// The member pays: the event completes the sale; a redelivery (another
	// event about the same intent) changes nothing.
	paid := e.fake.SetStatus(pl.PaymentIntentID, "succeeded")
	for _, id := range []string{"evt_link_1", "evt_link_2"} {
		body, sig := stripetest.Event(id, "payment_intent.succeeded", payAccount, paid, paySecret)
		require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
		e.runEventJobs(t)
	}
	got, err = e.clerk.GetPosCardSale(e.ctx, api.GetPosCardSaleParams{SaleId: c.ID})
	require.NoError(t, err)
	require.Equal(t, api.PosCardSaleStatusCompleted, got.Data.Status)
	require.Equal(t, int64(9900), got.Data.Sale.Value.TotalMinor)
	require.Equal(t, api.PosSaleMethodPaymentLink, got.Data.Sale.Value.Method)
	require.Equal(t, payments+1, e.count(t, "payments"))
	require.Equal(t, 1, e.events(t, "pos.sale.completed"))
	require.Equal(t, 3, e.stock(t, towel.ID))
	again, err := e.clerk.ConfirmPosCardSale(e.ctx, api.ConfirmPosCardSaleParams{SaleId: c.ID})
	require.NoError(t, err)
	require.Equal(t, got.Data.Sale.Value.ID, again.Data.Sale.Value.ID)
	require.Equal(t, 1, e.events(t, "pos.sale.completed"))

	// A link nobody pays lapses: the stock goes back, the intent is
	// cancelled by a job queued with the lapse.
	_, c2, err := e.sellAny(t, "link-2", link())
	require.NoError(t, err)
	require.Equal(t, 1, e.stock(t, towel.ID))
	later := pos.New(e.studio.client, func() time.Time { return time.Now().Add(pos.CardHold + time.Minute) })
	n, err := later.ExpireCardSales(context.Background())
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, err = later.ExpireCardSales(context.Background())
	require.NoError(t, err)
	require.Zero(t, n, "a lapsed sale lapses once")
	require.Equal(t, 3, e.stock(t, towel.ID))
	require.Equal(t, poscardsale.StatusLapsed, e.studio.client.PosCardSale.GetX(e.op, c2.ID).Status)
	var jobs int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM river_job WHERE kind = 'payments.cancel_intent'`).Scan(&jobs))
	require.Equal(t, 1, jobs)
	require.Equal(t, payments+1, e.count(t, "payments"))

	// A payment link needs where to send the member; another venue's sale
	// is unknown.
	bad := link()
	bad.ReturnBaseURL = api.OptURI{}
	_, _, err = e.sellAny(t, "link-3", bad)
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = e.clerk.GetPosCardSale(e.ctx, api.GetPosCardSaleParams{SaleId: uuid.New()})
	hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
}

// TestPosMembershipAtDesk: POST /admin/memberships sells a pass type to a
// member: in cash the pass is active at once through the payments
// activation, with no renewals (no card); by saved card the recurring
// membership also starts its renewals (billing's start job, queued in the
// activation); by payment link it waits (202). Another venue's member, an
// unknown pass type and a stale total are refused and write nothing.
func TestPosMembershipAtDesk(t *testing.T) {
	e := newPosEnv(t)
	m := e.deskCard(t, "pm_desk_visa")
	monthly := e.studio.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(e.op)
	sell := func(key string, req *api.PosMembershipSaleRequest) (api.SellMembershipRes, error) {
		return e.clerk.SellMembership(e.ctx, req, api.SellMembershipParams{IdempotencyKey: key})
	}
	startJobs := func() int {
		var n int
		require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM river_job WHERE kind = 'billing.start'`).Scan(&n))
		return n
	}
	pv, err := e.clerk.PreviewPosPass(e.ctx, &api.PosPassPreviewRequest{PassTypeID: monthly.ID, MemberID: api.NewOptUUID(m)})
	require.NoError(t, err)
	require.Equal(t, monthly.PriceMinor, pv.Data.TotalMinor)

	res, err := sell("m-cash", &api.PosMembershipSaleRequest{MemberID: m, PassTypeID: monthly.ID,
		Method: api.PosMembershipSaleRequestMethodCash, ExpectedTotalMinor: api.NewOptInt64(pv.Data.TotalMinor)})
	require.NoError(t, err)
	cash := res.(*api.PosSaleResponse).Data
	require.True(t, !cash.PassID.Null)
	ps := e.studio.client.Pass.GetX(e.op, cash.PassID.Value)
	require.Equal(t, pass.StatusActive, ps.Status)
	require.Equal(t, m, ps.MemberID)
	require.NotNil(t, ps.ValidTo, "a membership's first period")
	pay := e.studio.client.Payment.GetX(e.op, cash.PaymentID)
	require.Equal(t, payment.MethodCash, pay.Method)
	require.Equal(t, pv.Data.TotalMinor, pay.AmountMinor)
	require.Equal(t, 1, e.events(t, "pass.activated"))
	require.Zero(t, startJobs(), "a membership paid in cash starts no card renewals")
	again, err := sell("m-cash", &api.PosMembershipSaleRequest{MemberID: m, PassTypeID: monthly.ID,
		Method: api.PosMembershipSaleRequestMethodCash, ExpectedTotalMinor: api.NewOptInt64(pv.Data.TotalMinor)})
	require.NoError(t, err)
	require.Equal(t, cash.ID, again.(*api.PosSaleResponse).Data.ID)
	require.Equal(t, 1, e.studio.client.Pass.Query().Where(pass.MemberID(m), pass.PassTypeID(monthly.ID)).CountX(e.op))

	res, err = sell("m-card", &api.PosMembershipSaleRequest{MemberID: m, PassTypeID: monthly.ID,
		Method: api.PosMembershipSaleRequestMethodCard, PaymentMethodID: api.NewOptString("pm_desk_visa"),
		ExpectedTotalMinor: api.NewOptInt64(pv.Data.TotalMinor)})
	require.NoError(t, err)
	card := res.(*api.PosSaleResponse).Data
	require.Equal(t, api.PosSaleMethodCard, card.Method)
	pay = e.studio.client.Payment.GetX(e.op, card.PaymentID)
	require.Equal(t, payment.MethodCard, pay.Method)
	require.Equal(t, pv.Data.TotalMinor, pay.AmountMinor)
	require.Equal(t, card.PassID.Value, *pay.PassID)
	require.Equal(t, 1, startJobs(), "a recurring membership paid by card starts its renewals")
	require.Equal(t, 2, e.events(t, "pass.activated"))
	require.Equal(t, 2, e.events(t, "pos.sale.completed"))

	u, _ := url.Parse("https://desk.example/pay")
	res, err = sell("m-link", &api.PosMembershipSaleRequest{MemberID: m, PassTypeID: monthly.ID,
		Method: api.PosMembershipSaleRequestMethodPaymentLink, ReturnBaseURL: api.NewOptURI(*u)})
	require.NoError(t, err)
	waiting := res.(*api.PosCardSaleResponse).Data
	require.Equal(t, api.PosCardSaleStatusPending, waiting.Status)
	require.Equal(t, api.PosCardSaleKindPass, waiting.Kind)

	passes := e.count(t, "passes")
	op2, _ := e.otherVenue(t, "elsewhere")
	enroll(t, e.authEnv, op2, "stranger@pos.example", "member")
	stranger := e.studio.client.Member.Query().Where(member.HasUserWith(user.Email("stranger@pos.example"))).OnlyX(op2).ID
	for _, c := range []struct {
		req    *api.PosMembershipSaleRequest
		status int
		code   string
	}{
		{&api.PosMembershipSaleRequest{MemberID: stranger, PassTypeID: monthly.ID, Method: api.PosMembershipSaleRequestMethodCash}, 404, "NOT_FOUND"},
		{&api.PosMembershipSaleRequest{MemberID: m, PassTypeID: uuid.New(), Method: api.PosMembershipSaleRequestMethodCash}, 404, "NOT_FOUND"},
		{&api.PosMembershipSaleRequest{MemberID: m, PassTypeID: monthly.ID, Method: api.PosMembershipSaleRequestMethodCash,
			ExpectedTotalMinor: api.NewOptInt64(1)}, 409, "BALANCE_CHANGED"},
		{&api.PosMembershipSaleRequest{MemberID: stranger, PassTypeID: monthly.ID, Method: api.PosMembershipSaleRequestMethodCard,
			PaymentMethodID: api.NewOptString("pm_desk_visa")}, 404, "NOT_FOUND"},
	} {
		_, err := sell("bad-"+c.code+uuid.NewString()[:4], c.req)
		hookErr(t, err, c.status, c.code)
	}
	require.Equal(t, passes, e.count(t, "passes"))

	// Without pos.sell: 403, nothing sold.
	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	viewerOnly := h.staffWith(t, "looker@pos.example", pos.PermAccess)
	_, err = viewerOnly.SellMembership(e.ctx, &api.PosMembershipSaleRequest{MemberID: m, PassTypeID: monthly.ID,
		Method: api.PosMembershipSaleRequestMethodCash}, api.SellMembershipParams{IdempotencyKey: "m-denied"})
	hookErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, passes, e.count(t, "passes"))
}

var _ = ent.IsNotFound

// TestPosPromoWindowException: an offer that has ended is refused at the
// desk (422 FLASH_SALE_UNAVAILABLE, reason ended) unless the sale carries a
// promo-window exception flash_sale_after_end with a reason (5 to 500
// characters); then the preview and the membership sale charge the offer's
// price (discountAmount the difference), the pass runs through the intro,
// and the audit log holds the reason. A running offer needs no exception.
func TestPosPromoWindowException(t *testing.T) {
	e := newPosEnv(t)
	m := e.memberID(t, "buyer@pay.example")
	monthly := e.studio.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(e.op)
	fs := e.offer(t, "Autumn intro", 199, 20, 0, monthly.ID)
	x := api.NewOptPosPromoWindowException(api.PosPromoWindowException{Kind: api.PosPromoWindowExceptionKindFlashSaleAfterEnd,
		Reason: "  Member was in the queue when the sale closed  "})

	// While the offer runs the desk sells it as is; an exception is refused.
	pv, err := e.clerk.PreviewPosPass(e.ctx, &api.PosPassPreviewRequest{PassTypeID: monthly.ID, FlashSaleID: api.NewOptUUID(fs.ID)})
	require.NoError(t, err)
	require.Equal(t, int64(19900), pv.Data.TotalMinor)
	require.Equal(t, monthly.PriceMinor-19900, pv.Data.DiscountMinor)
	require.InDelta(t, float64(monthly.PriceMinor-19900)/100, pv.Data.DiscountAmount, 1e-9)
	_, err = e.clerk.PreviewPosPass(e.ctx, &api.PosPassPreviewRequest{PassTypeID: monthly.ID, FlashSaleID: api.NewOptUUID(fs.ID),
		PromoWindowException: x})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")

	// The offer ends.
	fs.Update().SetEndsAt(time.Now().Add(-time.Minute)).ExecX(e.op)
	_, err = e.clerk.PreviewPosPass(e.ctx, &api.PosPassPreviewRequest{PassTypeID: monthly.ID, FlashSaleID: api.NewOptUUID(fs.ID)})
	es := hookErr(t, err, http.StatusUnprocessableEntity, "FLASH_SALE_UNAVAILABLE")
	require.Equal(t, "ended", es.Response.Error.Details.Reason.Value)
	sales := e.count(t, "pos_sales")
	_, err = e.clerk.SellMembership(e.ctx, &api.PosMembershipSaleRequest{MemberID: m, PassTypeID: monthly.ID,
		Method: api.PosMembershipSaleRequestMethodCash, FlashSaleID: api.NewOptUUID(fs.ID)},
		api.SellMembershipParams{IdempotencyKey: "x-none"})
	hookErr(t, err, http.StatusUnprocessableEntity, "FLASH_SALE_UNAVAILABLE")
	short := api.NewOptPosPromoWindowException(api.PosPromoWindowException{Kind: api.PosPromoWindowExceptionKindFlashSaleAfterEnd, Reason: "  ok  "})
	_, err = e.clerk.SellMembership(e.ctx, &api.PosMembershipSaleRequest{MemberID: m, PassTypeID: monthly.ID,
		Method: api.PosMembershipSaleRequestMethodCash, FlashSaleID: api.NewOptUUID(fs.ID), PromoWindowException: short},
		api.SellMembershipParams{IdempotencyKey: "x-short"})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, sales, e.count(t, "pos_sales"))

	// With the exception: the offer's price, previewed and charged alike.
	pv, err = e.clerk.PreviewPosPass(e.ctx, &api.PosPassPreviewRequest{PassTypeID: monthly.ID, FlashSaleID: api.NewOptUUID(fs.ID),
		PromoWindowException: x})
	require.NoError(t, err)
	require.Equal(t, int64(19900), pv.Data.TotalMinor)
	res, err := e.clerk.SellMembership(e.ctx, &api.PosMembershipSaleRequest{MemberID: m, PassTypeID: monthly.ID,
		Method: api.PosMembershipSaleRequestMethodCash, FlashSaleID: api.NewOptUUID(fs.ID), PromoWindowException: x,
		ExpectedTotalMinor: api.NewOptInt64(pv.Data.TotalMinor)}, api.SellMembershipParams{IdempotencyKey: "x-ok"})
	require.NoError(t, err)
	s := res.(*api.PosSaleResponse).Data
	require.Equal(t, int64(19900), s.TotalMinor)
	require.Equal(t, monthly.PriceMinor-19900, s.DiscountMinor)
	require.Equal(t, int64(19900), e.studio.client.Payment.GetX(e.op, s.PaymentID).AmountMinor)
	ps := e.studio.client.Pass.GetX(e.op, s.PassID.Value)
	require.Equal(t, e.localToday().AddDate(0, 0, 20), ps.ValidTo.UTC(), "the intro price pays through its last day")
	row := e.studio.client.PosSale.GetX(e.op, s.ID)
	require.Equal(t, "flash_sale_after_end", *row.PromoExceptionKind)
	require.Equal(t, "Member was in the queue when the sale closed", *row.PromoExceptionReason)
	entry := e.studio.client.AuditLog.Query().Where(auditlog.Action("pos.promo_window_exception")).OnlyX(e.op)
	require.Equal(t, "Member was in the queue when the sale closed", entry.Details["reason"])
	require.Equal(t, "pos_sale:"+s.ID.String(), entry.Target)
}

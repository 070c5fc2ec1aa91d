package handlers_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/promoredemption"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/pos"
	"github.com/venueplatform/venue/internal/promos"
)

// promoEnv is a desk (posEnv) with a marketer who manages codes.
type promoEnv struct {
	*posEnv
	marketer *api.Client
}

func newPromoEnv(t *testing.T) *promoEnv {
	t.Helper()
	e := &promoEnv{posEnv: newPosEnv(t)}
	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	e.marketer = h.staffWith(t, "marketer@pos.example", promos.PermCampaigns, pos.PermAccess, pos.PermSell)
	return e
}

func (e *promoEnv) code(t *testing.T, req *api.PromoCodeCreateRequest) api.PromoCode {
	t.Helper()
	res, err := e.marketer.CreatePromoCode(e.ctx, req, api.CreatePromoCodeParams{IdempotencyKey: "pc-" + req.Code})
	require.NoError(t, err)
	return res.Data
}

func percent(code string, pct int) *api.PromoCodeCreateRequest {
	return &api.PromoCodeCreateRequest{Code: code, DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(pct)}
}

func (e *promoEnv) uses(t *testing.T, id uuid.UUID) (claimed, redeemed int) {
	t.Helper()
	c := e.studio.client.PromoCode.GetX(e.op, id)
	return c.ClaimedCount, c.RedeemedCount
}

// TestPromoCodesManaged: staff with marketing.campaigns create, list, read
// and change codes; a code is unique per venue whatever its case (409
// PROMO_CODE_EXISTS); without the permission it is 403 and nothing changes;
// inconsistent bodies are 400 and write nothing.
func TestPromoCodesManaged(t *testing.T) {
	e := newPromoEnv(t)
	c := e.code(t, &api.PromoCodeCreateRequest{Code: "spring-25", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(25), MaxUses: api.NewOptInt(100), MaxUsesPerMember: api.NewOptInt(1),
		PassTypeIds: []uuid.UUID{e.ten.ID}})
	require.Equal(t, "SPRING-25", c.Code)
	require.Equal(t, []uuid.UUID{e.ten.ID}, c.PassTypeIds)
	require.Empty(t, c.ProductIds)
	require.True(t, c.Active)

	_, err := e.marketer.CreatePromoCode(e.ctx, percent("Spring-25", 10), api.CreatePromoCodeParams{IdempotencyKey: "dup"})
	hookErr(t, err, http.StatusConflict, "PROMO_CODE_EXISTS")
	for i, bad := range []*api.PromoCodeCreateRequest{
		{Code: "NOPCT", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent},
		{Code: "NOCUR", DiscountKind: api.PromoCodeCreateRequestDiscountKindFixed, AmountOffMinor: api.NewOptInt64(500)},
		{Code: "LIMITS", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent, PercentOff: api.NewOptInt(5),
			MaxUses: api.NewOptInt(1), MaxUsesPerMember: api.NewOptInt(2)},
		{Code: "WINDOW", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent, PercentOff: api.NewOptInt(5),
			StartsAt: api.NewOptDateTime(time.Now()), EndsAt: api.NewOptDateTime(time.Now().Add(-time.Hour))},
	} {
		_, err := e.marketer.CreatePromoCode(e.ctx, bad, api.CreatePromoCodeParams{IdempotencyKey: fmt.Sprintf("bad-%d", i)})
		hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	}
	_, err = e.marketer.CreatePromoCode(e.ctx, &api.PromoCodeCreateRequest{Code: "GHOST", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(5), ProductIds: []uuid.UUID{uuid.New()}}, api.CreatePromoCodeParams{IdempotencyKey: "ghost"})
	hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = e.clerk.CreatePromoCode(e.ctx, percent("CLERK", 10), api.CreatePromoCodeParams{IdempotencyKey: "clerk"})
	hookErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, 1, e.count(t, "promo_codes"))

	list, err := e.marketer.ListPromoCodes(e.ctx)
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	got, err := e.marketer.GetPromoCode(e.ctx, api.GetPromoCodeParams{PromoCodeId: c.ID})
	require.NoError(t, err)
	require.Equal(t, c.ID, got.Data.ID)
	_, err = e.marketer.GetPromoCode(e.ctx, api.GetPromoCodeParams{PromoCodeId: uuid.New()})
	hookErr(t, err, http.StatusNotFound, "NOT_FOUND")

	up, err := e.marketer.UpdatePromoCode(e.ctx, &api.PromoCodeUpdateRequest{Active: api.NewOptBool(false), MaxUses: api.NewOptInt(5)},
		api.UpdatePromoCodeParams{PromoCodeId: c.ID, IdempotencyKey: "off"})
	require.NoError(t, err)
	require.False(t, up.Data.Active)
	require.Equal(t, 5, up.Data.MaxUses.Value)
	require.Equal(t, 2, e.studio.client.AuditLog.Query().Where(auditlog.TargetEQ("promo_code:"+c.ID.String())).CountX(e.op))
}

// TestPromoCodeAtCheckoutAndDesk: one code priced alike by the member's
// checkout preview and purchase, and by the desk's previews and sales; the
// charged total equals the preview; a use is counted once, at payment.
func TestPromoCodeAtCheckoutAndDesk(t *testing.T) {
	e := newPromoEnv(t)
	pc := e.code(t, &api.PromoCodeCreateRequest{Code: "WELCOME20", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(20), MaxUsesPerMember: api.NewOptInt(1)})
	want := e.ten.PriceMinor - (e.ten.PriceMinor*20+50)/100

	// The member's checkout: the code in any case, not with an offer.
	pv, err := e.member.PostCheckoutPreview(e.ctx, &api.CheckoutPreviewRequest{PassTypeSlug: "ten", PromoCode: api.NewOptString("welcome20")},
		api.PostCheckoutPreviewParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.Equal(t, want, pv.Data.ChargedTodayMinor)
	promo, ok := pv.Data.Promo.Get()
	require.True(t, ok)
	require.Equal(t, pc.ID, promo.PromoCodeID)
	require.Equal(t, e.ten.PriceMinor-want, promo.DiscountMinor)
	q := pv.Data.DirectPurchaseQuote.Value
	require.Equal(t, pc.ID, q.PromoCodeID.Value)
	_, err = e.member.PostCheckoutPreview(e.ctx, &api.CheckoutPreviewRequest{PassTypeSlug: "ten", PromoCode: api.NewOptString("welcome20"),
		FlashSaleID: api.NewOptUUID(uuid.New())}, api.PostCheckoutPreviewParams{XOrganizationID: e.venue.ID})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = e.member.PostCheckoutPreview(e.ctx, &api.CheckoutPreviewRequest{PassTypeSlug: "ten", PromoCode: api.NewOptString("nope")},
		api.PostCheckoutPreviewParams{XOrganizationID: e.venue.ID})
	es := hookErr(t, err, http.StatusUnprocessableEntity, "PROMO_CODE_UNAVAILABLE")
	require.Equal(t, "not_found", es.Response.Error.Details.Reason.Value)

	// A quote whose code was taken off is not the quote's price any more.
	tampered := q
	tampered.PromoCodeID.SetToNull()
	_, err = e.buy(e.member, tampered, "pm_card_visa", "tampered")
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Zero(t, e.count(t, "checkouts"))

	res, err := e.buy(e.member, q, "pm_card_visa", "buy-promo")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, res.Data.PaymentStatus)
	co := e.studio.client.Checkout.GetX(e.op, res.Data.CheckoutID)
	require.Equal(t, checkout.StatusPaid, co.Status)
	require.Equal(t, want, co.AmountMinor, "the charge is the preview's")
	claimed, redeemed := e.uses(t, pc.ID)
	require.Equal(t, 1, claimed)
	require.Equal(t, 1, redeemed)
	again, err := e.buy(e.member, q, "pm_card_visa", "buy-promo")
	require.NoError(t, err)
	require.Equal(t, res.Data.CheckoutID, again.Data.CheckoutID)
	claimed, redeemed = e.uses(t, pc.ID)
	require.Equal(t, 1, redeemed, "counted once")
	require.Equal(t, 1, claimed)
	// Once per member: the next preview is refused.
	_, err = e.member.PostCheckoutPreview(e.ctx, &api.CheckoutPreviewRequest{PassTypeSlug: "ten", PromoCode: api.NewOptString("WELCOME20")},
		api.PostCheckoutPreviewParams{XOrganizationID: e.venue.ID})
	es = hookErr(t, err, http.StatusUnprocessableEntity, "PROMO_CODE_UNAVAILABLE")
	require.Equal(t, "member_limit", es.Response.Error.Details.Reason.Value)

	// The desk: a fixed amount off one product, previewed and sold alike.
	mat := e.product(t, "Mat", 5, "DKK", 30000)
	water := e.product(t, "Water", 5, "DKK", 2500)
	e.code(t, &api.PromoCodeCreateRequest{Code: "MAT50", DiscountKind: api.PromoCodeCreateRequestDiscountKindFixed,
		AmountOffMinor: api.NewOptInt64(5000), Currency: api.NewOptString("DKK"), ProductIds: []uuid.UUID{mat.ID}})
	cart := []api.PosCartItem{item(mat.ID, 1), item(water.ID, 2)}
	cp, err := e.clerk.PreviewPosCatalog(e.ctx, &api.PosCatalogPreviewRequest{Items: cart, PromoCode: api.NewOptString("mat50")})
	require.NoError(t, err)
	require.Equal(t, int64(35000), cp.Data.SubtotalMinor)
	require.Equal(t, int64(5000), cp.Data.DiscountMinor)
	require.InDelta(t, 50.0, cp.Data.DiscountAmount, 1e-9)
	require.Equal(t, int64(30000), cp.Data.TotalMinor)
	require.Equal(t, "MAT50", cp.Data.PromoCode.Value.Code)
	s, err := e.sell(e.clerk, "desk-promo", &api.PosSaleRequest{Items: cart, Method: api.PosSaleRequestMethodCash,
		PromoCode: api.NewOptString("MAT50"), ExpectedTotalMinor: api.NewOptInt64(cp.Data.TotalMinor)})
	require.NoError(t, err)
	require.Equal(t, cp.Data.TotalMinor, s.Data.TotalMinor)
	require.Equal(t, cp.Data.VatMinor, s.Data.VatMinor)
	require.Equal(t, int64(5000), s.Data.DiscountMinor)
	require.Equal(t, cp.Data.TotalMinor, e.studio.client.Payment.GetX(e.op, s.Data.PaymentID).AmountMinor)
	r := e.studio.client.PromoRedemption.Query().Where(promoredemption.SubjectID(s.Data.ID)).OnlyX(e.op)
	require.Equal(t, promoredemption.StatusRedeemed, r.Status)
	require.Equal(t, int64(5000), r.DiscountMinor)

	// A code for products does not apply to a pass, and the reverse.
	_, err = e.clerk.PreviewPosPass(e.ctx, &api.PosPassPreviewRequest{PassTypeID: e.ten.ID, PromoCode: api.NewOptString("MAT50")})
	es = hookErr(t, err, http.StatusUnprocessableEntity, "PROMO_CODE_UNAVAILABLE")
	require.Equal(t, "not_applicable", es.Response.Error.Details.Reason.Value)

	// A membership at the desk with a percent code: preview and sale alike,
	// the use counted by the activation.
	monthly := e.studio.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(e.op)
	half := e.code(t, percent("HALF", 50))
	m := e.memberID(t, "buyer@pay.example")
	pp, err := e.clerk.PreviewPosPass(e.ctx, &api.PosPassPreviewRequest{PassTypeID: monthly.ID, MemberID: api.NewOptUUID(m),
		PromoCode: api.NewOptString("half")})
	require.NoError(t, err)
	require.Equal(t, monthly.PriceMinor-(monthly.PriceMinor*50+50)/100, pp.Data.TotalMinor)
	ms, err := e.clerk.SellMembership(e.ctx, &api.PosMembershipSaleRequest{MemberID: m, PassTypeID: monthly.ID,
		Method: api.PosMembershipSaleRequestMethodCash, PromoCode: api.NewOptString("HALF"),
		ExpectedTotalMinor: api.NewOptInt64(pp.Data.TotalMinor)}, api.SellMembershipParams{IdempotencyKey: "m-half"})
	require.NoError(t, err)
	sale := ms.(*api.PosSaleResponse).Data
	require.Equal(t, pp.Data.TotalMinor, e.studio.client.Payment.GetX(e.op, sale.PaymentID).AmountMinor)
	claimed, redeemed = e.uses(t, half.ID)
	require.Equal(t, 1, claimed)
	require.Equal(t, 1, redeemed)
	// An offer and a code do not combine.
	_, err = e.clerk.PreviewPosPass(e.ctx, &api.PosPassPreviewRequest{PassTypeID: monthly.ID, PromoCode: api.NewOptString("HALF"),
		FlashSaleID: api.NewOptUUID(uuid.New())})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
}

// TestPromoCodeLastUseUnderConcurrentSales: 12 desk sales race for a code's
// last 3 uses: 3 sell at the discount, 9 are refused (422
// PROMO_CODE_UNAVAILABLE, exhausted) and change nothing; the code counts 3
// uses, never more.
func TestPromoCodeLastUseUnderConcurrentSales(t *testing.T) {
	e := newPromoEnv(t)
	p := e.product(t, "Towel", 50, "DKK", 10000)
	pc := e.code(t, &api.PromoCodeCreateRequest{Code: "LAST3", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(10), MaxUses: api.NewOptInt(3)})
	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	clerks := []*api.Client{e.clerk}
	for i := 1; i < 4; i++ {
		clerks = append(clerks, h.staffWith(t, fmt.Sprintf("promo%d@pos.example", i), pos.PermSell))
	}
	var (
		wg            sync.WaitGroup
		mu            sync.Mutex
		sold, refused int
		others        []error
		start         = make(chan struct{})
	)
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := e.sell(clerks[i%4], fmt.Sprintf("last-%02d", i), &api.PosSaleRequest{Items: []api.PosCartItem{item(p.ID, 1)},
				Method: api.PosSaleRequestMethodCash, PromoCode: api.NewOptString("last3")})
			mu.Lock()
			defer mu.Unlock()
			var es *api.ErrorStatusCode
			switch {
			case err == nil:
				sold++
			case asStatus(err, &es) && es.StatusCode == http.StatusUnprocessableEntity &&
				es.Response.Error.Code == "PROMO_CODE_UNAVAILABLE" && es.Response.Error.Details.Reason.Value == "exhausted":
				refused++
			default:
				others = append(others, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	require.Empty(t, others)
	require.Equal(t, 3, sold)
	require.Equal(t, 9, refused)
	claimed, redeemed := e.uses(t, pc.ID)
	require.Equal(t, 3, claimed)
	require.Equal(t, 3, redeemed)
	require.Equal(t, 3, e.count(t, "promo_redemptions"))
	require.Equal(t, 3, e.count(t, "pos_sales"))
	require.Equal(t, 47, e.stock(t, p.ID), "refused sales took no stock")
}

// TestPosLateCodeRedemption: an expired code is refused at the desk unless
// the sale carries the exception late_code_redemption with a reason; then
// the preview and the sale apply its discount, the sale and the audit log
// hold the reason. A running code needs no exception.
func TestPosLateCodeRedemption(t *testing.T) {
	e := newPromoEnv(t)
	p := e.product(t, "Block", 10, "DKK", 8000)
	pc := e.code(t, percent("SUMMER", 25))
	x := api.NewOptPosPromoWindowException(api.PosPromoWindowException{Kind: api.PosPromoWindowExceptionKindLateCodeRedemption,
		Reason: " Voucher printed with the wrong date "})
	cart := []api.PosCartItem{item(p.ID, 1)}
	_, err := e.clerk.PreviewPosCatalog(e.ctx, &api.PosCatalogPreviewRequest{Items: cart, PromoCode: api.NewOptString("summer")})
	require.NoError(t, err)
	_, err = e.sell(e.clerk, "late-running", &api.PosSaleRequest{Items: cart, Method: api.PosSaleRequestMethodCash,
		PromoCode: api.NewOptString("summer"), PromoWindowException: x})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")

	e.studio.client.PromoCode.UpdateOneID(pc.ID).SetEndsAt(time.Now().Add(-time.Hour)).ExecX(e.op)
	_, err = e.sell(e.clerk, "late-none", &api.PosSaleRequest{Items: cart, Method: api.PosSaleRequestMethodCash,
		PromoCode: api.NewOptString("summer")})
	es := hookErr(t, err, http.StatusUnprocessableEntity, "PROMO_CODE_UNAVAILABLE")
	require.Equal(t, "expired", es.Response.Error.Details.Reason.Value)
	_, err = e.sell(e.clerk, "late-nocode", &api.PosSaleRequest{Items: cart, Method: api.PosSaleRequestMethodCash, PromoWindowException: x})
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Zero(t, e.count(t, "pos_sales"))

	s, err := e.sell(e.clerk, "late-ok", &api.PosSaleRequest{Items: cart, Method: api.PosSaleRequestMethodCash,
		PromoCode: api.NewOptString("summer"), PromoWindowException: x, ExpectedTotalMinor: api.NewOptInt64(6000)})
	require.NoError(t, err)
	require.Equal(t, int64(6000), s.Data.TotalMinor)
	row := e.studio.client.PosSale.GetX(e.op, s.Data.ID)
	require.Equal(t, "late_code_redemption", *row.PromoExceptionKind)
	entry := e.studio.client.AuditLog.Query().Where(auditlog.Action("pos.promo_window_exception")).OnlyX(e.op)
	require.Equal(t, "Voucher printed with the wrong date", entry.Details["reason"])
	r := e.studio.client.PromoRedemption.Query().Where(promoredemption.SubjectID(s.Data.ID)).OnlyX(e.op)
	require.Equal(t, "Voucher printed with the wrong date", *r.LateReason)
}

// TestPosPartnerCodeRedemption: an expired partner code that grants a pass
// grants it once per member (audited, the use counted); a partner discount
// code answers the pass types a late sale may sell; products-only and
// non-campaign codes, running codes, missing permissions are refused with
// the contract's codes and change nothing.
func TestPosPartnerCodeRedemption(t *testing.T) {
	e := newPromoEnv(t)
	m := e.memberID(t, "buyer@pay.example")
	past := api.NewOptDateTime(time.Now().Add(-48 * time.Hour))
	ended := func(id uuid.UUID) {
		e.studio.client.PromoCode.UpdateOneID(id).SetEndsAt(time.Now().Add(-time.Hour)).ExecX(e.op)
	}
	grant := e.code(t, &api.PromoCodeCreateRequest{Code: "GYMPARTNER", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(100), StartsAt: past, Campaign: api.NewOptString("corporate-2026"),
		PartnerLabel: api.NewOptString("Acme Corp"), GrantsPassTypeID: api.NewOptUUID(e.ten.ID)})
	disc := e.code(t, &api.PromoCodeCreateRequest{Code: "PARTNER15", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(15), StartsAt: past, Campaign: api.NewOptString("radio"), PassTypeIds: []uuid.UUID{e.ten.ID}})
	mat := e.product(t, "Mat", 5, "DKK", 30000)
	prod := e.code(t, &api.PromoCodeCreateRequest{Code: "MATPARTNER", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(15), StartsAt: past, Campaign: api.NewOptString("radio"), ProductIds: []uuid.UUID{mat.ID}})
	plain := e.code(t, &api.PromoCodeCreateRequest{Code: "PLAIN", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(15), StartsAt: past})
	redeem := func(c *api.Client, code, reason string) (*api.PosPartnerCodeRedemptionResponse, error) {
		return c.RedeemPosPartnerCode(e.ctx, &api.PosPartnerCodeRedeemRequest{MemberID: m, Code: code, Reason: reason},
			api.RedeemPosPartnerCodeParams{IdempotencyKey: uuid.NewString()})
	}
	// Still running: use it as it is.
	_, err := redeem(e.marketer, "gympartner", "came in late")
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	for _, id := range []uuid.UUID{grant.ID, disc.ID, prod.ID, plain.ID} {
		ended(id)
	}
	passes := e.count(t, "passes")
	_, err = redeem(e.clerk, "gympartner", "came in late")
	hookErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	_, err = redeem(e.marketer, "plain", "came in late")
	hookErr(t, err, http.StatusUnprocessableEntity, "LATE_CODE_NOT_CAMPAIGN")
	_, err = redeem(e.marketer, "matpartner", "came in late")
	hookErr(t, err, http.StatusUnprocessableEntity, "LATE_DISCOUNT_CODE_UNSUPPORTED")
	_, err = redeem(e.marketer, "unknown", "came in late")
	hookErr(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, passes, e.count(t, "passes"))

	g, err := redeem(e.marketer, "gympartner", "  Card from the company fair  ")
	require.NoError(t, err)
	require.Equal(t, api.PosPartnerCodeRedemptionOutcomeGranted, g.Data.Outcome)
	require.Equal(t, "Acme Corp", g.Data.CodeLabel)
	ps := e.studio.client.Pass.GetX(e.op, g.Data.PassID.Value)
	require.Equal(t, m, ps.MemberID)
	require.Equal(t, e.ten.ID, ps.PassTypeID)
	require.Equal(t, pass.StatusActive, ps.Status)
	_, redeemed := e.uses(t, grant.ID)
	require.Equal(t, 1, redeemed)
	entry := e.studio.client.AuditLog.Query().Where(auditlog.Action("pos.partner_code_redeemed")).OnlyX(e.op)
	require.Equal(t, "Card from the company fair", entry.Details["reason"])
	_, err = redeem(e.marketer, "GYMPARTNER", "second try")
	hookErr(t, err, http.StatusConflict, "ALREADY_CLAIMED")
	require.Equal(t, passes+1, e.count(t, "passes"))

	d, err := redeem(e.marketer, "partner15", "heard it on the radio")
	require.NoError(t, err)
	require.Equal(t, api.PosPartnerCodeRedemptionOutcomeSaleRequired, d.Data.Outcome)
	require.Equal(t, []uuid.UUID{e.ten.ID}, d.Data.PassTypeIds)
	require.True(t, d.Data.PassID.Null)
	require.Equal(t, passes+1, e.count(t, "passes"))
}

// TestPosOfferPlacesUnderConcurrentSales: desk sales of an offer claim its
// places like checkout: 8 concurrent membership sales of an offer with 3
// places sell 3 and refuse 5 (422 FLASH_SALE_UNAVAILABLE, sold_out).
func TestPosOfferPlacesUnderConcurrentSales(t *testing.T) {
	e := newPromoEnv(t)
	monthly := e.studio.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(e.op)
	fs := e.offer(t, "Three places", 199, 20, 3, monthly.ID)
	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	clerks := []*api.Client{e.clerk}
	for i := 1; i < 4; i++ {
		clerks = append(clerks, h.staffWith(t, fmt.Sprintf("offer%d@pos.example", i), pos.PermSell))
	}
	members := make([]uuid.UUID, 8)
	for i := range members {
		email := fmt.Sprintf("m%d@offer.example", i)
		enroll(t, e.authEnv, e.op, email, "member")
		members[i] = e.memberID(t, email)
	}
	var (
		wg            sync.WaitGroup
		mu            sync.Mutex
		sold, refused int
		others        []error
		start         = make(chan struct{})
	)
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			_, err := clerks[i%4].SellMembership(e.ctx, &api.PosMembershipSaleRequest{MemberID: members[i], PassTypeID: monthly.ID,
				Method: api.PosMembershipSaleRequestMethodCash, FlashSaleID: api.NewOptUUID(fs.ID)},
				api.SellMembershipParams{IdempotencyKey: fmt.Sprintf("offer-%d", i)})
			mu.Lock()
			defer mu.Unlock()
			var es *api.ErrorStatusCode
			switch {
			case err == nil:
				sold++
			case asStatus(err, &es) && es.StatusCode == http.StatusUnprocessableEntity &&
				es.Response.Error.Code == "FLASH_SALE_UNAVAILABLE" && es.Response.Error.Details.Reason.Value == "sold_out":
				refused++
			default:
				others = append(others, err)
			}
		}()
	}
	close(start)
	wg.Wait()
	require.Empty(t, others)
	require.Equal(t, 3, sold)
	require.Equal(t, 5, refused)
	require.Equal(t, 3, e.studio.client.FlashSale.GetX(e.op, fs.ID).ClaimedCount)
	require.Equal(t, 3, e.count(t, "pos_sales"))
}

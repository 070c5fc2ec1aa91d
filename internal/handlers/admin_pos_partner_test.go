package handlers_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/promoredemption"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/pos"
)

// TestPosPaymentLinkEmailedWithPromo: a payment link sold with a promo code
// and notify_member holds the code's last use while it waits and e-mails the
// link to the member through the outbox, once (a retry queues nothing); a
// second sale finds the code used up; the lapse gives the use back.
// notify_member without a member, or on a cash sale, is 400 and sells
// nothing.
func TestPosPaymentLinkEmailedWithPromo(t *testing.T) {
	e := newPromoEnv(t)
	m := e.memberID(t, "buyer@pay.example")
	towel := e.product(t, "Towel", 5, "DKK", 5000)
	pc := e.code(t, &api.PromoCodeCreateRequest{Code: "TOWEL10", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(10), MaxUses: api.NewOptInt(1)})
	u, _ := url.Parse("https://desk.example/pay")
	link := func(member bool) *api.PosSaleRequest {
		r := &api.PosSaleRequest{Items: []api.PosCartItem{item(towel.ID, 1)}, Method: api.PosSaleRequestMethodPaymentLink,
			ReturnBaseURL: api.NewOptURI(*u), PromoCode: api.NewOptString("towel10"), NotifyMember: api.NewOptBool(true),
			ExpectedTotalMinor: api.NewOptInt64(4500)}
		if member {
			r.MemberID = api.NewOptUUID(m)
		}
		return r
	}
	_, _, err := e.sellAny(t, "link-anon", link(false))
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	cash := link(true)
	cash.Method, cash.ReturnBaseURL = api.PosSaleRequestMethodCash, api.OptURI{}
	_, _, err = e.sellAny(t, "link-cash", cash)
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, 5, e.stock(t, towel.ID))

	_, c, err := e.sellAny(t, "link-mail", link(true))
	require.NoError(t, err)
	require.NotNil(t, c)
	require.Equal(t, int64(4500), c.TotalMinor)
	require.True(t, c.LinkSent.Value)
	claimed, redeemed := e.uses(t, pc.ID)
	require.Equal(t, 1, claimed, "held while the link is open")
	require.Zero(t, redeemed, "counted at payment")
	mails := func() int {
		return e.studio.client.NotificationDelivery.Query().Where(notificationdelivery.Kind(pos.PaymentLinkKind),
			notificationdelivery.CorrelationID("pos_payment_link:"+c.ID.String())).CountX(e.op)
	}
	require.Equal(t, 1, mails())
	d := e.studio.client.NotificationDelivery.Query().Where(notificationdelivery.Kind(pos.PaymentLinkKind)).OnlyX(e.op)
	require.Contains(t, d.Body, c.PaymentLink.Value.URL)
	require.Equal(t, m, *d.MemberID)
	_, again, err := e.sellAny(t, "link-mail", link(true))
	require.NoError(t, err)
	require.Equal(t, c.ID, again.ID)
	require.Equal(t, 1, mails(), "a retry sends nothing again")

	_, _, err = e.sellAny(t, "link-second", link(true))
	es := hookErr(t, err, http.StatusUnprocessableEntity, "PROMO_CODE_UNAVAILABLE")
	require.Equal(t, "exhausted", es.Response.Error.Details.Reason.Value)

	later := pos.New(e.studio.client, func() time.Time { return time.Now().Add(pos.CardHold + time.Minute) })
	n, err := later.ExpireCardSales(e.ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	claimed, redeemed = e.uses(t, pc.ID)
	require.Zero(t, claimed, "the lapse gave the use back")
	require.Zero(t, redeemed)
	require.Equal(t, 5, e.stock(t, towel.ID))
}

// TestPosPartnerGrantIsAnActivation: a pass granted for an expired partner
// code is activated like every other pass: through the payments
// activation, whose transaction records pass.activated in the outbox (its
// data naming the pass, the member and the checkout), with the code's use
// redeemed on that checkout; it takes no money, so no payment row is written
// (the sales snapshot and the payment history count money) and no
// payment.succeeded. A refused redemption records no event.
func TestPosPartnerGrantIsAnActivation(t *testing.T) {
	e := newPromoEnv(t)
	m := e.memberID(t, "buyer@pay.example")
	grant := e.code(t, &api.PromoCodeCreateRequest{Code: "FAIRPASS", DiscountKind: api.PromoCodeCreateRequestDiscountKindPercent,
		PercentOff: api.NewOptInt(100), StartsAt: api.NewOptDateTime(time.Now().Add(-48 * time.Hour)),
		Campaign: api.NewOptString("fair-2026"), GrantsPassTypeID: api.NewOptUUID(e.ten.ID)})
	redeem := func(code string) (*api.PosPartnerCodeRedemptionResponse, error) {
		return e.marketer.RedeemPosPartnerCode(e.ctx, &api.PosPartnerCodeRedeemRequest{MemberID: m, Code: code, Reason: "came to the fair"},
			api.RedeemPosPartnerCodeParams{IdempotencyKey: uuid.NewString()})
	}
	_, err := redeem("fairpass")
	hookErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Zero(t, e.events(t, "pass.activated"), "a refusal records nothing")

	e.studio.client.PromoCode.UpdateOneID(grant.ID).SetEndsAt(time.Now().Add(-time.Hour)).ExecX(e.op)
	payments := e.count(t, "payments")
	g, err := redeem("fairpass")
	require.NoError(t, err)
	passID := g.Data.PassID.Value

	evs := e.studio.client.Event.Query().Where(event.Type("pass.activated")).AllX(e.op)
	require.Len(t, evs, 1)
	require.Equal(t, passID.String(), evs[0].Payload["pass_id"])
	require.Equal(t, m.String(), evs[0].Payload["member_id"])
	require.Equal(t, e.ten.ID.String(), evs[0].Payload["pass_type_id"])
	co := e.studio.client.Checkout.Query().Where(checkout.PassID(passID)).OnlyX(e.op)
	require.Equal(t, checkout.StatusPaid, co.Status)
	require.Zero(t, co.AmountMinor)
	require.Equal(t, co.ID.String(), evs[0].Payload["checkout_id"])
	r := e.studio.client.PromoRedemption.Query().Where(promoredemption.SubjectID(co.ID)).OnlyX(e.op)
	require.Equal(t, promoredemption.StatusRedeemed, r.Status)
	require.Equal(t, "came to the fair", *r.LateReason)

	require.Equal(t, payments, e.count(t, "payments"), "the partner paid: no payment row")
	require.Zero(t, e.studio.client.Payment.Query().Where(payment.PassID(passID)).CountX(e.op))
	require.Zero(t, e.events(t, "payment.succeeded"))

	_, err = redeem("FAIRPASS")
	hookErr(t, err, http.StatusConflict, "ALREADY_CLAIMED")
	require.Equal(t, 1, e.events(t, "pass.activated"))
}

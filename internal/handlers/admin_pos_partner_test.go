package handlers_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/notificationdelivery"
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

package handlers_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/giftcard"
	"github.com/venueplatform/venue/ent/giftcardmovement"
	"github.com/venueplatform/venue/ent/giftcardorder"
	"github.com/venueplatform/venue/ent/membercredit"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/giftcards"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// buyCard orders a gift card for friend@pay.example under key.
func (e *payEnv) buyCard(c *api.Client, amount int64, currency, card, key string, deliverAt time.Time) (*api.GiftCardOrderResponse, error) {
	req := &api.GiftCardOrderRequest{AmountMinor: amount, RecipientEmail: "friend@pay.example",
		RecipientName: api.NewOptString("Åse Ødegård"), SenderName: api.NewOptString("Bo"),
		Message: api.NewOptString("Til lykke!")}
	if currency != "" {
		req.Currency = api.NewOptString(currency)
	}
	if card != "" {
		req.PaymentMethodID = api.NewOptString(card)
	}
	if !deliverAt.IsZero() {
		req.DeliverAt = api.NewOptDateTime(deliverAt)
	}
	return c.BuyGiftCard(e.ctx, req, api.BuyGiftCardParams{XOrganizationID: e.venue.ID, IdempotencyKey: key})
}

func (e *payEnv) redeem(c *api.Client, code string, amount int64, key string) (*api.GiftCardRedeemResponse, error) {
	req := &api.GiftCardRedeemRequest{Code: code}
	if amount > 0 {
		req.AmountMinor = api.NewOptInt64(amount)
	}
	return c.RedeemGiftCard(e.ctx, req, api.RedeemGiftCardParams{XOrganizationID: e.venue.ID, IdempotencyKey: key})
}

func (e *payEnv) balance(t *testing.T, code string) api.GiftCardBalanceResponseData {
	t.Helper()
	res, err := e.member.GetGiftCardBalance(e.ctx, api.GetGiftCardBalanceParams{Slug: e.venue.Slug, Code: code})
	require.NoError(t, err)
	return res.Data
}

// ledgerOK checks a card's ledger: every balance_after is the running sum,
// and the last equals the card's remaining amount.
func (e *payEnv) ledgerOK(t *testing.T, cardID uuid.UUID) []*ent.GiftCardMovement {
	t.Helper()
	mv := e.studio.client.GiftCardMovement.Query().Where(giftcardmovement.GiftCardID(cardID)).
		Order(ent.Asc(giftcardmovement.FieldCreatedAt), ent.Asc(giftcardmovement.FieldBalanceAfterMinor)).AllX(e.op)
	card := e.studio.client.GiftCard.GetX(e.op, cardID)
	var run int64
	if len(mv) > 0 && mv[0].Kind == giftcardmovement.KindRedemption {
		run = card.InitialAmountMinor // a card issued before the ledger
	}
	for _, m := range mv {
		run += m.AmountMinor
		require.Equal(t, run, m.BalanceAfterMinor)
	}
	require.Equal(t, card.RemainingAmountMinor, run)
	return mv
}

// TestGiftCardBuyDeliverRedeem: a member buys a card for a friend with a
// saved card; it is charged once through an attempt, issued, its purchase is
// in the ledger and a payment row, the e-mail with the code waits in the
// outbox for the chosen day, partners hear gift_card.purchased; then it is
// redeemed in two steps into credit, and the public balance follows.
func TestGiftCardBuyDeliverRedeem(t *testing.T) {
	e := newPayEnv(t, false, false)
	deliverAt := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	res, err := e.buyCard(e.member, 50000, "", "pm_card_visa", "gift-1", deliverAt)
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, api.GiftCardOrderPaymentStatusSucceeded, d.PaymentStatus)
	require.Equal(t, api.GiftCardOrderStatusPaid, d.Status)
	require.Equal(t, "DKK", d.Currency)
	require.Equal(t, 2, d.CurrencyExponent)
	require.Equal(t, 500.0, d.Amount)
	require.True(t, d.ClientSecret.Null)
	cardID, ok := d.GiftCardID.Get()
	require.True(t, ok)

	card := e.studio.client.GiftCard.GetX(e.op, cardID)
	require.Equal(t, int64(50000), card.RemainingAmountMinor)
	require.Equal(t, giftcard.StatusActive, card.Status)
	require.Equal(t, "Bo", card.SenderName)

	at := e.studio.client.PaymentAttempt.Query().OnlyX(e.op)
	require.Equal(t, paymentattempt.PurposeGiftCardCharge, at.Purpose)
	require.Equal(t, paymentattempt.StateSucceeded, at.State)
	require.Equal(t, d.ID, at.SubjectID)
	require.Equal(t, map[string]int{"v1:gift_card_charge:" + at.ID.String() + ":create": 1}, intentCreates(e.fake))
	pi := e.fake.Intent(d.PaymentIntentID.Value)
	require.EqualValues(t, 50000, pi["amount"])
	require.Equal(t, "dkk", pi["currency"])

	pay := e.studio.client.Payment.Query().OnlyX(e.op)
	require.Equal(t, payment.KindGiftCard, pay.Kind)
	require.Equal(t, int64(50000), pay.AmountMinor)
	require.Equal(t, d.PaymentIntentID.Value, *pay.ProcessorPaymentID)

	// The e-mail with the code is in the outbox, its job scheduled for the
	// delivery time.
	nd := e.studio.client.NotificationDelivery.Query().Where(notificationdelivery.Kind(giftcards.DeliveryKind)).OnlyX(e.op)
	require.Equal(t, "friend@pay.example", nd.Address)
	require.Contains(t, nd.Body, card.Code)
	require.Contains(t, nd.Body, "500.00 DKK")
	require.Contains(t, nd.Body, "Åse Ødegård")
	var scheduled time.Time
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT scheduled_at FROM river_job WHERE kind = 'notification_delivery' AND args->>'delivery_id' = $1`,
		nd.ID.String()).Scan(&scheduled))
	require.WithinDuration(t, deliverAt, scheduled, time.Second)

	var types []string
	rows, err := e.pool.Query(e.ctx, `SELECT type FROM events WHERE organization_id = $1 ORDER BY type`, e.venue.ID)
	require.NoError(t, err)
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		types = append(types, s)
	}
	require.Equal(t, []string{"gift_card.purchased", "payment.succeeded"}, types)

	// The same request again finds the paid order; Stripe saw one charge.
	again, err := e.buyCard(e.member, 50000, "", "pm_card_visa", "gift-1", deliverAt)
	require.NoError(t, err)
	require.Equal(t, d.ID, again.Data.ID)
	require.Len(t, e.fake.Intents(), 1)
	got, err := e.member.GetGiftCardOrder(e.ctx, api.GetGiftCardOrderParams{XOrganizationID: e.venue.ID, OrderId: d.ID})
	require.NoError(t, err)
	require.Equal(t, api.GiftCardOrderStatusPaid, got.Data.Status)
	_, err = e.memberClient(t, "nosy@pay.example").GetGiftCardOrder(e.ctx, api.GetGiftCardOrderParams{XOrganizationID: e.venue.ID, OrderId: d.ID})
	hookErr(t, err, 404, "NOT_FOUND")

	// The friend (a member too) redeems 200.00 into credit, then the rest.
	friend := e.memberClient(t, "friend@pay.example")
	r1, err := e.redeem(friend, strings.ToLower(card.Code), 20000, "r-1")
	require.NoError(t, err)
	require.Equal(t, api.GiftCardRedemptionRedeemedIntoCredit, r1.Data.RedeemedInto)
	require.Equal(t, int64(20000), r1.Data.AmountMinor)
	require.Equal(t, int64(30000), r1.Data.RemainingAmountMinor)
	require.Equal(t, int64(20000), r1.Data.CreditBalanceMinor.Value)
	b := e.balance(t, card.Code)
	require.Equal(t, int64(30000), b.RemainingAmountMinor)
	require.Equal(t, 300.0, b.RemainingAmount)

	r2, err := e.redeem(friend, card.Code, 0, "r-2")
	require.NoError(t, err)
	require.Equal(t, int64(30000), r2.Data.AmountMinor)
	require.Equal(t, int64(0), r2.Data.RemainingAmountMinor)
	require.Equal(t, api.GiftCardRedemptionStatusRedeemed, r2.Data.Status)
	require.Equal(t, int64(50000), r2.Data.CreditBalanceMinor.Value)
	b = e.balance(t, card.Code)
	require.Equal(t, int64(0), b.RemainingAmountMinor)
	require.Equal(t, api.GiftCardBalanceResponseDataStatusRedeemed, b.Status)
	pv, err := e.member.GetGiftCardPreview(e.ctx, api.GetGiftCardPreviewParams{Slug: e.venue.Slug, Code: card.Code})
	require.NoError(t, err)
	require.Equal(t, api.GiftCardPreviewResponseDataStatusRedeemed, pv.Data.Status)

	es := hookErr(t, func() error { _, err := e.redeem(friend, card.Code, 0, "r-3"); return err }(), 422, giftcards.CodeNotRedeemable)
	require.Equal(t, "redeemed", es.Response.Error.Details.Reason.Value)

	mv := e.ledgerOK(t, cardID)
	kinds := []giftcardmovement.Kind{}
	for _, m := range mv {
		kinds = append(kinds, m.Kind)
	}
	require.Equal(t, []giftcardmovement.Kind{giftcardmovement.KindPurchase, giftcardmovement.KindRedemption, giftcardmovement.KindRedemption}, kinds)
}

// TestGiftCardRequiresActionThenEvents: the charge needs 3-D Secure; the
// card is issued once when Stripe's succeeded event arrives, delivered five
// times.
func TestGiftCardRequiresActionThenEvents(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.fake.Script(stripetest.Outcome{Status: "requires_action"})
	res, err := e.buyCard(e.member, 25000, "", "pm_card_threeDSecure2Required", "g-3ds", time.Time{})
	require.NoError(t, err)
	require.Equal(t, api.GiftCardOrderPaymentStatusRequiresAction, res.Data.PaymentStatus)
	require.True(t, strings.HasSuffix(res.Data.ClientSecret.Value, "_secret_fake"))
	require.True(t, res.Data.GiftCardID.Null)
	require.Equal(t, 0, e.count(t, "gift_cards"))

	pi := res.Data.PaymentIntentID.Value
	succeeded := e.fake.SetStatus(pi, "succeeded")
	for range 5 {
		body, sig := stripetest.Event("evt_gift_ok", "payment_intent.succeeded", payAccount, succeeded, paySecret)
		require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
	}
	require.Equal(t, 1, e.runEventJobs(t))
	require.Equal(t, 1, e.count(t, "gift_cards"))
	require.Equal(t, 1, e.count(t, "payments"))
	require.Equal(t, 1, e.count(t, "gift_card_movements"))
	o := e.studio.client.GiftCardOrder.Query().OnlyX(e.op)
	require.Equal(t, giftcardorder.StatusPaid, o.Status)
	got, err := e.member.GetGiftCardOrder(e.ctx, api.GetGiftCardOrderParams{XOrganizationID: e.venue.ID, OrderId: o.ID})
	require.NoError(t, err)
	require.Equal(t, api.GiftCardOrderPaymentStatusSucceeded, got.Data.PaymentStatus)
	require.Equal(t, *o.GiftCardID, got.Data.GiftCardID.Value)
	require.Len(t, e.fake.Intents(), 1)
}

func TestGiftCardDeclinedAndUnavailable(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"})
	_, err := e.buyCard(e.member, 25000, "", "pm_card_visa", "g-d", time.Time{})
	es := hookErr(t, err, 402, payments.CodeDeclined)
	require.JSONEq(t, `"insufficient_funds"`, string(es.Response.Error.Details.AdditionalProps["decline_code"]))
	require.Equal(t, 0, e.count(t, "gift_cards"))
	require.Equal(t, 0, e.count(t, "payments"))

	// Amounts outside 1 to 100 000 major units and unknown currencies
	// change nothing.
	for _, c := range []struct {
		amount   int64
		currency string
	}{{99, "DKK"}, {10_000_001, "DKK"}, {999, "KWD"}, {5000, "XXQ"}} {
		_, err := e.buyCard(e.member, c.amount, c.currency, "pm_card_visa", fmt.Sprintf("g-bad-%d-%s", c.amount, c.currency), time.Time{})
		hookErr(t, err, 400, "VALIDATION_ERROR")
	}
	require.Len(t, e.fake.Intents(), 1)
}

func TestGiftCardCardPaymentsOff(t *testing.T) {
	off := newPayEnv(t, true, false)
	_, err := off.buyCard(off.member, 25000, "", "pm_card_visa", "g-off", time.Time{})
	hookErr(t, err, 422, payments.CodeUnavailable)
	require.Equal(t, 0, off.count(t, "payment_attempts"))
}

// TestGiftCardOtherCurrencies: a card priced in JPY (no minor digits) and
// in KWD (three) is charged and answered with its currency's exponent.
func TestGiftCardOtherCurrencies(t *testing.T) {
	e := newPayEnv(t, false, false)
	for _, c := range []struct {
		currency string
		minor    int64
		exp      int
		major    float64
		text     string
	}{{"JPY", 5000, 0, 5000, "5000 JPY"}, {"KWD", 12500, 3, 12.5, "12.500 KWD"}} {
		res, err := e.buyCard(e.member, c.minor, c.currency, "pm_card_visa", "g-"+c.currency, time.Time{})
		require.NoError(t, err)
		require.Equal(t, c.currency, res.Data.Currency)
		require.Equal(t, c.exp, res.Data.CurrencyExponent)
		require.Equal(t, c.major, res.Data.Amount)
		pi := e.fake.Intent(res.Data.PaymentIntentID.Value)
		require.EqualValues(t, c.minor, pi["amount"])
		require.Equal(t, strings.ToLower(c.currency), pi["currency"])
		card := e.studio.client.GiftCard.GetX(e.op, res.Data.GiftCardID.Value)
		require.Equal(t, c.currency, card.Currency)
		b := e.balance(t, card.Code)
		require.Equal(t, c.major, b.RemainingAmount)
		require.Equal(t, c.text, money.Format(c.minor, c.currency))
	}
}

// TestGiftCardRedeemRace: twelve redemptions of 30.00 race on a card with
// 100.00 left: three win, the rest are refused, and nothing is overspent.
func TestGiftCardRedeemRace(t *testing.T) {
	e := newPayEnv(t, false, false)
	card := e.studio.client.GiftCard.Create().SetCode("RACE-1").SetInitialAmountMinor(10000).
		SetRemainingAmountMinor(10000).SetCurrency("DKK").SaveX(e.op)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		won, out int
	)
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.redeem(e.member, "RACE-1", 3000, fmt.Sprintf("race-%d", i))
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				won++
				return
			}
			es := errorOf(t, err)
			if es.Response.Error.Code == giftcards.CodeNotRedeemable {
				out++
			}
		}()
	}
	wg.Wait()
	require.Equal(t, 3, won)
	require.Equal(t, 9, out)
	card = e.studio.client.GiftCard.GetX(e.op, card.ID)
	require.Equal(t, int64(1000), card.RemainingAmountMinor)
	credit := e.studio.client.MemberCredit.Query().Where(membercredit.GiftCardID(card.ID)).AllX(e.op)
	require.Len(t, credit, 3)
	require.Len(t, e.ledgerOK(t, card.ID), 3)
}

// TestGiftCardRedeemPassAndRefusals: a pass card becomes a pass; cancelled
// and unknown codes are the same 404; an expired card and more than remains
// are refused with their reasons.
func TestGiftCardRedeemPassAndRefusals(t *testing.T) {
	e := newPayEnv(t, false, false)
	c := e.studio.client
	c.GiftCard.Create().SetCode("PASS-1").SetGiftType(giftcard.GiftTypePass).SetPassTypeID(e.ten.ID).
		SetInitialAmountMinor(120000).SetRemainingAmountMinor(120000).SetCurrency("DKK").SaveX(e.op)
	c.GiftCard.Create().SetCode("GONE-1").SetStatus(giftcard.StatusCancelled).SetInitialAmountMinor(100).
		SetRemainingAmountMinor(100).SetCurrency("DKK").SaveX(e.op)
	c.GiftCard.Create().SetCode("OLD-1").SetExpiresAt(time.Now().Add(-time.Hour)).SetInitialAmountMinor(100).
		SetRemainingAmountMinor(100).SetCurrency("DKK").SaveX(e.op)
	c.GiftCard.Create().SetCode("SMALL-1").SetInitialAmountMinor(500).SetRemainingAmountMinor(500).SetCurrency("DKK").SaveX(e.op)

	r, err := e.redeem(e.member, "PASS-1", 0, "p-1")
	require.NoError(t, err)
	require.Equal(t, api.GiftCardRedemptionRedeemedIntoPass, r.Data.RedeemedInto)
	p := c.Pass.GetX(e.op, r.Data.PassID.Value)
	require.Equal(t, e.ten.ID, p.PassTypeID)
	require.Equal(t, 10, *p.ClipsRemaining)
	require.True(t, r.Data.CreditBalanceMinor.Null)

	for _, code := range []string{"GONE-1", "NOPE-1"} {
		_, err := e.redeem(e.member, code, 0, "n-"+code)
		hookErr(t, err, 404, "NOT_FOUND")
	}
	es := hookErr(t, func() error { _, err := e.redeem(e.member, "OLD-1", 0, "o-1"); return err }(), 422, giftcards.CodeNotRedeemable)
	require.Equal(t, "expired", es.Response.Error.Details.Reason.Value)
	es = hookErr(t, func() error { _, err := e.redeem(e.member, "SMALL-1", 501, "s-1"); return err }(), 422, giftcards.CodeNotRedeemable)
	require.Equal(t, "insufficient_balance", es.Response.Error.Details.Reason.Value)
	require.Equal(t, int64(500), c.GiftCard.Query().Where(giftcard.Code("SMALL-1")).OnlyX(e.op).RemainingAmountMinor)
	require.Equal(t, 1, e.count(t, "gift_card_movements"))
}

// TestGiftCardUnknownOutcomeReconciled: Stripe's answer to the charge is
// lost; the member is told the outcome is unknown, the same request again
// waits for reconciliation, and reconcile (reading Stripe only) issues the
// card once.
func TestGiftCardUnknownOutcomeReconciled(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.fake.Script(stripetest.Outcome{Drop: 10})
	_, err := e.buyCard(e.member, 40000, "", "pm_card_visa", "g-lost", time.Time{})
	es := hookErr(t, err, 409, payments.CodeUnknownOutcome)
	require.JSONEq(t, `"unknown"`, string(es.Response.Error.Details.AdditionalProps["write_state"]))
	at := e.studio.client.PaymentAttempt.Query().OnlyX(e.op)
	require.Equal(t, paymentattempt.StateUnknown, at.State)
	require.Equal(t, 0, e.count(t, "gift_cards"))

	_, err = e.buyCard(e.member, 40000, "", "pm_card_visa", "g-lost", time.Time{})
	hookErr(t, err, 409, payments.CodeUnknownOutcome)

	before := len(intentCreates(e.fake))
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.Equal(t, before, len(intentCreates(e.fake)), "reconcile never writes to Stripe")
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.Equal(t, paymentattempt.StateSucceeded, e.studio.client.PaymentAttempt.GetX(e.op, at.ID).State)
	require.Equal(t, 1, e.count(t, "gift_cards"))
	require.Equal(t, 1, e.count(t, "payments"))
	require.Len(t, e.fake.Intents(), 1)
	o := e.studio.client.GiftCardOrder.Query().OnlyX(e.op)
	require.Equal(t, giftcardorder.StatusPaid, o.Status)
	require.Equal(t, 1, e.studio.client.NotificationDelivery.Query().Where(notificationdelivery.Kind(giftcards.DeliveryKind)).CountX(e.op))
}

// TestGiftCardReadAfter3DS: after 3-D Secure the member reads the order;
// the read asks Stripe (never writes) and the card is issued; Stripe's
// later event changes nothing.
func TestGiftCardReadAfter3DS(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.fake.Script(stripetest.Outcome{Status: "requires_action"})
	res, err := e.buyCard(e.member, 25000, "", "pm_card_threeDSecure2Required", "g-read", time.Time{})
	require.NoError(t, err)
	read := func() api.GiftCardOrder {
		got, err := e.member.GetGiftCardOrder(e.ctx, api.GetGiftCardOrderParams{XOrganizationID: e.venue.ID, OrderId: res.Data.ID})
		require.NoError(t, err)
		return got.Data
	}
	require.Equal(t, api.GiftCardOrderStatusOpen, read().Status)
	require.Equal(t, 0, e.count(t, "gift_cards"))

	pi := res.Data.PaymentIntentID.Value
	succeeded := e.fake.SetStatus(pi, "succeeded")
	creates := len(intentCreates(e.fake))
	got := read()
	require.Equal(t, api.GiftCardOrderStatusPaid, got.Status)
	require.False(t, got.GiftCardID.Null)
	require.Equal(t, creates, len(intentCreates(e.fake)))

	body, sig := stripetest.Event("evt_late", "payment_intent.succeeded", payAccount, succeeded, paySecret)
	require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
	require.Equal(t, 1, e.runEventJobs(t))
	require.Equal(t, 1, e.count(t, "gift_cards"))
	require.Equal(t, 1, e.count(t, "payments"))
}

// TestAdminGiftCards: staff with gift_cards.sell issue an amount card
// (silently) and a pass card, e-mailing it only with notifications.send;
// the list by code shows the ledger from issue to redemption; members and
// staff without the permission are refused and nothing is issued.
func TestAdminGiftCards(t *testing.T) {
	e := newPayEnv(t, false, false)
	h := &hookEnv{authEnv: e.authEnv, ctx: e.ctx}
	seller := h.staffWith(t, "seller@pay.example", giftcards.PermSell)
	sender := h.staffWith(t, "sender@pay.example", giftcards.PermSell, "notifications.send")
	plain := h.staffWith(t, "plain@pay.example", "settings.business")

	res, err := seller.IssueAdminGiftCard(e.ctx, &api.AdminGiftCardIssueRequest{AmountMinor: api.NewOptInt64(20000)},
		api.IssueAdminGiftCardParams{IdempotencyKey: "i-1"})
	require.NoError(t, err)
	c := res.Data
	require.Equal(t, "DKK", c.Currency)
	require.Equal(t, int64(20000), c.RemainingAmountMinor)
	require.Equal(t, 0, e.studio.client.NotificationDelivery.Query().Where(notificationdelivery.Kind(giftcards.DeliveryKind)).CountX(e.op),
		"silent by default")

	_, err = seller.IssueAdminGiftCard(e.ctx, &api.AdminGiftCardIssueRequest{AmountMinor: api.NewOptInt64(20000),
		SendNotification: api.NewOptBool(true), RecipientEmail: api.NewOptString("friend@pay.example")}, api.IssueAdminGiftCardParams{IdempotencyKey: "i-2"})
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = sender.IssueAdminGiftCard(e.ctx, &api.AdminGiftCardIssueRequest{AmountMinor: api.NewOptInt64(20000),
		SendNotification: api.NewOptBool(true)}, api.IssueAdminGiftCardParams{IdempotencyKey: "i-3"})
	hookErr(t, err, 400, "VALIDATION_ERROR")
	pc, err := sender.IssueAdminGiftCard(e.ctx, &api.AdminGiftCardIssueRequest{GiftType: api.NewOptAdminGiftCardIssueRequestGiftType(api.AdminGiftCardIssueRequestGiftTypePass),
		PassTypeID: api.NewOptUUID(e.ten.ID), SendNotification: api.NewOptBool(true), RecipientEmail: api.NewOptString("friend@pay.example")},
		api.IssueAdminGiftCardParams{IdempotencyKey: "i-4"})
	require.NoError(t, err)
	require.Equal(t, e.ten.ID, pc.Data.PassTypeID.Value)
	require.Equal(t, e.ten.PriceMinor, pc.Data.InitialAmountMinor)
	nd := e.studio.client.NotificationDelivery.Query().Where(notificationdelivery.Kind(giftcards.DeliveryKind)).OnlyX(e.op)
	require.Equal(t, "friend@pay.example", nd.Address)
	require.Contains(t, nd.Body, pc.Data.Code)

	for _, c := range []*api.Client{plain, e.member} {
		_, err := c.IssueAdminGiftCard(e.ctx, &api.AdminGiftCardIssueRequest{AmountMinor: api.NewOptInt64(20000)}, api.IssueAdminGiftCardParams{IdempotencyKey: "x-1"})
		hookErr(t, err, 403, "ACCESS_DENIED")
		_, err = c.ListAdminGiftCards(e.ctx, api.ListAdminGiftCardsParams{})
		hookErr(t, err, 403, "ACCESS_DENIED")
	}
	require.Equal(t, 2, e.count(t, "gift_cards"))

	_, err = e.redeem(e.member, c.Code, 5000, "r-adm")
	require.NoError(t, err)
	list, err := seller.ListAdminGiftCards(e.ctx, api.ListAdminGiftCardsParams{Code: api.NewOptString(strings.ToLower(c.Code))})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	ledger := list.Data[0].Ledger
	require.Len(t, ledger, 2)
	require.Equal(t, api.GiftCardLedgerLineKindIssue, ledger[0].Kind)
	require.Equal(t, int64(20000), ledger[0].BalanceAfterMinor)
	require.Equal(t, api.GiftCardLedgerLineKindRedemption, ledger[1].Kind)
	require.Equal(t, int64(-5000), ledger[1].AmountMinor)
	require.Equal(t, int64(15000), ledger[1].BalanceAfterMinor)
	e.ledgerOK(t, c.ID)
	all, err := seller.ListAdminGiftCards(e.ctx, api.ListAdminGiftCardsParams{})
	require.NoError(t, err)
	require.Len(t, all.Data, 2)
}

package handlers_test

import (
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/membercredit"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/user"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/payments"
)

// localToday is the venue-local sale date as the pricing sees it.
func (e *payEnv) localToday() time.Time {
	n := time.Now().In(e.studio.loc)
	return time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.UTC)
}

// offer makes a live introductory offer on pass types at price (major
// units) with its intro ending introEnd days from today; capacity 0 is
// unbounded.
func (e *payEnv) offer(t *testing.T, name string, price float64, introEnd, capacity int, pts ...uuid.UUID) *ent.FlashSale {
	t.Helper()
	c := e.studio.client.FlashSale.Create().SetName(name).
		SetCommercialRule(model.CommercialRule{Version: 2, Kind: "introductory_price", Currency: "DKK", VatMode: "included",
			Pricing:        model.RulePricing{Mode: "shared", Price: price},
			Duration:       model.RuleDuration{Mode: "until_date", EndsAt: e.localToday().AddDate(0, 0, introEnd).Format(time.DateOnly)},
			FollowingPrice: model.RuleFollow{Mode: "pass_price"}}).
		SetProductFamily(flashsale.ProductFamilyRecurring).
		SetStartsAt(time.Now().Add(-time.Hour)).SetEndsAt(time.Now().Add(24 * time.Hour)).
		SetPlacements([]string{"public_link"}).SetPresentation(model.Presentation{Style: "clean"}).
		AddApplicablePassTypeIDs(pts...)
	if capacity > 0 {
		c.SetCapacityMax(capacity)
	}
	return c.SaveX(e.op)
}

func (e *payEnv) preview(c *api.Client, p api.GetCheckoutPreviewParams) (*api.CheckoutPreviewResponse, error) {
	p.XOrganizationID = e.venue.ID
	return c.GetCheckoutPreview(e.ctx, p)
}

func reasonOf(t *testing.T, err error) string {
	t.Helper()
	r, _ := errorOf(t, err).Response.Error.Details.Reason.Get()
	return r
}

// TestCheckoutFlashSaleIntroPrice: a live offer prices the membership's
// intro period (charged today, paid through the offer's intro end, the
// normal price after), is frozen on the checkout, takes one place of the
// offer, and an offer that cannot be bought is 422 FLASH_SALE_UNAVAILABLE
// with its reason, never the normal price.
func TestCheckoutFlashSaleIntroPrice(t *testing.T) {
	e := newPayEnv(t, false, false)
	unlimited := e.studio.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(e.op)
	fs := e.offer(t, "Black week", 99, 20, 1, unlimited.ID)

	res, err := e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", FlashSaleID: api.NewOptUUID(fs.ID)})
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, int64(9900), d.ChargedTodayMinor, "the intro price, not the normal 599.00")
	require.Equal(t, int64(1980), d.VatMinor)
	off := d.DirectOffer.Value
	require.Equal(t, fs.ID, off.FlashSaleID)
	require.Equal(t, int64(59900), off.NormalAmount)
	require.Equal(t, int64(9900), off.OfferAmount)
	introEnd := e.localToday().AddDate(0, 0, 20)
	ob := d.PurchaseObligation
	require.Equal(t, api.PurchaseObligationStatusAvailable, ob.Status)
	require.Equal(t, introEnd, ob.IntroThroughDate.Value)
	cm := ob.Commitment.Value
	require.Equal(t, introEnd.AddDate(0, 0, 1), cm.FirstFullPriceDate)
	require.Equal(t, int64(59900), cm.FullPriceAmountMinor)
	require.Equal(t, 0, cm.MinimumFullPriceCycles)
	require.Equal(t, int64(9900), ob.MinimumTotalPayable.Value)
	q := d.DirectPurchaseQuote.Value
	require.Equal(t, fs.ID, q.FlashSaleID.Value)

	// A quote whose offer was swapped does not verify.
	forged := q
	forged.FlashSaleID = api.NewOptNilUUID(uuid.New())
	_, err = e.buy(e.member, forged, "pm_card_visa", "fs-forged")
	hookErr(t, err, 400, "VALIDATION_ERROR")

	bought, err := e.buy(e.member, q, "pm_card_visa", "fs-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus)
	require.EqualValues(t, 9900, e.fake.Intent(bought.Data.PaymentIntentID.Value)["amount"])
	require.Equal(t, fs.ID, bought.Data.FrozenCheckout.FlashSaleID.Value)
	require.Equal(t, introEnd, bought.Data.FrozenCheckout.IntroThroughDate.Value)
	p := e.studio.client.Pass.GetX(e.op, bought.Data.PassID.Value)
	require.Equal(t, introEnd, p.ValidTo.UTC(), "the intro price pays through the offer's intro end")
	require.Equal(t, 1, e.studio.client.FlashSale.GetX(e.op, fs.ID).ClaimedCount)

	// The offer had one place: the next member is refused, no fallback.
	other := e.memberClient(t, "second@pay.example")
	_, err = e.preview(other, api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", FlashSaleID: api.NewOptUUID(fs.ID)})
	hookErr(t, err, 422, payments.CodeFlashSaleUnavai)
	require.Equal(t, "sold_out", reasonOf(t, err))

	// Each way an offer is unavailable has its reason.
	ten := e.ten.ID
	cases := map[string]func() uuid.UUID{
		"pass_type_not_included": func() uuid.UUID { return e.offer(t, "Other", 10, 20, 0, ten).ID },
		"ended": func() uuid.UUID {
			return e.studio.client.FlashSale.UpdateOne(e.offer(t, "Old", 10, 20, 0, unlimited.ID)).
				SetStartsAt(time.Now().Add(-48 * time.Hour)).SetEndsAt(time.Now().Add(-time.Hour)).SaveX(e.op).ID
		},
		"not_started": func() uuid.UUID {
			return e.studio.client.FlashSale.UpdateOne(e.offer(t, "Soon", 10, 20, 0, unlimited.ID)).
				SetStartsAt(time.Now().Add(time.Hour)).SaveX(e.op).ID
		},
		"cancelled": func() uuid.UUID {
			return e.studio.client.FlashSale.UpdateOne(e.offer(t, "Off", 10, 20, 0, unlimited.ID)).
				SetCancelledAt(time.Now()).SaveX(e.op).ID
		},
		"intro_over": func() uuid.UUID { return e.offer(t, "Past intro", 10, -1, 0, unlimited.ID).ID },
		"not_found":  uuid.New,
	}
	for reason, mk := range cases {
		_, err := e.preview(other, api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", FlashSaleID: api.NewOptUUID(mk())})
		hookErr(t, err, 422, payments.CodeFlashSaleUnavai)
		require.Equal(t, reason, reasonOf(t, err))
	}
	require.Equal(t, 1, e.count(t, "checkouts"), "refusals write nothing")
}

// TestCheckoutFlashSaleLastPlace: members racing for an offer's last place:
// exactly one checkout takes it; the others are refused before any charge.
func TestCheckoutFlashSaleLastPlace(t *testing.T) {
	e := newPayEnv(t, false, false)
	unlimited := e.studio.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(e.op)
	fs := e.offer(t, "Last one", 50, 10, 1, unlimited.ID)
	const n = 6
	quotes := make([]api.DirectPurchaseQuote, n)
	clients := make([]*api.Client, n)
	for i := range n {
		clients[i] = e.memberClient(t, "racer"+string(rune('a'+i))+"@pay.example")
		res, err := e.preview(clients[i], api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", FlashSaleID: api.NewOptUUID(fs.ID)})
		require.NoError(t, err)
		quotes[i] = res.Data.DirectPurchaseQuote.Value
	}
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = e.buy(clients[i], quotes[i], "pm_card_visa", "race")
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
			continue
		}
		hookErr(t, err, 422, payments.CodeFlashSaleUnavai)
	}
	require.Equal(t, 1, ok)
	require.Len(t, e.fake.Intents(), 1, "only the place taken was charged")
	require.Equal(t, 1, e.studio.client.FlashSale.GetX(e.op, fs.ID).ClaimedCount)
}

// TestCheckoutBindingTier: a binding tier sells the membership at the tier's
// period price for its months (the commitment counts the full-price periods
// after today's); a tier the pass type does not sell is 422.
func TestCheckoutBindingTier(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.studio.client.PassType.Update().Where(passtype.Slug("unlimited")).
		SetBindingTiers([]model.BindingTier{{Months: 12, PriceMinor: 49900}, {Months: 6, PriceMinor: 54900}}).ExecX(e.op)

	res, err := e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", BindingMonths: api.NewOptInt(12)})
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, int64(49900), d.ChargedTodayMinor)
	cm := d.PurchaseObligation.Commitment.Value
	today := e.localToday()
	require.Equal(t, 11, cm.MinimumFullPriceCycles, "12 monthly payments: today's and 11 more")
	require.Equal(t, int64(49900), cm.FullPriceAmountMinor)
	require.Equal(t, today.AddDate(0, 12, 0), cm.CommitmentEndsOn)
	require.Equal(t, int64(12*49900), d.PurchaseObligation.MinimumTotalPayable.Value)
	c := d.PurchaseObligation.Cancellation.Value
	require.Equal(t, api.ObligationCancellationKindAfterCommitment, c.Kind)
	// Notice inside the binding is accepted and ends the membership on the
	// commitment's end (TestCancellationTermsHold).
	require.Equal(t, today.AddDate(0, 12, 0), c.EarliestPossibleEndOn.Value)
	require.Equal(t, api.ObligationCancellationRequestMethodInApp, c.RequestMethod.Value)
	q := d.DirectPurchaseQuote.Value
	require.Equal(t, 12, q.BindingMonths.Value)

	// Without a tier the member may leave at the end of the paid month.
	plain, err := e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited"})
	require.NoError(t, err)
	require.Equal(t, int64(59900), plain.Data.ChargedTodayMinor)
	require.Equal(t, api.ObligationCancellationKindEndOfPeriod, plain.Data.PurchaseObligation.Cancellation.Value.Kind)
	require.Equal(t, today.AddDate(0, 1, 0), plain.Data.PurchaseObligation.Cancellation.Value.EarliestPossibleEndOn.Value)
	require.Equal(t, 0, plain.Data.PurchaseObligation.Commitment.Value.MinimumFullPriceCycles)

	for _, months := range []int{3, 24} {
		_, err = e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", BindingMonths: api.NewOptInt(months)})
		hookErr(t, err, 422, "VALIDATION_FAILED")
		require.Equal(t, "binding_tier_unavailable", reasonOf(t, err))
	}
	_, err = e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "ten", BindingMonths: api.NewOptInt(12)})
	hookErr(t, err, 422, "VALIDATION_FAILED")

	// A tier repriced after the preview makes the quote stale.
	bought, err := e.buy(e.member, q, "pm_card_visa", "bind-1")
	require.NoError(t, err)
	require.Equal(t, 12, bought.Data.FrozenCheckout.BindingMonths.Value)
	require.EqualValues(t, 49900, e.fake.Intent(bought.Data.PaymentIntentID.Value)["amount"])
	res, err = e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "unlimited", BindingMonths: api.NewOptInt(6)})
	require.NoError(t, err)
	e.studio.client.PassType.Update().Where(passtype.Slug("unlimited")).
		SetBindingTiers([]model.BindingTier{{Months: 6, PriceMinor: 52900}}).ExecX(e.op)
	_, err = e.buy(e.member, res.Data.DirectPurchaseQuote.Value, "pm_card_visa", "bind-2")
	hookErr(t, err, 409, payments.CodeQuoteStale)
}

// TestCheckoutVATAgeExemption: a member younger than the venue's threshold
// on the venue-local sale date buys without VAT, frozen on the checkout; on
// the birthday that reaches the threshold VAT applies again.
func TestCheckoutVATAgeExemption(t *testing.T) {
	e := newPayEnv(t, false, false)
	e.studio.client.Organization.UpdateOneID(e.venue.ID).SetVatExemptAgeThreshold(18).ExecX(e.op)
	m := e.studio.client.Member.Query().Where(member.HasUserWith(user.Email("buyer@pay.example"))).OnlyX(e.op)
	today := e.localToday()
	setBirth := func(b time.Time) { e.studio.client.Member.UpdateOne(m).SetBirthDate(b).ExecX(e.op) }

	setBirth(today.AddDate(-18, 0, 1)) // 18 tomorrow
	res, err := e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "ten"})
	require.NoError(t, err)
	require.True(t, res.Data.VatExempt.Value)
	require.Equal(t, int64(0), res.Data.VatMinor)
	require.Equal(t, 0, res.Data.VatRateBp)
	require.Equal(t, int64(120000), res.Data.ChargedTodayMinor, "the price is the same, without VAT inside")
	bought, err := e.buy(e.member, res.Data.DirectPurchaseQuote.Value, "pm_card_visa", "vat-1")
	require.NoError(t, err)
	f := bought.Data.FrozenCheckout
	require.True(t, f.VatExempt.Value)
	require.Equal(t, int64(0), f.VatMinor)
	co := e.studio.client.Checkout.GetX(e.op, bought.Data.CheckoutID)
	require.True(t, co.VatExempt)

	setBirth(today.AddDate(-18, 0, 0)) // 18 today
	res, err = e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "ten"})
	require.NoError(t, err)
	require.False(t, res.Data.VatExempt.Value)
	require.Equal(t, int64(24000), res.Data.VatMinor)

	// A birth date recorded after the preview makes its quote stale.
	e.studio.client.Member.UpdateOne(m).ClearBirthDate().ExecX(e.op)
	res, err = e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "ten"})
	require.NoError(t, err)
	setBirth(today.AddDate(-10, 0, 0))
	_, err = e.buy(e.member, res.Data.DirectPurchaseQuote.Value, "pm_card_visa", "vat-2")
	hookErr(t, err, 409, payments.CodeQuoteStale)
}

// TestCheckoutMemberCredit: the member's credit is spent first and the card
// charged the rest, the spend is a ledger movement of the checkout, a
// balance changed since the preview is QUOTE_STALE, credit covering the
// whole price buys without a card, and concurrent spends never take the
// balance below zero.
func TestCheckoutMemberCredit(t *testing.T) {
	e := newPayEnv(t, false, false)
	m := e.studio.client.Member.Query().Where(member.HasUserWith(user.Email("buyer@pay.example"))).OnlyX(e.op)
	credit := func(amount int64) {
		e.studio.client.MemberCredit.Create().SetMemberID(m.ID).SetAmountMinor(amount).SetCurrency("DKK").
			SetSource(membercredit.SourceGiftCardRedemption).ExecX(e.op)
	}
	balance := func() int64 {
		var sum int64
		for _, r := range e.studio.client.MemberCredit.Query().Where(membercredit.MemberID(m.ID)).AllX(e.op) {
			sum += r.AmountMinor
		}
		return sum
	}
	credit(50000)
	res, err := e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "ten"})
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, int64(50000), d.CreditAppliedMinor.Value)
	require.Equal(t, int64(70000), d.ChargedTodayMinor)
	require.Equal(t, int64(24000), d.VatMinor, "VAT is of the whole sale, whatever pays it")
	q := d.DirectPurchaseQuote.Value
	require.Equal(t, int64(50000), q.CreditAppliedMinor)

	// The balance changes (another redemption) before the purchase: stale.
	credit(100)
	_, err = e.buy(e.member, q, "pm_card_visa", "credit-stale")
	hookErr(t, err, 409, payments.CodeQuoteStale)
	require.Equal(t, 0, e.count(t, "checkouts"))

	res, err = e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: "ten"})
	require.NoError(t, err)
	bought, err := e.buy(e.member, res.Data.DirectPurchaseQuote.Value, "pm_card_visa", "credit-1")
	require.NoError(t, err)
	require.EqualValues(t, 69900, e.fake.Intent(bought.Data.PaymentIntentID.Value)["amount"])
	require.Equal(t, int64(50100), bought.Data.FrozenCheckout.CreditAppliedMinor.Value)
	require.Equal(t, int64(0), balance())
	spend := e.studio.client.MemberCredit.Query().Where(membercredit.SourceEQ(membercredit.SourceCheckout)).OnlyX(e.op)
	require.Equal(t, int64(-50100), spend.AmountMinor)
	require.Equal(t, bought.Data.CheckoutID, *spend.CheckoutID)

	// Credit covering the whole price: no card, no Stripe call, the pass
	// is active at once. Two such purchases race for one balance: one wins.
	credit(120000)
	intents := len(e.fake.Intents())
	e.studio.client.PassType.Create().SetName("Drop-in").SetSlug("drop").SetCategory(passtype.CategoryDropIn).
		SetPriceMinor(120000).SetCurrency("DKK").SetValidityDays(30).ExecX(e.op)
	var qs []api.DirectPurchaseQuote
	for _, slug := range []string{"ten", "drop"} {
		r, err := e.preview(e.member, api.GetCheckoutPreviewParams{PassTypeSlug: slug})
		require.NoError(t, err)
		require.Equal(t, int64(0), r.Data.ChargedTodayMinor)
		qs = append(qs, r.Data.DirectPurchaseQuote.Value)
	}
	var wg sync.WaitGroup
	out := make([]*api.CheckoutPurchaseResponse, 2)
	errs := make([]error, 2)
	for i := range qs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i], errs[i] = e.buy(e.member, qs[i], "", "credit-all-"+string(rune('a'+i)))
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		if err != nil {
			hookErr(t, err, 409, payments.CodeQuoteStale)
			continue
		}
		won++
		require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, out[i].Data.PaymentStatus)
		require.True(t, out[i].Data.PassID.Set && !out[i].Data.PassID.Null)
	}
	require.Equal(t, 1, won)
	require.Equal(t, int64(0), balance(), "never below zero")
	require.Len(t, e.fake.Intents(), intents, "credit alone calls no card")
	require.Equal(t, 1, e.studio.client.Checkout.Query().Where(checkout.CreditAppliedMinor(120000), checkout.StatusEQ(checkout.StatusPaid)).CountX(e.op))
}

// TestAgeOn: whole years, the birthday itself counting.
func TestAgeOn(t *testing.T) {
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	require.Equal(t, 17, payments.AgeOn(d(2008, 11, 27), d(2026, 11, 26)))
	require.Equal(t, 18, payments.AgeOn(d(2008, 11, 26), d(2026, 11, 26)))
	require.Equal(t, 17, payments.AgeOn(d(2008, 2, 29), d(2026, 2, 28)))
	require.Equal(t, 18, payments.AgeOn(d(2008, 2, 29), d(2026, 3, 1)))
}

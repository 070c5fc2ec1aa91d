package handlers_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/pass"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// venueToday is the studio's venue-local date, as checkout counts it.
func (e *payEnv) venueToday(t *testing.T) time.Time {
	t.Helper()
	loc, err := time.LoadLocation(e.venue.Timezone)
	require.NoError(t, err)
	l := time.Now().In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC)
}

// TestCheckoutStartDateOneOffPass: a clip card previewed with a start date
// carries it in its signed quote; the purchase charges today and the pass
// is valid from that day; a quote whose start date was changed is 400 and
// charges nothing.
func TestCheckoutStartDateOneOffPass(t *testing.T) {
	e := newPayEnv(t, false, false)
	start := e.venueToday(t).AddDate(0, 0, 10)
	res, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID,
		PassTypeSlug: "ten", StartDate: api.NewOptDate(start)})
	require.NoError(t, err)
	q := res.Data.DirectPurchaseQuote.Value
	require.True(t, q.StartDate.Set && !q.StartDate.Null)
	require.Equal(t, start, q.StartDate.Value)

	tampered := q
	tampered.StartDate = api.NewOptNilDate(start.AddDate(0, 0, 20))
	_, err = e.buy(e.member, tampered, "pm_card_visa", "sd-tampered")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	dropped := q
	dropped.StartDate = api.OptNilDate{}
	_, err = e.buy(e.member, dropped, "pm_card_visa", "sd-dropped")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	require.Empty(t, e.fake.Intents(), "a changed quote charges nothing")
	require.Zero(t, e.count(t, "checkouts"))

	bought, err := e.buy(e.member, q, "pm_card_visa", "sd-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus, "charged today")
	require.EqualValues(t, q.PayableMinor, e.fake.Intent(bought.Data.PaymentIntentID.Value)["amount"])
	require.Equal(t, start, bought.Data.FrozenCheckout.StartDate.Value)
	p := e.studio.client.Pass.GetX(e.op, bought.Data.PassID.Value)
	require.Equal(t, pass.StatusActive, p.Status)
	require.Equal(t, start, p.ValidFrom.UTC(), "the pass starts on the chosen day")
	if e.ten.ValidityDays != nil {
		require.Equal(t, start.AddDate(0, 0, *e.ten.ValidityDays), p.ValidTo.UTC(), "validity counts from the start")
	}
	co := e.studio.client.Checkout.Query().Where(checkout.ID(bought.Data.CheckoutID)).OnlyX(e.op)
	require.Equal(t, start, co.StartsOn.UTC())
}

// TestCheckoutStartDateMembership: a membership starting in 30 days is
// charged today for its first period, which runs from the start date: the
// obligation's dates and the pass's validity count from it.
func TestCheckoutStartDateMembership(t *testing.T) {
	e := newPayEnv(t, false, false)
	start := e.venueToday(t).AddDate(0, 0, 30)
	res, err := e.member.PostCheckoutPreview(e.ctx, &api.CheckoutPreviewRequest{PassTypeSlug: "unlimited",
		StartDate: api.NewOptDate(start)}, api.PostCheckoutPreviewParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	d := res.Data
	cm := d.PurchaseObligation.Commitment.Value
	require.Equal(t, start.AddDate(0, 1, 0), cm.FirstFullPriceDate, "the first renewal is a period after the start")
	require.Equal(t, start.AddDate(0, 1, 0), cm.CommitmentEndsOn)
	require.Equal(t, start.AddDate(0, 1, 0), d.PurchaseObligation.Cancellation.Value.EarliestPossibleEndOn.Value)
	q := d.DirectPurchaseQuote.Value
	require.Equal(t, start, q.StartDate.Value)

	bought, err := e.buy(e.member, q, "pm_card_visa", "sdm-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus)
	require.EqualValues(t, 59900, e.fake.Intent(bought.Data.PaymentIntentID.Value)["amount"], "the first period is charged today")
	p := e.studio.client.Pass.GetX(e.op, bought.Data.PassID.Value)
	require.Equal(t, start, p.ValidFrom.UTC())
	require.Equal(t, start.AddDate(0, 1, 0), p.ValidTo.UTC(), "one period from the start is paid")
}

// TestCheckoutStartDateFlexible: the general preview of a flexible
// membership with a start date signs it into the flexible quote and the
// purchase starts the membership then.
func TestCheckoutStartDateFlexible(t *testing.T) {
	e := newPayEnv(t, false, false)
	start := e.venueToday(t).AddDate(0, 0, 5)
	res, err := e.member.PostCheckoutPreview(e.ctx, &api.CheckoutPreviewRequest{PassTypeSlug: "flexible",
		Kind: api.NewOptCheckoutPreviewRequestKind(api.CheckoutPreviewRequestKindQuantity), Quantity: api.NewOptInt(9),
		StartDate: api.NewOptDate(start)}, api.PostCheckoutPreviewParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	q := res.Data.FlexibleQuote.Value
	require.Equal(t, start, q.StartDate.Value)
	require.Equal(t, start.AddDate(0, 1, 0), res.Data.PurchaseObligation.Commitment.Value.FirstFullPriceDate)

	tampered := q
	tampered.StartDate = api.NewOptDate(start.AddDate(0, 0, 1))
	_, err = e.generalBuy(e.member, &api.CheckoutPurchaseRequest{FlexibleQuote: api.NewOptFlexibleQuote(tampered),
		PaymentMethodID: api.NewOptString("pm_card_visa")}, "sdf-0")
	hookErr(t, err, 400, "VALIDATION_ERROR")

	bought, err := e.generalBuy(e.member, &api.CheckoutPurchaseRequest{FlexibleQuote: api.NewOptFlexibleQuote(q),
		PaymentMethodID: api.NewOptString("pm_card_visa")}, "sdf-1")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus)
	p := e.studio.client.Pass.GetX(e.op, bought.Data.PassID.Value)
	require.Equal(t, start, p.ValidFrom.UTC())
	require.Equal(t, 9, *p.FlexibleQuantity)
}

// TestCheckoutStartDateRefusals: a start date before today is 400
// VALIDATION_ERROR, one beyond 90 days 422 VALIDATION_FAILED
// (start_date_too_far); the 90th day is accepted. Nothing is written.
func TestCheckoutStartDateRefusals(t *testing.T) {
	e := newPayEnv(t, false, false)
	today := e.venueToday(t)
	preview := func(slug string, d time.Time) error {
		_, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID,
			PassTypeSlug: slug, StartDate: api.NewOptDate(d)})
		return err
	}
	for _, slug := range []string{"ten", "unlimited"} {
		hookErr(t, preview(slug, today.AddDate(0, 0, -1)), 400, "VALIDATION_ERROR")
		es := hookErr(t, preview(slug, today.AddDate(0, 0, 91)), 422, "VALIDATION_FAILED")
		require.Equal(t, "start_date_too_far", es.Response.Error.Details.Reason.Value)
		require.NoError(t, preview(slug, today.AddDate(0, 0, 90)))
		require.NoError(t, preview(slug, today))
	}
	_, err := e.member.PostCheckoutPreview(e.ctx, &api.CheckoutPreviewRequest{PassTypeSlug: "flexible",
		Kind:      api.NewOptCheckoutPreviewRequestKind(api.CheckoutPreviewRequestKindUnlimited),
		StartDate: api.NewOptDate(today.AddDate(0, 0, -3))}, api.PostCheckoutPreviewParams{XOrganizationID: e.venue.ID})
	hookErr(t, err, 400, "VALIDATION_ERROR")
	require.Zero(t, e.count(t, "checkouts"))
}

// TestFlexiblePreviewStartDate: the flexible preview takes start_date as
// the general one does (signed into its quote, refused out of bounds), and
// the flexible purchase starts the membership that day.
func TestFlexiblePreviewStartDate(t *testing.T) {
	e := newPayEnv(t, false, false)
	today := e.venueToday(t)
	params := func(d time.Time) api.PreviewFlexibleCheckoutParams {
		return api.PreviewFlexibleCheckoutParams{XOrganizationID: e.venue.ID, PassTypeSlug: "flexible",
			Kind: api.PreviewFlexibleCheckoutKindQuantity, Quantity: api.NewOptInt(9), StartDate: api.NewOptDate(d)}
	}
	_, err := e.member.PreviewFlexibleCheckout(e.ctx, params(today.AddDate(0, 0, -1)))
	hookErr(t, err, 400, "VALIDATION_ERROR")
	_, err = e.member.PreviewFlexibleCheckout(e.ctx, params(today.AddDate(0, 0, 91)))
	es := hookErr(t, err, 422, "VALIDATION_FAILED")
	require.Equal(t, "start_date_too_far", es.Response.Error.Details.Reason.Value)

	start := today.AddDate(0, 0, 14)
	res, err := e.member.PreviewFlexibleCheckout(e.ctx, params(start))
	require.NoError(t, err)
	q := res.Data.FlexibleQuote
	require.Equal(t, start, q.StartDate.Value)
	bought, err := e.generalBuy(e.member, &api.CheckoutPurchaseRequest{FlexibleQuote: api.NewOptFlexibleQuote(q),
		PaymentMethodID: api.NewOptString("pm_card_visa")}, "fps-1")
	require.NoError(t, err)
	p := e.studio.client.Pass.GetX(e.op, bought.Data.PassID.Value)
	require.Equal(t, start, p.ValidFrom.UTC())
	require.Equal(t, start.AddDate(0, 1, 0), p.ValidTo.UTC())
}

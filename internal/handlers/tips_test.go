package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

func TestTips(t *testing.T) {
	e := newPayEnv(t, false, false)
	org := e.venue.ID
	// The member attended the studio's full class (instructor Mette).
	me := e.signup(t, "tipper@pay.example", goodPassword)
	enroll(t, e.authEnv, e.op, "tipper@pay.example", "member")
	tipper := e.client(t, me.AccessToken)
	m := e.studio.client.Member.Query().AllX(e.op)
	var mid uuid.UUID
	for _, x := range m {
		if x.UserID.String() == me.User.ID.String() {
			mid = x.ID
		}
	}
	e.studio.client.Booking.Create().SetMemberID(mid).SetClassInstanceID(e.fullClass).SetStatus(booking.StatusCheckedIn).SaveX(e.op)
	create := func(c *api.Client, req api.TipCreateRequest, key string) (*api.TipCreateResponse, error) {
		return c.CreateTip(e.ctx, &req, api.CreateTipParams{XOrganizationID: org, IdempotencyKey: key})
	}
	req := api.TipCreateRequest{SourceType: api.TipCreateRequestSourceTypeClass, SourceID: e.fullClass, Amount: 25.5, Currency: "DKK",
		Message: api.NewOptString("Tak for i dag!")}

	res, err := create(tipper, req, "t-1")
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, int64(2550), d.AmountMinor)
	require.Equal(t, 25.5, d.AmountMajor)
	require.Equal(t, e.instructor, d.InstructorID.Value)
	require.Equal(t, []api.TipCreatedAvailablePaymentMethodsItem{"card", "mobilepay"}, d.AvailablePaymentMethods,
		"a Danish account taking DKK offers the wallet")
	again, err := create(tipper, req, "t-1")
	require.NoError(t, err)
	require.Equal(t, d.TipID, again.Data.TipID)
	require.Len(t, e.fake.Intents(), 1)

	// Bad input changes nothing.
	bad := req
	bad.Currency = "EUR"
	_, err = create(tipper, bad, "t-2")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	bad = req
	bad.Amount = 0.001
	_, err = create(tipper, bad, "t-3")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	bad = req
	bad.SourceID = uuid.New()
	_, err = create(tipper, bad, "t-4")
	hookErr(t, err, 404, "NOT_FOUND")
	_, err = create(e.member, req, "t-5") // did not attend
	hookErr(t, err, 422, "TIP_NOT_ALLOWED")
	require.Equal(t, 1, e.count(t, "tips"))

	// Paid in the sheet, then confirmed; the event afterwards changes nothing.
	confirm := func(c *api.Client) (*api.TipConfirmResponse, error) {
		return c.ConfirmTip(e.ctx, api.ConfirmTipParams{ID: d.TipID, XOrganizationID: org})
	}
	_, err = confirm(tipper)
	hookErr(t, err, 409, payments.CodeNotCompleted)
	obj := e.fake.SetStatus(d.PaymentIntentID, "succeeded")
	c, err := confirm(tipper)
	require.NoError(t, err)
	require.Equal(t, api.TipStateStatusSucceeded, c.Data.Status)
	body, sig := stripetest.Event("evt_tip", "payment_intent.succeeded", payAccount, obj, paySecret)
	require.Equal(t, http.StatusOK, e.postEvent(t, body, sig))
	require.Equal(t, 1, e.runEventJobs(t))
	require.Equal(t, 1, e.count(t, "payments"))
	_, err = confirm(e.member)
	hookErr(t, err, 404, "NOT_FOUND")
}

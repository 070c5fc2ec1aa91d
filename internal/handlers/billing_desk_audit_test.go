package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestAdminFeeCollectionStates: an earlier collection that is still
// processing (in_progress) or was captured but not recorded
// (captured_unrecorded) stops a new collection with 422 FEE_NOT_CHARGEABLE
// and its details.collection, charging nothing; settling or waiving the fee
// meanwhile is 422 FEE_SETTLE_REJECTED with the same state, and the fee
// stays unpaid.
func TestAdminFeeCollectionStates(t *testing.T) {
	e := newRefundEnv(t)
	e.clientCards(t)
	for _, c := range []struct {
		state paymentattempt.State
		want  string
	}{
		{paymentattempt.StateProcessing, "in_progress"},
		{paymentattempt.StateSucceeded, "captured_unrecorded"},
	} {
		fee := e.feeBooking(t, 6000, entbooking.StatusNoShow)
		e.db().PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeFeeCharge).SetSubjectID(fee.ID).
			SetNumber(1).SetState(c.state).SaveX(e.op)
		intents := len(e.fake.Intents())

		_, err := e.staff.CollectAdminFee(e.ctx, api.NewOptFeeCollectRequest(api.FeeCollectRequest{PaymentMethodID: api.NewOptString("pm_visa")}),
			api.CollectAdminFeeParams{BookingId: fee.ID, IdempotencyKey: uuid.NewString()})
		es := hookErr(t, err, 422, "FEE_NOT_CHARGEABLE")
		require.Equal(t, `"`+c.want+`"`, string(es.Response.Error.Details.AdditionalProps["collection"]), c.want)
		require.Len(t, e.fake.Intents(), intents, "nothing charged")

		_, err = e.staff.SettleAdminFee(e.ctx, &api.FeeSettleRequest{Method: api.FeeSettleRequestMethodCash},
			api.SettleAdminFeeParams{BookingId: fee.ID, IdempotencyKey: uuid.NewString()})
		es = hookErr(t, err, 422, "FEE_SETTLE_REJECTED")
		require.Equal(t, `"`+c.want+`"`, string(es.Response.Error.Details.AdditionalProps["collection"]))
		_, err = e.staff.WaiveAdminFee(e.ctx, &api.FeeWaiveRequest{Reason: "goodwill"},
			api.WaiveAdminFeeParams{BookingId: fee.ID, IdempotencyKey: uuid.NewString()})
		hookErr(t, err, 422, "FEE_SETTLE_REJECTED")

		require.Equal(t, entbooking.FeeStatusUnpaid, *e.db().Booking.GetX(e.op, fee.ID).FeeStatus)
		require.Zero(t, e.db().Payment.Query().Where(payment.KindEQ(payment.KindFee)).CountX(e.op))
	}
}

// TestPaymentOverrideLimits: the read takes 1 to 36 periods, the bulk 1 to
// 6 dates; outside them the request is 400 VALIDATION_ERROR and nothing is
// written.
func TestPaymentOverrideLimits(t *testing.T) {
	e := newBillEnv(t)
	s := e.signup(t, "limits@pay.example", goodPassword)
	enroll(t, e.authEnv, e.op, "limits@pay.example", "staff", billing.PermBillingManage)
	staff := e.client(t, s.AccessToken)
	_, err := staff.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	path := "/admin/passes/" + e.pass.String() + "/payment-overrides"

	for _, n := range []int{0, 37, -1} {
		st, b := e.rawAs(t, s.AccessToken, http.MethodGet, path+"?periods="+strconv.Itoa(n), "")
		require.Equal(t, http.StatusBadRequest, st, n)
		require.Contains(t, b, `"VALIDATION_ERROR"`, n)
	}
	list, err := staff.ListAdminPaymentOverrides(e.ctx, api.ListAdminPaymentOverridesParams{ID: e.pass, Periods: api.NewOptInt(36)})
	require.NoError(t, err)
	require.Len(t, list.Data.Periods, 36)

	dates := make([]string, 0, 7)
	for _, p := range list.Data.Periods[:7] {
		dates = append(dates, `"`+p.PeriodStart.Format("2006-01-02")+`"`)
	}
	for _, body := range []string{
		`{"action":"set","period_starts":[` + strings.Join(dates, ",") + `],"amount_minor":100}`,
		`{"action":"set","period_starts":[],"amount_minor":100}`,
		`{"action":"set","period_starts":[` + dates[0] + `],"amount_minor":-5}`,
		`{"action":"pause","period_starts":[` + dates[0] + `]}`,
	} {
		st, b := e.rawAs(t, s.AccessToken, http.MethodPost, path+"/bulk", body)
		require.Equal(t, http.StatusBadRequest, st, body)
		require.Contains(t, b, `"VALIDATION_ERROR"`, body)
	}
	require.Zero(t, e.overrideRows(t))
	st, _ := e.rawAs(t, s.AccessToken, http.MethodPost, path+"/bulk",
		`{"action":"set","period_starts":[`+strings.Join(dates[:6], ",")+`],"amount_minor":100}`)
	require.Equal(t, http.StatusOK, st, "six dates are allowed")
	require.Equal(t, 6, e.overrideRows(t))

	// A pass that does not renew at Stripe has no upcoming billing.
	plain := e.db().Pass.Create().SetMemberID(e.mid).SetPassTypeID(e.ten.ID).SetStatus(pass.StatusActive).
		SetValidFrom(time.Now().AddDate(0, -1, 0)).SetValidTo(time.Now().AddDate(0, 1, 0)).SaveX(e.op)
	_, err = staff.ListAdminPaymentOverrides(e.ctx, api.ListAdminPaymentOverridesParams{ID: plain.ID})
	hookErr(t, err, 422, billing.CodeNoUpcomingBilling)
	st, b := e.rawAs(t, s.AccessToken, http.MethodPost, "/admin/passes/"+plain.ID.String()+"/payment-overrides",
		`{"mode":"periods","period_starts":[`+dates[0]+`],"amount_minor":100}`)
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Contains(t, b, `"`+billing.CodeNoUpcomingBilling+`"`)
	require.Equal(t, 6, e.overrideRows(t))
}

// TestProfileRequestAcrossChannels: the 24-hour rule counts a field's
// request on any channel: the same field asked again on another channel is
// refused (recently_requested), nothing sent.
func TestProfileRequestAcrossChannels(t *testing.T) {
	e := newRefundEnv(t)
	desk := e.staffWith(t, "channels@pay.example", "members.contact")
	ask := func(ch api.ProfileUpdateRequestCreateChannel) error {
		_, err := desk.CreateAdminProfileUpdateRequest(e.ctx, &api.ProfileUpdateRequestCreate{
			Field: api.ProfileUpdateRequestCreateFieldEmail, Channel: ch},
			api.CreateAdminProfileUpdateRequestParams{MemberId: *e.pay.MemberID, IdempotencyKey: uuid.NewString()})
		return err
	}
	require.NoError(t, ask(api.ProfileUpdateRequestCreateChannelEmail))
	before := e.count(t, "notification_deliveries")
	for _, ch := range []api.ProfileUpdateRequestCreateChannel{api.ProfileUpdateRequestCreateChannelSMS, api.ProfileUpdateRequestCreateChannelPush} {
		es := hookErr(t, ask(ch), 422, billing.CodeProfileRequestFailed)
		require.Equal(t, billing.ReasonRecentlyRequested, es.Response.Error.Details.Reason.Or(""))
	}
	require.Equal(t, before, e.count(t, "notification_deliveries"))
}

// TestAdminRetryKeyReuse: the staff's retry of a failed renewal replays its
// answer for the same key and body, and the same key with another card is
// 409 IDEMPOTENCY_KEY_REUSE_MISMATCH; neither charges again.
func TestAdminRetryKeyReuse(t *testing.T) {
	e := newBillEnv(t)
	inv := e.renew(t, true)
	retry := func(card, key string) (*api.InvoiceRetryResponse, error) {
		return e.staff.RetryAdminInvoice(e.ctx, api.NewOptAdminInvoiceRetryRequest(api.AdminInvoiceRetryRequest{
			PaymentMethodID: api.NewOptString(card)}), api.RetryAdminInvoiceParams{ID: inv.ID, IdempotencyKey: key})
	}
	first, err := retry("pm_bill", "staff-retry-1")
	require.NoError(t, err)
	require.Equal(t, "failed", string(first.Data.Status))
	charges := e.fake.InvoiceCharges()

	again, err := retry("pm_bill", "staff-retry-1")
	require.NoError(t, err)
	require.Equal(t, first.Data, again.Data, "a retry with the same key replays")
	_, err = retry("pm_other", "staff-retry-1")
	hookErr(t, err, 409, "IDEMPOTENCY_KEY_REUSE_MISMATCH")
	require.Equal(t, charges, e.fake.InvoiceCharges(), "nothing charged again")
}

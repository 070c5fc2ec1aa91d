package handlers_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/payment"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/stripetest"
)

// clientCards gives the refund env's member a Stripe customer with three
// saved cards (a visa, a mastercard and a card in an Apple Pay wallet) and
// returns the customer id.
func (e *refundEnv) clientCards(t *testing.T) string {
	t.Helper()
	setup, err := e.member.CreateMyPaymentMethod(e.ctx, api.CreateMyPaymentMethodParams{XOrganizationID: e.venue.ID, IdempotencyKey: "cards-1"})
	require.NoError(t, err)
	cus := setup.Data.CustomerID
	e.fake.AttachCard(cus, "pm_visa", "visa", "4242", "")
	e.fake.AttachCard(cus, "pm_mc", "mastercard", "4444", "")
	e.fake.AttachCard(cus, "pm_wallet", "visa", "1881", "apple_pay")
	return cus
}

func defaultOf(cards []api.PaymentMethod) string {
	for _, c := range cards {
		if c.IsDefault {
			return c.ID
		}
	}
	return ""
}

// TestAdminClientCards: staff with members.contact list a client's cards,
// make one the default, clear it and remove one; a wallet card, another
// client, an unknown card, a missing permission and Stripe refusing each
// change nothing; a replayed removal detaches once.
func TestAdminClientCards(t *testing.T) {
	e := newRefundEnv(t)
	cus := e.clientCards(t)
	mid := *e.pay.MemberID
	desk := e.staffWith(t, "cards@pay.example", "members.contact")
	noPerm := e.staffWith(t, "nocards@pay.example", "pos.sell")
	key := func() string { return uuid.NewString() }

	list, err := desk.ListAdminClientPaymentMethods(e.ctx, api.ListAdminClientPaymentMethodsParams{MemberId: mid})
	require.NoError(t, err)
	require.Len(t, list.Data, 3)
	require.Empty(t, defaultOf(list.Data))

	_, err = noPerm.RemoveAdminClientPaymentMethod(e.ctx, api.RemoveAdminClientPaymentMethodParams{MemberId: mid, PaymentMethodId: "pm_mc", IdempotencyKey: key()})
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = desk.RemoveAdminClientPaymentMethod(e.ctx, api.RemoveAdminClientPaymentMethodParams{MemberId: mid, PaymentMethodId: "pm_wallet", IdempotencyKey: key()})
	hookErr(t, err, 403, "WALLET_FORBIDDEN")
	_, err = desk.RemoveAdminClientPaymentMethod(e.ctx, api.RemoveAdminClientPaymentMethodParams{MemberId: mid, PaymentMethodId: "pm_nope", IdempotencyKey: key()})
	hookErr(t, err, 404, "PAYMENT_METHOD_NOT_FOUND")
	_, err = desk.RemoveAdminClientPaymentMethod(e.ctx, api.RemoveAdminClientPaymentMethodParams{MemberId: uuid.New(), PaymentMethodId: "pm_mc", IdempotencyKey: key()})
	hookErr(t, err, 404, "CLIENT_NOT_FOUND")
	require.Empty(t, e.fake.Detached())

	res, err := desk.SetAdminClientDefaultPaymentMethod(e.ctx, api.SetAdminClientDefaultPaymentMethodParams{MemberId: mid, PaymentMethodId: "pm_visa", IdempotencyKey: key()})
	require.NoError(t, err)
	require.Equal(t, "pm_visa", defaultOf(res.Data))
	require.Equal(t, "pm_visa", e.fake.DefaultCard(cus))

	_, err = desk.ClearAdminClientDefaultPaymentMethod(e.ctx, api.ClearAdminClientDefaultPaymentMethodParams{MemberId: mid, PaymentMethodId: "pm_mc", IdempotencyKey: key()})
	hookErr(t, err, 409, "NOT_DEFAULT")
	e.fake.FailCardWrites(0, 1)
	_, err = desk.ClearAdminClientDefaultPaymentMethod(e.ctx, api.ClearAdminClientDefaultPaymentMethodParams{MemberId: mid, PaymentMethodId: "pm_visa", IdempotencyKey: key()})
	hookErr(t, err, 502, "STRIPE_UPDATE_FAILED")
	require.Equal(t, "pm_visa", e.fake.DefaultCard(cus))
	list, err = desk.ListAdminClientPaymentMethods(e.ctx, api.ListAdminClientPaymentMethodsParams{MemberId: mid})
	require.NoError(t, err)
	require.Equal(t, "pm_visa", defaultOf(list.Data), "a refused clear changes nothing")

	res, err = desk.ClearAdminClientDefaultPaymentMethod(e.ctx, api.ClearAdminClientDefaultPaymentMethodParams{MemberId: mid, PaymentMethodId: "pm_visa", IdempotencyKey: key()})
	require.NoError(t, err)
	require.Empty(t, defaultOf(res.Data))
	require.Empty(t, e.fake.DefaultCard(cus))

	e.fake.FailCardWrites(1, 0)
	_, err = desk.RemoveAdminClientPaymentMethod(e.ctx, api.RemoveAdminClientPaymentMethodParams{MemberId: mid, PaymentMethodId: "pm_mc", IdempotencyKey: key()})
	hookErr(t, err, 502, "STRIPE_DETACH_FAILED")
	require.Empty(t, e.fake.Detached())

	k := key()
	for range 2 { // the retry replays the first answer and detaches nothing more
		res, err = desk.RemoveAdminClientPaymentMethod(e.ctx, api.RemoveAdminClientPaymentMethodParams{MemberId: mid, PaymentMethodId: "pm_mc", IdempotencyKey: k})
		require.NoError(t, err)
		require.Len(t, res.Data, 2)
	}
	require.Equal(t, []string{"pm_mc"}, e.fake.Detached())
	require.Equal(t, 1, e.db().AuditLog.Query().Where(auditlog.Action("member_payment_method_removed")).CountX(e.op))
	require.Equal(t, 1, e.db().AuditLog.Query().Where(auditlog.Action("member_default_payment_method_cleared")).CountX(e.op))
}

// TestAdminDeskCharge: pos.sell charges a saved card once per key (a
// payment of method card, the card made the default); too small an amount,
// a card not the client's, a decline and a card asking to authenticate
// charge nothing and write no payment.
func TestAdminDeskCharge(t *testing.T) {
	e := newRefundEnv(t)
	cus := e.clientCards(t)
	mid := *e.pay.MemberID
	pos := e.staffWith(t, "pos@pay.example", "pos.sell")
	charge := func(c *api.Client, member uuid.UUID, pm string, amount int64, key string) (*api.DeskChargeResponse, error) {
		return c.CreateAdminDeskCharge(e.ctx, &api.DeskChargeRequest{PaymentMethodID: pm, AmountMinor: amount,
			Description: api.NewOptString("Towel and water"), SetAsDefault: api.NewOptBool(true)},
			api.CreateAdminDeskChargeParams{MemberId: member, IdempotencyKey: key})
	}
	payments := func() int { return e.db().Payment.Query().CountX(e.op) }
	before := payments()

	_, err := charge(e.staff, mid, "pm_visa", 12500, uuid.NewString())
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = charge(pos, mid, "pm_visa", 100, uuid.NewString())
	es := hookErr(t, err, 422, "CHARGE_NOT_CHARGEABLE")
	require.Equal(t, "below_minimum", es.Response.Error.Details.Reason.Value)
	_, err = charge(pos, mid, "pm_nope", 12500, uuid.NewString())
	require.Equal(t, "not_on_wallet", hookErr(t, err, 422, "CHARGE_NOT_CHARGEABLE").Response.Error.Details.Reason.Value)
	_, err = charge(pos, uuid.New(), "pm_visa", 12500, uuid.NewString())
	hookErr(t, err, 404, "CLIENT_NOT_FOUND")
	require.Empty(t, e.fake.Intents()[1:], "only the member's purchase was charged")

	key := uuid.NewString()
	first, err := charge(pos, mid, "pm_visa", 12500, key)
	require.NoError(t, err)
	dc := first.Data
	require.Equal(t, api.DeskChargeStatusPaid, dc.Status)
	require.Equal(t, int64(2500), dc.VatMinor, "25 % VAT inside 125.00")
	require.True(t, dc.DefaultSet)
	require.Equal(t, "pm_visa", e.fake.DefaultCard(cus))
	again, err := charge(pos, mid, "pm_visa", 12500, key)
	require.NoError(t, err)
	require.Equal(t, dc.ID, again.Data.ID)
	require.Len(t, e.fake.Intents(), 2, "the purchase and one desk charge")
	pay := e.db().Payment.GetX(e.op, dc.PaymentID.Value)
	require.Equal(t, payment.MethodCard, pay.Method)
	require.Equal(t, int64(12500), pay.AmountMinor)
	require.Equal(t, payment.StatusSucceeded, pay.Status)
	require.Equal(t, before+1, payments())
	require.Equal(t, 2, e.eventCount(t, "payment.succeeded"))

	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"})
	_, err = charge(pos, mid, "pm_mc", 5000, uuid.NewString())
	hookErr(t, err, 402, "CHARGE_DECLINED")
	e.fake.Script(stripetest.Outcome{Status: "requires_action"})
	_, err = charge(pos, mid, "pm_mc", 5000, uuid.NewString())
	hookErr(t, err, 402, "CHARGE_REQUIRES_ACTION")
	last := e.fake.Intents()[len(e.fake.Intents())-1]
	require.Equal(t, "canceled", e.fake.Intent(last)["status"], "the intent that waited on the client is cancelled")
	require.Equal(t, before+1, payments(), "refused charges write no payment")
}

// feeBooking gives the refund env's member a booking owing fee minor units
// under status (late-cancelled or no-show).
func (e *refundEnv) feeBooking(t *testing.T, fee int64, status entbooking.Status) *ent.Booking {
	t.Helper()
	cl := e.db().ClassInstance.Query().FirstX(e.op)
	return e.db().Booking.Create().SetMemberID(*e.pay.MemberID).SetClassInstanceID(cl.ID).
		SetStatus(status).SetCancelledAt(time.Now()).SetLateCancelFeeMinor(fee).
		SetFeeStatus(entbooking.FeeStatusUnpaid).SaveX(e.op)
}

// TestAdminFeeCollect: a fee is collected from the client's default card
// once, also when staff collect it five times at once; a fee that is not
// unpaid, a client without a card, a decline and an unknown outcome charge
// nothing more, and a fee whose collection is unsettled cannot be settled.
func TestAdminFeeCollect(t *testing.T) {
	e := newRefundEnv(t)
	mid := *e.pay.MemberID
	fee := e.feeBooking(t, 7500, entbooking.StatusNoShow)
	collect := func(b uuid.UUID, pm string) (*api.AdminFeeResponse, error) {
		req := api.OptFeeCollectRequest{}
		if pm != "" {
			req = api.NewOptFeeCollectRequest(api.FeeCollectRequest{PaymentMethodID: api.NewOptString(pm)})
		}
		return e.staff.CollectAdminFee(e.ctx, req, api.CollectAdminFeeParams{BookingId: b, IdempotencyKey: uuid.NewString()})
	}
	collection := func(err error) string {
		es := hookErr(t, err, 422, "FEE_NOT_CHARGEABLE")
		return string(es.Response.Error.Details.AdditionalProps["collection"])
	}
	_, err := collect(fee.ID, "")
	require.Equal(t, `"not_chargeable"`, collection(err), "no saved card")
	_, err = collect(uuid.New(), "")
	hookErr(t, err, 404, "NOT_FOUND")

	cus := e.clientCards(t)
	_, err = e.staffWith(t, "fee-cards@pay.example", "members.contact").SetAdminClientDefaultPaymentMethod(e.ctx,
		api.SetAdminClientDefaultPaymentMethodParams{MemberId: mid, PaymentMethodId: "pm_visa", IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, "pm_visa", e.fake.DefaultCard(cus))

	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		codes = map[string]int{}
	)
	for range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := collect(fee.ID, "")
			code := "ok"
			if err != nil {
				code = errorOf(t, err).Response.Error.Code
			} else {
				require.Equal(t, api.AdminFeeFeeStatusCharged, res.Data.FeeStatus)
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	require.GreaterOrEqual(t, codes["ok"], 1, codes)
	require.Equal(t, 5, codes["ok"]+codes["FEE_NOT_CHARGEABLE"]+codes["FEE_NOT_UNPAID"], codes)
	feePays := e.db().Payment.Query().Where(payment.KindEQ(payment.KindFee)).AllX(e.op)
	require.Len(t, feePays, 1, "one fee payment")
	require.Equal(t, int64(7500), feePays[0].AmountMinor)
	require.Equal(t, payment.MethodCard, feePays[0].Method)
	creates := 0
	for _, r := range e.fake.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/payment_intents" {
			creates++
		}
	}
	require.Len(t, e.fake.Intents(), 2, "the purchase and one fee charge (%d creation requests)", creates)
	require.Equal(t, 1, e.eventCount(t, "fee.charged"))
	_, err = collect(fee.ID, "")
	hookErr(t, err, 422, "FEE_NOT_UNPAID")

	// A decline charges nothing; the fee stays unpaid and may be settled.
	declined := e.feeBooking(t, 5000, entbooking.StatusLateCancelled)
	e.fake.Script(stripetest.Outcome{Decline: "insufficient_funds"})
	_, err = collect(declined.ID, "pm_mc")
	hookErr(t, err, 422, "FEE_CHARGE_DECLINED")
	require.Equal(t, entbooking.FeeStatusUnpaid, *e.db().Booking.GetX(e.op, declined.ID).FeeStatus)

	// An unknown outcome: ambiguous, then reconciliation required; the fee
	// cannot be settled meanwhile.
	unknown := e.feeBooking(t, 5000, entbooking.StatusLateCancelled)
	e.fake.Script(stripetest.Outcome{Hang: 1500 * time.Millisecond, HangTimes: 3})
	_, err = collect(unknown.ID, "")
	require.Equal(t, `"ambiguous"`, collection(err))
	_, err = collect(unknown.ID, "")
	require.Equal(t, `"reconciliation_required"`, collection(err))
	_, err = e.staff.SettleAdminFee(e.ctx, &api.FeeSettleRequest{Method: api.FeeSettleRequestMethodCash},
		api.SettleAdminFeeParams{BookingId: unknown.ID, IdempotencyKey: uuid.NewString()})
	hookErr(t, err, 422, "FEE_SETTLE_REJECTED")
	require.Len(t, e.db().Payment.Query().Where(payment.KindEQ(payment.KindFee)).AllX(e.op), 1)
}

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
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/refund"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/receipts"
	"github.com/venueplatform/venue/internal/payments/stripetest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// refundEnv is a studio taking card payments, a member who paid 1,200.00
// DKK for a ten-clip card, and a staff member who may refund anything.
type refundEnv struct {
	*payEnv
	pay   *ent.Payment
	staff *api.Client
}

func newRefundEnv(t *testing.T) *refundEnv {
	t.Helper()
	e := &refundEnv{payEnv: newPayEnv(t, false, false)}
	_, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "buy-1")
	require.NoError(t, err)
	e.pay = e.db().Payment.Query().OnlyX(e.op)
	require.Equal(t, int64(120000), e.pay.AmountMinor)
	e.staff = e.staffWith(t, "desk@pay.example", "billing.refunds.full")
	return e
}

// staffWith returns a bearer client of a new staff member holding perms.
func (e *refundEnv) staffWith(t *testing.T, email string, perms ...string) *api.Client {
	t.Helper()
	s := e.signup(t, email, goodPassword)
	enroll(t, e.authEnv, e.op, email, "staff", perms...)
	c := e.client(t, s.AccessToken)
	_, err := c.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	return c
}

func (e *refundEnv) review(c *api.Client, pay uuid.UUID, amount float64, key string) (*api.RefundReviewResponse, error) {
	return c.CreateRefundReview(e.ctx, &api.RefundReviewRequest{Amount: amount},
		api.CreateRefundReviewParams{PaymentId: pay, IdempotencyKey: key})
}

func (e *refundEnv) refund(c *api.Client, pay uuid.UUID, req *api.RefundRequest, key string) (*api.RefundResponse, error) {
	return c.RefundPayment(e.ctx, req, api.RefundPaymentParams{PaymentId: pay, IdempotencyKey: key})
}

// reviewed reviews amount and returns the refund request that repeats it.
func (e *refundEnv) reviewed(t *testing.T, amount float64) *api.RefundRequest {
	t.Helper()
	rv, err := e.review(e.staff, e.pay.ID, amount, uuid.NewString())
	require.NoError(t, err)
	return &api.RefundRequest{ReviewIntentID: rv.Data.ReviewIntentID, Confirmation: rv.Data.ConfirmationPhrase, Amount: amount}
}

func (e *refundEnv) refundCreates() map[string]int {
	out := map[string]int{}
	for _, r := range e.fake.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/refunds" {
			out[r.IdempotencyKey]++
			if r.StripeAccount != payAccount {
				out["wrong account"]++
			}
		}
	}
	return out
}

func (e *refundEnv) eventCount(t *testing.T, typ string) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM events WHERE organization_id = $1 AND type = $2`, e.venue.ID, typ).Scan(&n))
	return n
}

// TestRefundPartialThenFull: a reviewed partial refund goes to the card
// through one Stripe refund under the attempt's key, a replay refunds
// nothing more, a full refund is then refused past the rest, the rest is
// refundable, and the member reads both receipts.
func TestRefundPartialThenFull(t *testing.T) {
	e := newRefundEnv(t)

	rv, err := e.review(e.staff, e.pay.ID, 500, "rv-1")
	require.NoError(t, err)
	require.Equal(t, "REFUND 500.00 DKK", rv.Data.ConfirmationPhrase)
	require.Equal(t, int64(120000), rv.Data.RefundableMinor)
	require.True(t, rv.Data.SameDay)
	require.True(t, rv.Data.OriginalPaymentMethod.Available)

	// The wrong phrase is refused and changes nothing.
	req := &api.RefundRequest{ReviewIntentID: rv.Data.ReviewIntentID, Confirmation: "REFUND 5000.00 DKK", Amount: 500,
		Reason: api.NewOptString("class cancelled"), ClientReceiptComment: api.NewOptString("Sorry for the cancelled class"),
		NotifyClient: api.NewOptBool(true)}
	_, err = e.refund(e.staff, e.pay.ID, req, "rf-0")
	es := hookErr(t, err, 409, "REFUND_REVIEW_REQUIRED")
	require.Equal(t, "confirmation_mismatch", es.Response.Error.Details.Reason.Value)
	require.Zero(t, e.count(t, "refunds"))
	require.Empty(t, e.refundCreates())

	req.Confirmation = rv.Data.ConfirmationPhrase
	res, err := e.refund(e.staff, e.pay.ID, req, "rf-1")
	require.NoError(t, err)
	d := res.Data
	require.Equal(t, api.RefundViewStatusSucceeded, d.Status)
	require.Equal(t, int64(50000), d.AmountMinor)
	require.Equal(t, api.RefundViewDestinationIDOriginalPaymentMethod, d.DestinationID)
	at := e.db().PaymentAttempt.Query().Where(paymentattempt.PurposeEQ(paymentattempt.PurposeRefund)).OnlyX(e.op)
	require.Equal(t, paymentattempt.StateSucceeded, at.State)
	require.Equal(t, map[string]int{"v1:refund:" + at.ID.String() + ":create": 1}, e.refundCreates())
	require.Equal(t, payment.StatusPartiallyRefunded, e.db().Payment.GetX(e.op, e.pay.ID).Status)

	// The same key and body replays; the used review refunds nothing more.
	again, err := e.refund(e.staff, e.pay.ID, req, "rf-1")
	require.NoError(t, err)
	require.Equal(t, d.ID, again.Data.ID)
	_, err = e.refund(e.staff, e.pay.ID, req, "rf-2")
	hookErr(t, err, 409, "REFUND_REVIEW_REQUIRED")
	require.Len(t, e.fake.Refunds(), 1)

	// A full refund is refused past the rest, in the review and in the
	// refund of an earlier review.
	_, err = e.review(e.staff, e.pay.ID, 1200, "rv-2")
	hookErr(t, err, 422, "REFUND_EXCEEDS_REMAINING")
	req2 := e.reviewed(t, 700)
	req2.Amount = 1200
	_, err = e.refund(e.staff, e.pay.ID, req2, "rf-3")
	hookErr(t, err, 422, "REFUND_EXCEEDS_REMAINING")
	require.Len(t, e.fake.Refunds(), 1)

	// The rest is refundable.
	req2.Amount = 700
	res2, err := e.refund(e.staff, e.pay.ID, req2, "rf-4")
	require.NoError(t, err)
	require.Equal(t, api.RefundViewStatusSucceeded, res2.Data.Status)
	require.Equal(t, payment.StatusRefunded, e.db().Payment.GetX(e.op, e.pay.ID).Status)
	_, err = e.review(e.staff, e.pay.ID, 0.01, "rv-3")
	hookErr(t, err, 422, "PAYMENT_NOT_REFUNDABLE")
	require.Len(t, e.fake.Refunds(), 2)
	require.Equal(t, 2, e.eventCount(t, "refund.succeeded"))

	// The member was told of the first (notify_client) only.
	var mails int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM notification_deliveries WHERE organization_id = $1 AND kind = 'refund.receipt'`, e.venue.ID).Scan(&mails))
	require.Equal(t, 1, mails)

	// The member reads both receipts, newest first, and their PDFs.
	mine, err := e.member.ListMyRefunds(e.ctx, api.ListMyRefundsParams{XOrganizationID: e.venue.ID, Limit: api.NewOptInt(1)})
	require.NoError(t, err)
	require.Len(t, mine.Data, 1)
	require.Equal(t, res2.Data.ID, mine.Data[0].ID)
	require.True(t, mine.Meta.HasMore)
	next, err := e.member.ListMyRefunds(e.ctx, api.ListMyRefundsParams{XOrganizationID: e.venue.ID, After: api.NewOptString(mine.Meta.NextCursor.Value)})
	require.NoError(t, err)
	require.Len(t, next.Data, 1)
	require.Equal(t, d.ID, next.Data[0].ID)
	pdf, err := e.member.GetMyRefundPdf(e.ctx, api.GetMyRefundPdfParams{XOrganizationID: e.venue.ID, RefundId: d.ID})
	require.NoError(t, err)
	text := pdfText(t, pdf.Data)
	require.Contains(t, text, "Refund receipt R-"+strings.ToUpper(d.ID.String()[:8]))
	require.Contains(t, text, "500.00 DKK")
	require.Contains(t, text, "Sorry for the cancelled class")
	staffPDF, err := e.staff.GetAdminRefundReceipt(e.ctx, api.GetAdminRefundReceiptParams{RefundId: d.ID})
	require.NoError(t, err)
	require.Contains(t, pdfText(t, staffPDF.Data), "500.00 DKK")

	// Another member sees none of them.
	other := e.memberClient(t, "other@pay.example")
	_, err = other.GetMyRefundPdf(e.ctx, api.GetMyRefundPdfParams{XOrganizationID: e.venue.ID, RefundId: d.ID})
	hookErr(t, err, 404, "NOT_FOUND")
	list, err := other.ListMyRefunds(e.ctx, api.ListMyRefundsParams{XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.Empty(t, list.Data)
}

func pdfText(t *testing.T, r interface{ Read([]byte) (int, error) }) string {
	t.Helper()
	var b strings.Builder
	buf := make([]byte, 32<<10)
	for {
		n, err := r.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	require.True(t, strings.HasPrefix(b.String(), "%PDF"))
	return receipts.PDFText([]byte(b.String()))
}

// TestRefundConcurrentNeverExceeds: eight reviewed refunds of 1,000.00 of a
// 1,200.00 payment sent at once: one is made, every other is refused past
// the rest, and Stripe saw one refund.
func TestRefundConcurrentNeverExceeds(t *testing.T) {
	e := newRefundEnv(t)
	const n = 8
	reqs := make([]*api.RefundRequest, n)
	for i := range reqs {
		reqs[i] = e.reviewed(t, 1000)
	}
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		codes = map[string]int{}
	)
	for i := range reqs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, err := e.refund(e.staff, e.pay.ID, reqs[i], fmt.Sprintf("race-%d", i))
			code := "ok"
			if err != nil {
				code = errorOf(t, err).Response.Error.Code
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}(i)
	}
	wg.Wait()
	require.Equal(t, map[string]int{"ok": 1, "REFUND_EXCEEDS_REMAINING": n - 1}, codes)
	require.Len(t, e.fake.Refunds(), 1)
	rs := e.db().Refund.Query().Where(refund.StatusNEQ(refund.StatusFailed)).AllX(e.op)
	require.Len(t, rs, 1)
	require.Equal(t, int64(100000), rs[0].AmountMinor)
}

// TestRefundBadInput: bad amounts, another venue's payment, a same-day
// permission on an older payment, an external refund without its
// reference, an SMS receipt and an API key each get the contract's error
// and change nothing.
func TestRefundBadInput(t *testing.T) {
	e := newRefundEnv(t)
	for _, amount := range []float64{0, -5, 10.001} {
		_, err := e.review(e.staff, e.pay.ID, amount, uuid.NewString())
		hookErr(t, err, 400, "VALIDATION_ERROR")
	}
	good := e.reviewed(t, 100)
	for _, amount := range []float64{0, -100, 99.999} {
		bad := *good
		bad.Amount = amount
		_, err := e.refund(e.staff, e.pay.ID, &bad, uuid.NewString())
		hookErr(t, err, 400, "VALIDATION_ERROR")
	}

	// Another venue's payment looks unknown.
	other, err := venue.Create(e.ctx, e.db(), venue.CreateParams{Name: "Other", Slug: "other-refunds"})
	require.NoError(t, err)
	otherOp := viewer.NewContext(e.ctx, viewer.Operator{Org: other.ID, Name: "test"})
	now := time.Now()
	foreign := e.db().Payment.Create().SetAmountMinor(5000).SetCurrency("DKK").SetStatus(payment.StatusSucceeded).
		SetPaidAt(now).SetProcessorPaymentID("pi_other").SaveX(otherOp)
	_, err = e.review(e.staff, foreign.ID, 10, uuid.NewString())
	hookErr(t, err, 404, "NOT_FOUND")
	bad := *good
	_, err = e.refund(e.staff, foreign.ID, &bad, uuid.NewString())
	hookErr(t, err, 404, "NOT_FOUND")

	// Same-day refunders may refund today's payments only.
	sameDay := e.staffWith(t, "sameday@pay.example", "billing.refunds.same_day")
	old := e.db().Payment.Create().SetMemberID(*e.pay.MemberID).SetAmountMinor(9000).SetCurrency("DKK").
		SetStatus(payment.StatusSucceeded).SetPaidAt(now.AddDate(0, 0, -3)).SetKind(payment.KindDropIn).SaveX(e.op)
	_, err = e.review(sameDay, old.ID, 10, uuid.NewString())
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = e.review(sameDay, e.pay.ID, 10, uuid.NewString())
	require.NoError(t, err)
	nobody := e.staffWith(t, "nobody@pay.example", "members.contact")
	_, err = e.review(nobody, e.pay.ID, 10, uuid.NewString())
	hookErr(t, err, 403, "ACCESS_DENIED")

	// A cash payment goes back externally only, with its reference.
	oldReview, err := e.review(e.staff, old.ID, 90, uuid.NewString())
	require.NoError(t, err)
	require.False(t, oldReview.Data.OriginalPaymentMethod.Available)
	cash := &api.RefundRequest{ReviewIntentID: oldReview.Data.ReviewIntentID, Confirmation: oldReview.Data.ConfirmationPhrase, Amount: 90}
	_, err = e.refund(e.staff, old.ID, cash, uuid.NewString())
	hookErr(t, err, 422, "REFUND_DESTINATION_UNAVAILABLE")
	cash.DestinationID = api.NewOptRefundRequestDestinationID(api.RefundRequestDestinationIDExternal)
	_, err = e.refund(e.staff, old.ID, cash, uuid.NewString())
	hookErr(t, err, 400, "VALIDATION_ERROR")

	// SMS receipts are not offered.
	sms := *good
	sms.NotifyClient = api.NewOptBool(true)
	sms.ReceiptChannels = []api.RefundRequestReceiptChannelsItem{api.RefundRequestReceiptChannelsItemSMS}
	_, err = e.refund(e.staff, e.pay.ID, &sms, uuid.NewString())
	hookErr(t, err, 422, "REFUND_SMS_UNAVAILABLE")

	require.Zero(t, e.count(t, "refunds"))
	require.Empty(t, e.fake.Refunds())
	require.Equal(t, payment.StatusSucceeded, e.db().Payment.GetX(e.op, e.pay.ID).Status)

	// The external refund with its reference is made without Stripe.
	cash.MethodReference = api.NewOptString("cash at the desk")
	res, err := e.refund(e.staff, old.ID, cash, uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, api.RefundViewStatusSucceeded, res.Data.Status)
	require.Equal(t, payment.StatusRefunded, e.db().Payment.GetX(e.op, old.ID).Status)
	require.Empty(t, e.fake.Refunds())
}

// TestRefundUnknownOutcomeReconciled: a refund whose answer is lost holds
// its amount (409 UNKNOWN_WRITE_OUTCOME) and is settled by reconcile
// reading Stripe; a retry with the same key then answers the refund.
func TestRefundUnknownOutcomeReconciled(t *testing.T) {
	e := newRefundEnv(t)
	e.fake.ScriptRefunds(stripetest.RefundOutcome{Drop: 5})
	req := e.reviewed(t, 1200)
	_, err := e.refund(e.staff, e.pay.ID, req, "lost-1")
	hookErr(t, err, 409, "UNKNOWN_WRITE_OUTCOME")
	rf := e.db().Refund.Query().OnlyX(e.op)
	require.Equal(t, refund.StatusPending, rf.Status)
	at := e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(rf.ID)).OnlyX(e.op)
	require.Equal(t, paymentattempt.StateUnknown, at.State)
	// The held amount is not refundable again meanwhile.
	_, err = e.review(e.staff, e.pay.ID, 1, uuid.NewString())
	hookErr(t, err, 422, "REFUND_EXCEEDS_REMAINING")

	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	rf = e.db().Refund.GetX(e.op, rf.ID)
	require.Equal(t, refund.StatusSucceeded, rf.Status)
	require.NotNil(t, rf.ProcessorRefundID)
	require.Equal(t, payment.StatusRefunded, e.db().Payment.GetX(e.op, e.pay.ID).Status)
	require.Len(t, e.fake.Refunds(), 1)
	require.Equal(t, 1, e.eventCount(t, "refund.succeeded"))
}

// TestRefundInboundEvents: a pending refund settles by refund.updated; a
// refund made at Stripe's dashboard is recorded from charge.refunded once,
// and our rows stay in step with Stripe's amount_refunded.
func TestRefundInboundEvents(t *testing.T) {
	e := newRefundEnv(t)
	e.fake.ScriptRefunds(stripetest.RefundOutcome{Status: "pending"})
	res, err := e.refund(e.staff, e.pay.ID, e.reviewed(t, 200), "pend-1")
	require.NoError(t, err)
	require.Equal(t, api.RefundViewStatusPending, res.Data.Status)
	require.Equal(t, payment.StatusSucceeded, e.db().Payment.GetX(e.op, e.pay.ID).Status)
	rf := e.db().Refund.GetX(e.op, res.Data.ID)

	body, sig := stripetest.Event("evt_rf_1", "refund.updated", payAccount, e.fake.SetRefundStatus(*rf.ProcessorRefundID, "succeeded"), paySecret)
	require.Equal(t, 200, e.postEvent(t, body, sig))
	require.Equal(t, 1, e.runEventJobs(t))
	require.Equal(t, refund.StatusSucceeded, e.db().Refund.GetX(e.op, rf.ID).Status)
	require.Equal(t, payment.StatusPartiallyRefunded, e.db().Payment.GetX(e.op, e.pay.ID).Status)

	// Stripe's charge.refunded for our own refund records nothing new.
	intent := *e.pay.ProcessorPaymentID
	body, sig = stripetest.Event("evt_ch_1", "charge.refunded", payAccount, e.fake.Charge(intent), paySecret)
	require.Equal(t, 200, e.postEvent(t, body, sig))
	e.runEventJobs(t)
	require.Equal(t, 1, e.count(t, "refunds"))

	// A dashboard refund of 300.00 is recorded once, from either event.
	body, sig = stripetest.Event("evt_ch_2", "charge.refunded", payAccount, e.fake.RefundOutside(intent, 30000), paySecret)
	require.Equal(t, 200, e.postEvent(t, body, sig))
	require.Equal(t, 200, e.postEvent(t, body, sig))
	body3, sig3 := stripetest.Event("evt_ch_3", "charge.refunded", payAccount, e.fake.Charge(intent), paySecret)
	require.Equal(t, 200, e.postEvent(t, body3, sig3))
	require.Equal(t, 2, e.runEventJobs(t))
	outside := e.db().Refund.Query().Where(refund.OriginEQ(refund.OriginProcessor)).OnlyX(e.op)
	require.Equal(t, int64(30000), outside.AmountMinor)
	require.Equal(t, refund.StatusSucceeded, outside.Status)

	// What is left to refund follows: 1,200.00 - 200.00 - 300.00.
	rv, err := e.review(e.staff, e.pay.ID, 700, uuid.NewString())
	require.NoError(t, err)
	require.Equal(t, int64(70000), rv.Data.RefundableMinor)
	_, err = e.review(e.staff, e.pay.ID, 700.01, uuid.NewString())
	hookErr(t, err, 422, "REFUND_EXCEEDS_REMAINING")
	require.Equal(t, 2, e.eventCount(t, "refund.succeeded"))
}

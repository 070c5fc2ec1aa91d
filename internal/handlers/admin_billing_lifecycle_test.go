package handlers_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// lifeEnv is billEnv with a billing manager allowed to notify clients.
type lifeEnv struct {
	*billEnv
	boss      *api.Client
	bossToken string
}

func newLifeEnv(t *testing.T) *lifeEnv {
	t.Helper()
	e := &lifeEnv{billEnv: newBillEnv(t)}
	s := e.signup(t, "boss@pay.example", goodPassword)
	enroll(t, e.authEnv, e.op, "boss@pay.example", "staff", billing.PermPassesManage, billing.PermBillingManage, "notifications.send")
	e.bossToken = s.AccessToken
	e.boss = e.client(t, s.AccessToken)
	_, err := e.boss.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	return e
}

// post sends a raw JSON body as the billing manager.
func (e *lifeEnv) post(t *testing.T, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.url+"/api/v1"+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+e.bossToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", uuid.NewString())
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func (e *lifeEnv) audits(t *testing.T, action string) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM audit_logs WHERE organization_id = $1 AND action = $2`, e.venue.ID, action).Scan(&n))
	return n
}

// foreignPass is a pass of another venue.
func (e *lifeEnv) foreignPass(t *testing.T) uuid.UUID {
	t.Helper()
	op, _ := e.otherVenue(t, "elsewhere")
	e.signup(t, "far@pay.example", goodPassword)
	enroll(t, e.authEnv, op, "far@pay.example", "member")
	m := e.db().Member.Query().Where(member.HasUserWith(user.Email("far@pay.example"))).OnlyX(op)
	pt := e.db().PassType.Create().SetName("Far").SetSlug("far").SetCategory(passtype.CategoryMembership).
		SetPriceMinor(100).SetCurrency("DKK").SaveX(op)
	return e.db().Pass.Create().SetMemberID(m.ID).SetPassTypeID(pt.ID).SetStatus(pass.StatusExpired).
		SetValidFrom(time.Now().AddDate(0, -2, 0)).SaveX(op).ID
}

// plainPass is a pass of the member that does not renew, in status st.
func (e *lifeEnv) plainPass(t *testing.T, st pass.Status) *ent.Pass {
	t.Helper()
	return e.db().Pass.Create().SetMemberID(e.mid).SetPassTypeID(e.ten.ID).SetStatus(st).
		SetValidFrom(time.Now().UTC().Truncate(24*time.Hour).AddDate(0, -2, 0)).SetValidTo(time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -3)).SaveX(e.op)
}

func (e *lifeEnv) deliveries(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM notification_deliveries WHERE organization_id = $1 AND kind = $2`,
		e.venue.ID, billing.KindRenewalPaymentLink).Scan(&n))
	return n
}

// TestRenewalRecovery: staff read a declined renewal, send the member a pay
// link (only when asked, on a channel that reaches them), see the charge
// declined again (422 RENEWAL_CHARGE_FAILED), then recover it; refusals
// (permission, another venue's pass, no channel, nothing owed) change
// nothing.
func TestRenewalRecovery(t *testing.T) {
	e := newLifeEnv(t)
	foreign := e.foreignPass(t)

	got, err := e.staff.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: e.pass})
	require.NoError(t, err)
	require.True(t, got.Data.Invoice.IsNull(), "nothing owed yet is an empty recovery, not an error")
	require.False(t, got.Data.Actions.ChargeSavedCard)
	_, err = e.staff.ChargeAdminRenewalRecovery(e.ctx, api.OptRenewalRecoveryChargeRequest{},
		api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: "r-0"})
	_, code, _ := apiCode(t, err)
	require.Equal(t, billing.CodeNoOpenInvoice, code)

	inv := e.renew(t, true)
	got, err = e.staff.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: e.pass})
	require.NoError(t, err)
	iv, ok := got.Data.Invoice.Get()
	require.True(t, ok)
	require.Equal(t, inv.ID, iv.ID)
	require.Equal(t, int64(49900), iv.BalanceMinor)
	require.Equal(t, api.RenewalRecoveryResponseDataPassStatusPastDue, got.Data.PassStatus)
	require.True(t, got.Data.SavedCard)
	require.True(t, got.Data.Actions.ChargeSavedCard)
	require.True(t, got.Data.Actions.SendPaymentLink)

	_, err = e.viewer.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: e.pass})
	st, _, _ := apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st)
	for _, id := range []uuid.UUID{foreign, uuid.New()} {
		_, err = e.staff.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: id})
		st, _, _ = apiCode(t, err)
		require.Equal(t, http.StatusNotFound, st)
		_, err = e.boss.ChargeAdminRenewalRecovery(e.ctx, api.OptRenewalRecoveryChargeRequest{},
			api.ChargeAdminRenewalRecoveryParams{ID: id, IdempotencyKey: "r-" + id.String()})
		st, _, _ = apiCode(t, err)
		require.Equal(t, http.StatusNotFound, st)
	}

	// The pay link: silent unless asked; a channel is required; the sender
	// needs notifications.send; SMS (off at this venue) reaches nobody.
	link := "/admin/passes/" + e.pass.String() + "/renewal-recovery/payment-link"
	for _, body := range []string{`{}`, `{"notify":{"audience":{"clients":true}}}`,
		`{"notify":{"channels":{"email":true}}}`, `{"notify":{"audience":{"clients":false},"channels":{"email":true}}}`} {
		st, b := e.post(t, link, body)
		require.Equal(t, http.StatusBadRequest, st, body)
		require.Contains(t, b, billing.CodeChannelRequired, body)
	}
	st, b := e.post(t, link, `{"notify":{"audience":{"clients":true},"channels":{"push":true}}}`)
	require.Equal(t, http.StatusBadRequest, st, b)
	email := api.NewOptRenewalPaymentLinkRequestNotify(api.RenewalPaymentLinkRequestNotify{
		Audience: api.NewOptRenewalPaymentLinkRequestNotifyAudience(api.RenewalPaymentLinkRequestNotifyAudience{Clients: api.NewOptBool(true)}),
		Channels: api.NewOptRenewalPaymentLinkRequestNotifyChannels(api.RenewalPaymentLinkRequestNotifyChannels{Email: api.NewOptBool(true)})})
	_, err = e.staff.SendAdminRenewalPaymentLink(e.ctx, &api.RenewalPaymentLinkRequest{Notify: email},
		api.SendAdminRenewalPaymentLinkParams{ID: e.pass, IdempotencyKey: "l-0"})
	st, _, _ = apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st, "a pay link needs notifications.send")
	st, b = e.post(t, link, `{"notify":{"audience":{"clients":true},"channels":{"sms":true}}}`)
	require.Equal(t, http.StatusUnprocessableEntity, st, b)
	require.Contains(t, b, billing.CodeRenewalPaymentLinkFail)
	require.Zero(t, e.deliveries(t), "nothing queued by a refusal")
	require.Zero(t, e.audits(t, billing.AuditRenewalPaymentLinkSent))

	sent, err := e.boss.SendAdminRenewalPaymentLink(e.ctx, &api.RenewalPaymentLinkRequest{Notify: email, Message: api.NewOptString("Hi from the desk")},
		api.SendAdminRenewalPaymentLinkParams{ID: e.pass, IdempotencyKey: "l-1"})
	require.NoError(t, err)
	require.Equal(t, 1, sent.Data.Queued)
	require.Equal(t, inv.ID, sent.Data.InvoiceID)
	require.Equal(t, "/api/v1/me/invoices/"+inv.ID.String()+"/retry", sent.Data.PayPath)
	require.Equal(t, 1, e.deliveries(t))
	require.Equal(t, 1, e.audits(t, billing.AuditRenewalPaymentLinkSent))
	var body string
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT body FROM notification_deliveries WHERE organization_id = $1 AND kind = $2`,
		e.venue.ID, billing.KindRenewalPaymentLink).Scan(&body))
	require.Contains(t, body, inv.Number)
	require.Contains(t, body, "Hi from the desk")

	// A declined charge: 422 with the codes, the decline recorded.
	charges := e.fake.InvoiceCharges()
	_, err = e.staff.ChargeAdminRenewalRecovery(e.ctx, api.OptRenewalRecoveryChargeRequest{},
		api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: "r-1"})
	st, code, details := apiCode(t, err)
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Equal(t, billing.CodeRenewalChargeFailed, code)
	require.Contains(t, string(details.AdditionalProps["decline_code"]), "insufficient_funds")
	require.Equal(t, charges+1, e.fake.InvoiceCharges())
	require.Equal(t, "past_due", string(e.db().Pass.GetX(e.op, e.pass).Status))

	// A wrong expected balance charges nothing.
	_, err = e.staff.ChargeAdminRenewalRecovery(e.ctx, api.NewOptRenewalRecoveryChargeRequest(api.RenewalRecoveryChargeRequest{
		ExpectedAmountMinor: api.NewOptInt64(1)}), api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: "r-2"})
	_, code, _ = apiCode(t, err)
	require.Equal(t, billing.CodeBalanceChanged, code)
	require.Equal(t, charges+1, e.fake.InvoiceCharges())

	e.fake.DeclineRenewals(nil)
	res, err := e.staff.ChargeAdminRenewalRecovery(e.ctx, api.OptRenewalRecoveryChargeRequest{},
		api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: "r-3"})
	require.NoError(t, err)
	require.Equal(t, api.RenewalRecoveryChargeResponseDataStatusSucceeded, res.Data.Status)
	require.Equal(t, "paid", res.Data.InvoiceStatus)
	require.Equal(t, api.RenewalRecoveryChargeResponseDataPassStatusActive, res.Data.PassStatus)
	require.Equal(t, charges+2, e.fake.InvoiceCharges())
	got, err = e.staff.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: e.pass})
	require.NoError(t, err)
	require.True(t, got.Data.Invoice.IsNull())
	_, err = e.boss.SendAdminRenewalPaymentLink(e.ctx, &api.RenewalPaymentLinkRequest{Notify: email},
		api.SendAdminRenewalPaymentLinkParams{ID: e.pass, IdempotencyKey: "l-2"})
	_, code, _ = apiCode(t, err)
	require.Equal(t, billing.CodeNoOpenInvoice, code)
}

// TestRecoveryChargesOnce: 25 concurrent recovery charges and member
// retries of one declined renewal make one charge.
func TestRecoveryChargesOnce(t *testing.T) {
	e := newLifeEnv(t)
	inv := e.renew(t, true)
	e.fake.DeclineRenewals(nil)
	charges := e.fake.InvoiceCharges()
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := 0; i < 25; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var err error
			if i%5 == 0 {
				_, err = e.member.RetryMyInvoice(context.Background(), api.OptInvoiceRetryRequest{},
					api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: e.venue.ID})
			} else {
				_, err = e.staff.ChargeAdminRenewalRecovery(context.Background(), api.OptRenewalRecoveryChargeRequest{},
					api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
			}
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				ok++
			}
		}(i)
	}
	wg.Wait()
	require.Equal(t, charges+1, e.fake.InvoiceCharges(), "one charge")
	require.GreaterOrEqual(t, ok, 1)
	require.Equal(t, "paid", string(e.db().Invoice.GetX(e.op, inv.ID).Status))
	var pays int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM payments WHERE organization_id = $1 AND status = 'succeeded' AND kind = 'renewal'`, e.venue.ID).Scan(&pays))
	require.Equal(t, 1, pays)
}

// TestSubscriptionLifecycle: the timeline, moving the next charge and
// changing the amount; the next renewal follows both at the fake Stripe;
// bad dates and amounts, a missing permission and a pass that does not renew
// change nothing.
func TestSubscriptionLifecycle(t *testing.T) {
	e := newLifeEnv(t)
	_ = e.renew(t, false)
	plain := e.plainPass(t, pass.StatusActive)
	sub := e.db().Subscription.Query().OnlyX(e.op)

	_, err := e.staff.GetAdminSubscriptionTimeline(e.ctx, api.GetAdminSubscriptionTimelineParams{ID: plain.ID})
	_, code, _ := apiCode(t, err)
	require.Equal(t, billing.CodePassNotEligible, code)

	before := *e.db().Pass.GetX(e.op, e.pass).ValidTo
	_, fakeNext := e.fake.SubscriptionAmount(*sub.ProcessorSubscriptionID)
	path := "/admin/passes/" + e.pass.String()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	for _, c := range []struct{ body, code string }{
		{`{"new_date":"` + today.AddDate(0, 0, -1).Format(time.DateOnly) + `"}`, billing.CodeInvalidBillingDate},
		{`{"new_date":"` + today.AddDate(1, 0, 3).Format(time.DateOnly) + `"}`, billing.CodeInvalidBillingDate},
		{`{"new_date":"2026-13-01"}`, "VALIDATION_ERROR"},
		{`{"new_date":"` + today.AddDate(0, 0, 10).Format(time.DateOnly) + `","x":1}`, "VALIDATION_ERROR"},
	} {
		st, b := e.post(t, path+"/next-charge", c.body)
		require.Contains(t, b, c.code, c.body)
		require.NotEqual(t, http.StatusOK, st)
	}
	st, b := e.post(t, "/admin/passes/"+plain.ID.String()+"/next-charge", `{"new_date":"`+today.AddDate(0, 0, 10).Format(time.DateOnly)+`"}`)
	require.Equal(t, http.StatusUnprocessableEntity, st, b)
	require.Contains(t, b, billing.CodeNoStripeSubscription)
	for _, body := range []string{`{"amount_minor":0}`, `{"amount_minor":-5}`, `{"amount_minor":12.5}`, `{"amount_minor":"100"}`, `{}`} {
		st, b := e.post(t, path+"/recurring-amount", body)
		require.Equal(t, http.StatusBadRequest, st, body)
		require.Contains(t, b, "VALIDATION_ERROR", body)
	}
	st, b = e.post(t, "/admin/passes/"+plain.ID.String()+"/recurring-amount", `{"amount_minor":100}`)
	require.Equal(t, http.StatusUnprocessableEntity, st, b)
	require.Contains(t, b, billing.CodeNoBillableItem)
	newDate := today.AddDate(0, 0, 45)
	_, err = e.staff.ShiftAdminNextCharge(e.ctx, &api.ShiftNextChargeRequest{NewDate: newDate},
		api.ShiftAdminNextChargeParams{ID: e.pass, IdempotencyKey: "n-0"})
	st, _, _ = apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st, "billing.manage")
	require.Equal(t, before, *e.db().Pass.GetX(e.op, e.pass).ValidTo, "nothing changed")
	amount, next := e.fake.SubscriptionAmount(*sub.ProcessorSubscriptionID)
	require.Equal(t, int64(49900), amount)
	require.Equal(t, fakeNext, next)
	require.Zero(t, e.audits(t, billing.AuditNextChargeShifted)+e.audits(t, billing.AuditRecurringAmountSet))

	moved, err := e.boss.ShiftAdminNextCharge(e.ctx, &api.ShiftNextChargeRequest{NewDate: newDate, Reason: api.NewOptString("travel")},
		api.ShiftAdminNextChargeParams{ID: e.pass, IdempotencyKey: "n-1"})
	require.NoError(t, err)
	require.Equal(t, newDate, moved.Data.ValidTo.Value)
	_, next = e.fake.SubscriptionAmount(*sub.ProcessorSubscriptionID)
	require.WithinDuration(t, newDate, next, 14*time.Hour, "the start of the new day in the venue's zone")
	require.WithinDuration(t, next, moved.Data.Subscription.NextChargeAt.Value, time.Second)

	changed, err := e.boss.ChangeAdminRecurringAmount(e.ctx, &api.RecurringAmountRequest{AmountMinor: 39900},
		api.ChangeAdminRecurringAmountParams{ID: e.pass, IdempotencyKey: "a-1"})
	require.NoError(t, err)
	require.Equal(t, int64(39900), changed.Data.Subscription.AmountMinor)
	amount, _ = e.fake.SubscriptionAmount(*sub.ProcessorSubscriptionID)
	require.Equal(t, int64(39900), amount)

	// The billing clock follows: the next renewal falls on the new day and
	// bills the new amount.
	invs := e.db().Invoice.Query().CountX(e.op)
	_, err = e.clock.Advance(context.Background(), newDate.Add(-26*time.Hour))
	require.NoError(t, err)
	require.Equal(t, invs, e.db().Invoice.Query().CountX(e.op), "no renewal before the new day")
	inv := e.renew(t, false)
	require.Equal(t, int64(39900), inv.TotalMinor)
	require.Equal(t, "paid", string(inv.Status))

	tl, err := e.staff.GetAdminSubscriptionTimeline(e.ctx, api.GetAdminSubscriptionTimelineParams{ID: e.pass})
	require.NoError(t, err)
	require.Len(t, tl.Data.Invoices, 2)
	require.Equal(t, int64(39900), tl.Data.Invoices[0].TotalMinor)
	require.Equal(t, int64(49900), tl.Data.Invoices[1].TotalMinor)
	require.Len(t, tl.Data.Changes, 2)
	require.Equal(t, billing.AuditRecurringAmountSet, tl.Data.Changes[0].Action)
	require.Equal(t, billing.AuditNextChargeShifted, tl.Data.Changes[1].Action)
	require.Contains(t, string(tl.Data.Changes[1].Details["reason"]), "travel")
	require.Equal(t, int64(39900), tl.Data.Subscription.AmountMinor)
}

// TestReactivatePass: an expired pass that does not renew is active again
// until the new day, with its audit entry; a recurring membership, a pass in
// another state, a day in the past and another venue's pass are refused and
// change nothing.
func TestReactivatePass(t *testing.T) {
	e := newLifeEnv(t)
	foreign := e.foreignPass(t)
	expired := e.plainPass(t, pass.StatusExpired)
	active := e.plainPass(t, pass.StatusActive)
	end := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 1, 0)

	_, err := e.viewer.ReactivateAdminPass(e.ctx, &api.ReactivatePassRequest{NewEndDate: end},
		api.ReactivateAdminPassParams{ID: expired.ID, IdempotencyKey: "x-0"})
	st, _, _ := apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st)
	_, err = e.staff.ReactivateAdminPass(e.ctx, &api.ReactivatePassRequest{NewEndDate: end},
		api.ReactivateAdminPassParams{ID: foreign, IdempotencyKey: "x-1"})
	st, _, _ = apiCode(t, err)
	require.Equal(t, http.StatusNotFound, st)
	_, err = e.staff.ReactivateAdminPass(e.ctx, &api.ReactivatePassRequest{NewEndDate: end},
		api.ReactivateAdminPassParams{ID: active.ID, IdempotencyKey: "x-2"})
	_, code, _ := apiCode(t, err)
	require.Equal(t, billing.CodePassNotEligible, code)
	_, err = e.staff.ReactivateAdminPass(e.ctx, &api.ReactivatePassRequest{NewEndDate: end.AddDate(0, -2, 0)},
		api.ReactivateAdminPassParams{ID: expired.ID, IdempotencyKey: "x-3"})
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusBadRequest, st)
	require.Equal(t, "VALIDATION_ERROR", code)
	e.db().Pass.UpdateOneID(e.pass).SetStatus(pass.StatusExpired).ExecX(e.op)
	_, err = e.staff.ReactivateAdminPass(e.ctx, &api.ReactivatePassRequest{NewEndDate: end},
		api.ReactivateAdminPassParams{ID: e.pass, IdempotencyKey: "x-4"})
	_, code, _ = apiCode(t, err)
	require.Equal(t, billing.CodeRecurringUnsupported, code)
	require.Equal(t, "expired", string(e.db().Pass.GetX(e.op, expired.ID).Status))
	require.Zero(t, e.audits(t, billing.AuditPassReactivated))

	res, err := e.staff.ReactivateAdminPass(e.ctx, &api.ReactivatePassRequest{NewEndDate: end, Reason: api.NewOptString("injury")},
		api.ReactivateAdminPassParams{ID: expired.ID, IdempotencyKey: "x-5"})
	require.NoError(t, err)
	require.Equal(t, api.AdminPassStatusResponseDataStatusActive, res.Data.Status)
	require.Equal(t, end, res.Data.ValidTo.Value)
	require.Equal(t, 1, e.audits(t, billing.AuditPassReactivated))
}

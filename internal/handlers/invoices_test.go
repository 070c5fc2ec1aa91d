package handlers_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/billing/billingclock"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// billEnv is a studio whose member holds a monthly membership renewing on a
// fake Stripe, with a billing clock, a second member and staff.
type billEnv struct {
	*payEnv
	clock  *billingclock.Clock
	mid    uuid.UUID
	pass   uuid.UUID
	other  *api.Client
	staff  *api.Client
	viewer *api.Client // staff without passes.manage
	token  string
}

func newBillEnv(t *testing.T) *billEnv {
	t.Helper()
	e := &billEnv{payEnv: newPayEnv(t, false, false)}
	e.fake.SetEventSecret(paySecret)
	db := e.db()
	monthly := passtype.BillingIntervalMonth
	pt := db.PassType.Create().SetName("Monthly").SetSlug("monthly-renew").SetCategory(passtype.CategoryMembership).
		SetPriceMinor(49900).SetCurrency(e.ten.Currency).SetIsRecurring(true).SetBillingInterval(monthly).
		SetBillingIntervalCount(1).SaveX(e.op)
	m := db.Member.Query().Where(member.HasUserWith(user.Email("buyer@pay.example"))).OnlyX(e.op)
	e.mid = m.ID
	start := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, 1)
	p := db.Pass.Create().SetMemberID(m.ID).SetPassTypeID(pt.ID).SetValidFrom(start.AddDate(0, -1, 0)).SetValidTo(start).SaveX(e.op)
	e.pass = p.ID
	db.PaymentCustomer.Create().SetMemberID(m.ID).SetAccountID(payAccount).SetCustomerID("cus_bill").
		SetDefaultPaymentMethodID("pm_bill").SaveX(e.op)
	_, err := billing.New(e.svc).Start(e.op, p.ID)
	require.NoError(t, err)
	e.clock = &billingclock.Clock{Fake: e.fake, Pay: e.svc, Now: time.Now()}
	e.other = e.memberClient(t, "other@pay.example")
	e.staff = e.staffClient(t, "desk@pay.example", billing.PermPassesManage, billing.PermViewInsights)
	e.viewer = e.staffClient(t, "look@pay.example", billing.PermViewInsights)
	s := e.signup(t, "raw@pay.example", goodPassword)
	enroll(t, e.authEnv, e.op, "raw@pay.example", "staff", billing.PermPassesManage)
	e.token = s.AccessToken
	_, err = e.client(t, s.AccessToken).SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	return e
}

func (e *billEnv) staffClient(t *testing.T, email string, perms ...string) *api.Client {
	t.Helper()
	s := e.signup(t, email, goodPassword)
	enroll(t, e.authEnv, e.op, email, "staff", perms...)
	c := e.client(t, s.AccessToken)
	_, err := c.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	return c
}

// renew moves the billing clock past the pass's period end.
func (e *billEnv) renew(t *testing.T, decline bool) *ent.Invoice {
	t.Helper()
	e.fake.DeclineRenewals(func(string, int, int) string {
		if decline {
			return "insufficient_funds"
		}
		return ""
	})
	p := e.db().Pass.GetX(e.op, e.pass)
	_, err := e.clock.Advance(context.Background(), p.ValidTo.Add(time.Hour))
	require.NoError(t, err)
	return e.db().Invoice.Query().Order(ent.Desc("created_at")).FirstX(e.op)
}

func apiCode(t *testing.T, err error) (int, string, api.ErrorDetails) {
	t.Helper()
	var se *api.ErrorStatusCode
	require.True(t, errors.As(err, &se), "an error envelope, got %v", err)
	return se.StatusCode, se.Response.Error.Code, se.Response.Error.Details
}

// rawPost sends a JSON body as the raw staff token, for bodies the
// generated client refuses to send.
func (e *billEnv) rawPost(t *testing.T, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.url+"/api/v1"+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+e.token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", uuid.NewString())
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestMemberInvoices: a declined renewal is an overdue invoice the member
// lists, reads, prints,
// sees among the outstanding and failed payments, and pays by retry; another
// member cannot see it; a wrong expected amount charges nothing.
func TestMemberInvoices(t *testing.T) {
	e := newBillEnv(t)
	inv := e.renew(t, true)
	require.Equal(t, "overdue", string(inv.Status))
	org := e.venue.ID

	list, err := e.member.ListMyInvoices(e.ctx, api.ListMyInvoicesParams{XOrganizationID: org})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	row := list.Data[0]
	require.Equal(t, inv.Number, row.InvoiceNumber)
	require.Equal(t, api.InvoiceRowStatusOverdue, row.Status)
	require.Equal(t, int64(49900), row.OutstandingBalanceMinor)
	require.True(t, row.CanPayNow)
	require.False(t, list.Meta.HasMore)

	det, err := e.member.GetMyInvoice(e.ctx, api.GetMyInvoiceParams{ID: inv.ID, XOrganizationID: org})
	require.NoError(t, err)
	require.Len(t, det.Data.Lines, 1)
	require.Equal(t, int64(9980), det.Data.Totals.VatMinor, "25 % VAT inside 499.00")
	require.Equal(t, "Monthly", det.Data.Lines[0].Description)

	doc, err := e.member.GetMyInvoiceDocument(e.ctx, api.GetMyInvoiceDocumentParams{ID: inv.ID, XOrganizationID: org})
	require.NoError(t, err)
	html, _ := io.ReadAll(doc.Data)
	require.Contains(t, string(html), inv.Number)
	require.Contains(t, string(html), "<!DOCTYPE html>")

	_, err = e.other.GetMyInvoice(e.ctx, api.GetMyInvoiceParams{ID: inv.ID, XOrganizationID: org})
	st, code, _ := apiCode(t, err)
	require.Equal(t, http.StatusNotFound, st)
	require.Equal(t, "NOT_FOUND", code)
	_, err = e.other.RetryMyInvoice(e.ctx, api.OptInvoiceRetryRequest{}, api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: org})
	_, code, _ = apiCode(t, err)
	require.Equal(t, "NOT_FOUND", code)

	out, err := e.member.GetMyOutstandingPayments(e.ctx, api.GetMyOutstandingPaymentsParams{XOrganizationID: org})
	require.NoError(t, err)
	require.Equal(t, 1, out.Data.Count)
	item := out.Data.Items[0]
	require.Equal(t, api.OutstandingItemKindMembershipRenewal, item.Kind)
	require.Equal(t, api.OutstandingActionTypeRetryInvoice, item.Action.Type)
	require.Equal(t, "/api/v1/me/invoices/"+inv.ID.String()+"/retry", item.Action.Path)
	require.Equal(t, int64(49900), out.Data.Totals[0].AmountMinor)

	failed, err := e.member.ListMyFailedPayments(e.ctx, api.ListMyFailedPaymentsParams{XOrganizationID: org})
	require.NoError(t, err)
	require.Len(t, failed.Data, 1)
	require.Equal(t, inv.ID, failed.Data[0].InvoiceID.Value)

	charges := e.fake.InvoiceCharges()
	_, err = e.member.RetryMyInvoice(e.ctx, api.NewOptInvoiceRetryRequest(api.InvoiceRetryRequest{ExpectedAmountMinor: api.NewOptInt64(100)}),
		api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: org})
	st, code, details := apiCode(t, err)
	require.Equal(t, http.StatusConflict, st)
	require.Equal(t, billing.CodeBalanceChanged, code)
	require.Contains(t, details.AdditionalProps, "next_step")
	require.Equal(t, charges, e.fake.InvoiceCharges())

	e.fake.DeclineRenewals(nil)
	res, err := e.member.RetryMyInvoice(e.ctx, api.NewOptInvoiceRetryRequest(api.InvoiceRetryRequest{ExpectedAmountMinor: api.NewOptInt64(49900)}),
		api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: org})
	require.NoError(t, err)
	require.Equal(t, api.InvoiceRetryResultStatusSucceeded, res.Data.Status)
	require.Equal(t, charges+1, e.fake.InvoiceCharges())
	require.Equal(t, "active", string(e.db().Pass.GetX(e.op, e.pass).Status))

	_, err = e.member.RetryMyInvoice(e.ctx, api.OptInvoiceRetryRequest{}, api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: org})
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Equal(t, "ALREADY_PAID", code)

	conf, err := e.member.ConfirmMyInvoiceRetry(e.ctx, &api.InvoiceRetryConfirmRequest{PaymentIntentID: "pi_unknown"},
		api.ConfirmMyInvoiceRetryParams{ID: inv.ID, XOrganizationID: org})
	require.NoError(t, err)
	require.Equal(t, api.InvoiceRetryConfirmResponseDataStatusPaid, conf.Data.Status)

	out, err = e.member.GetMyOutstandingPayments(e.ctx, api.GetMyOutstandingPaymentsParams{XOrganizationID: org})
	require.NoError(t, err)
	require.Zero(t, out.Data.Count)
	list, err = e.member.ListMyInvoices(e.ctx, api.ListMyInvoicesParams{XOrganizationID: org})
	require.NoError(t, err)
	require.Equal(t, api.InvoiceRowStatusPaid, list.Data[0].Status)
}

// TestStaffBillingDesk: the failed payments list, external settlement with
// its audit entry, comp; permissions, another venue's or an unknown invoice,
// and bad amounts (zero, negative, not an integer, above the balance) or a
// future date change nothing.
func TestStaffBillingDesk(t *testing.T) {
	e := newBillEnv(t)
	inv := e.renew(t, true)

	_, err := e.member.ListAdminFailedPayments(e.ctx, api.ListAdminFailedPaymentsParams{})
	st, _, _ := apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st)
	fl, err := e.viewer.ListAdminFailedPayments(e.ctx, api.ListAdminFailedPaymentsParams{})
	require.NoError(t, err)
	require.Len(t, fl.Data, 1)
	require.Equal(t, inv.ID, fl.Data[0].InvoiceID.Value)
	require.Equal(t, "overdue", fl.Data[0].InvoiceStatus.Value)

	_, err = e.viewer.CompAdminInvoice(e.ctx, &api.AdminInvoiceCompRequest{Reason: "goodwill"},
		api.CompAdminInvoiceParams{ID: inv.ID, IdempotencyKey: "c-0"})
	st, _, _ = apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st, "comp needs passes.manage")

	path := "/admin/billing/invoices/" + inv.ID.String() + "/settle-externally"
	for _, body := range []string{
		`{"method":"cash","amount_minor":0}`,
		`{"method":"cash","amount_minor":-100}`,
		`{"method":"cash","amount_minor":12.5}`,
		`{"method":"cash","amount_minor":"499"}`,
		`{"method":"cash","amount_minor":49901}`,
		`{"method":"cash","amount_minor":49900,"paid_at":"` + time.Now().Add(72*time.Hour).UTC().Format(time.RFC3339) + `"}`,
		`{"method":"cheque","amount_minor":49900}`,
		`{"method":"cash","amount_minor":49900,"extra":1}`,
	} {
		st, b := e.rawPost(t, path, body)
		require.Equal(t, http.StatusBadRequest, st, body)
		require.Contains(t, b, "VALIDATION_ERROR", body)
	}
	st, b := e.rawPost(t, "/admin/billing/invoices/"+uuid.NewString()+"/settle-externally", `{"method":"cash","amount_minor":49900}`)
	require.Equal(t, http.StatusNotFound, st, b)
	require.Equal(t, "overdue", string(e.db().Invoice.GetX(e.op, inv.ID).Status), "nothing changed")
	var before int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM audit_logs WHERE organization_id = $1 AND action = 'payment.settled_externally'`, e.venue.ID).Scan(&before))
	require.Zero(t, before)

	res, err := e.staff.SettleAdminInvoiceExternally(e.ctx, &api.AdminInvoiceSettleRequest{
		Method: api.AdminInvoiceSettleRequestMethodCash, AmountMinor: 49900, Note: api.NewOptString("paid at the desk")},
		api.SettleAdminInvoiceExternallyParams{ID: inv.ID, IdempotencyKey: "s-1"})
	got := invoiceAnswer(t, res, err)
	require.Equal(t, api.InvoiceDetailStatusPaid, got.Data.Status)
	require.Equal(t, "active", string(e.db().Pass.GetX(e.op, e.pass).Status))
	// The same key and body replays; the invoice is paid once.
	res, err = e.staff.SettleAdminInvoiceExternally(e.ctx, &api.AdminInvoiceSettleRequest{
		Method: api.AdminInvoiceSettleRequestMethodCash, AmountMinor: 49900, Note: api.NewOptString("paid at the desk")},
		api.SettleAdminInvoiceExternallyParams{ID: inv.ID, IdempotencyKey: "s-1"})
	again := invoiceAnswer(t, res, err)
	require.Equal(t, got.Data.ID, again.Data.ID)
	_, err = e.staff.CompAdminInvoice(e.ctx, &api.AdminInvoiceCompRequest{Reason: "goodwill"},
		api.CompAdminInvoiceParams{ID: inv.ID, IdempotencyKey: "c-1"})
	_, code, _ := apiCode(t, err)
	require.Equal(t, "ALREADY_PAID", code)

	// The next month declines too; staff comp it.
	inv2 := e.renew(t, true)
	require.NotEqual(t, inv.ID, inv2.ID)
	compRes, err := e.staff.CompAdminInvoice(e.ctx, &api.AdminInvoiceCompRequest{Reason: "injury"},
		api.CompAdminInvoiceParams{ID: inv2.ID, IdempotencyKey: "c-2"})
	comped := invoiceAnswer(t, compRes, err)
	require.Equal(t, api.InvoiceDetailStatusPaid, comped.Data.Status)
	var receipts int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM payments WHERE organization_id = $1 AND status = 'succeeded' AND kind = 'renewal'`, e.venue.ID).Scan(&receipts))
	require.Equal(t, 1, receipts, "the cash payment only: a comp moves no money")
	var audits int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM audit_logs WHERE organization_id = $1 AND action IN ('payment.settled_externally', 'payment.comped')`, e.venue.ID).Scan(&audits))
	require.Equal(t, 2, audits)
}

// TestSuspendPass: staff suspend an active pass and lift it; the wrong
// state, a missing permission, an unknown pass or another venue's change
// nothing.
func TestSuspendPass(t *testing.T) {
	e := newBillEnv(t)
	_ = e.renew(t, false)
	_, err := e.viewer.SuspendAdminPass(e.ctx, api.OptAdminPassStatusRequest{}, api.SuspendAdminPassParams{ID: e.pass, IdempotencyKey: "p-0"})
	st, _, _ := apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st)
	_, err = e.staff.UnsuspendAdminPass(e.ctx, api.OptAdminPassStatusRequest{}, api.UnsuspendAdminPassParams{ID: e.pass, IdempotencyKey: "p-1"})
	_, code, _ := apiCode(t, err)
	require.Equal(t, billing.CodeNotSuspended, code)
	_, err = e.staff.SuspendAdminPass(e.ctx, api.OptAdminPassStatusRequest{}, api.SuspendAdminPassParams{ID: uuid.New(), IdempotencyKey: "p-2"})
	st, _, _ = apiCode(t, err)
	require.Equal(t, http.StatusNotFound, st)
	require.Equal(t, "active", string(e.db().Pass.GetX(e.op, e.pass).Status))

	res, err := e.staff.SuspendAdminPass(e.ctx, api.NewOptAdminPassStatusRequest(api.AdminPassStatusRequest{Reason: api.NewOptString("unpaid locker")}),
		api.SuspendAdminPassParams{ID: e.pass, IdempotencyKey: "p-3"})
	require.NoError(t, err)
	require.Equal(t, api.AdminPassStatusResponseDataStatusSuspended, res.Data.Status)
	_, err = e.staff.SuspendAdminPass(e.ctx, api.OptAdminPassStatusRequest{}, api.SuspendAdminPassParams{ID: e.pass, IdempotencyKey: "p-4"})
	_, code, _ = apiCode(t, err)
	require.Equal(t, billing.CodePassNotEligible, code)
	// A renewal paid while suspended leaves it suspended.
	_ = e.renew(t, false)
	require.Equal(t, "suspended", string(e.db().Pass.GetX(e.op, e.pass).Status))
	res, err = e.staff.UnsuspendAdminPass(e.ctx, api.OptAdminPassStatusRequest{}, api.UnsuspendAdminPassParams{ID: e.pass, IdempotencyKey: "p-5"})
	require.NoError(t, err)
	require.Equal(t, api.AdminPassStatusResponseDataStatusActive, res.Data.Status)
}

// TestInvoiceRetryLimit: retry and confirm share 5 requests per minute per
// user; the sixth is 429 and charges nothing.
func TestInvoiceRetryLimit(t *testing.T) {
	e := newBillEnv(t)
	inv := e.renew(t, true)
	charges := e.fake.InvoiceCharges()
	wrong := api.NewOptInvoiceRetryRequest(api.InvoiceRetryRequest{ExpectedAmountMinor: api.NewOptInt64(1)})
	for i := 0; i < 5; i++ {
		_, err := e.member.RetryMyInvoice(e.ctx, wrong, api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: e.venue.ID})
		_, code, _ := apiCode(t, err)
		require.Equal(t, billing.CodeBalanceChanged, code)
	}
	_, err := e.member.RetryMyInvoice(e.ctx, api.OptInvoiceRetryRequest{}, api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: e.venue.ID})
	st, _, _ := apiCode(t, err)
	require.Equal(t, http.StatusTooManyRequests, st)
	require.Equal(t, charges, e.fake.InvoiceCharges())
}

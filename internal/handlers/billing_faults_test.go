package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// payAttempts are the invoice's pay attempts, oldest first.
func (e *lifeEnv) payAttempts(t *testing.T, inv uuid.UUID) []*ent.PaymentAttempt {
	t.Helper()
	return e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(inv),
		paymentattempt.PurposeEQ(paymentattempt.PurposeInvoicePay)).Order(ent.Asc(paymentattempt.FieldNumber)).AllX(e.op)
}

// renewalPayments counts the pass's succeeded renewal payment rows (a
// decline is a failed row of its own).
func (e *lifeEnv) renewalPayments(t *testing.T) int {
	t.Helper()
	return e.db().Payment.Query().Where(payment.KindEQ(payment.KindRenewal), payment.PassID(e.pass),
		payment.StatusEQ(payment.StatusSucceeded)).CountX(e.op)
}

func (e *lifeEnv) memberRetry(inv uuid.UUID) (*api.InvoiceRetryResponse, error) {
	return e.member.RetryMyInvoice(e.ctx, api.OptInvoiceRetryRequest{}, api.RetryMyInvoiceParams{ID: inv, XOrganizationID: e.venue.ID})
}

func (e *lifeEnv) confirm(t *testing.T, inv uuid.UUID, intent string) api.InvoiceRetryConfirmResponseData {
	t.Helper()
	res, err := e.member.ConfirmMyInvoiceRetry(e.ctx, &api.InvoiceRetryConfirmRequest{PaymentIntentID: intent},
		api.ConfirmMyInvoiceRetryParams{ID: inv, XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	return res.Data
}

// requireUnpaid checks the invoice is still unpaid with no renewal payment
// beyond paid.
func (e *lifeEnv) requireUnpaid(t *testing.T, inv uuid.UUID, paid int) {
	t.Helper()
	require.NotEqual(t, invoice.StatusPaid, e.db().Invoice.GetX(e.op, inv).Status)
	require.Equal(t, paid, e.renewalPayments(t))
}

// TestRenewalRequiresAction: staff's recovery charge of a renewal whose
// card asks the member to authenticate is 402 RENEWAL_REQUIRES_ACTION with
// the intent; the attempt waits (requires_action) holding the invoice, so a
// second charge is PAYMENT_PENDING and charges nothing; the member's bank
// finishing it (invoice.paid) pays the invoice once and settles the attempt.
func TestRenewalRequiresAction(t *testing.T) {
	e := newLifeEnv(t)
	inv := e.renew(t, true)
	e.fake.DeclineRenewals(nil)
	e.fake.RequireAuthentication("pm_bill")
	charges, paid := e.fake.InvoiceCharges(), e.renewalPayments(t)
	renewed := e.eventCount(t, "membership.renewed")

	_, err := e.staff.ChargeAdminRenewalRecovery(e.ctx, api.OptRenewalRecoveryChargeRequest{},
		api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	es := errorOf(t, err)
	require.Equal(t, http.StatusPaymentRequired, es.StatusCode)
	require.Equal(t, "RENEWAL_REQUIRES_ACTION", es.Response.Error.Code)
	require.Equal(t, charges+1, e.fake.InvoiceCharges())
	ats := e.payAttempts(t, inv.ID)
	require.Len(t, ats, 1)
	require.Equal(t, paymentattempt.StateRequiresAction, ats[0].State)
	require.NotNil(t, ats[0].ProcessorObjectID)
	require.NotNil(t, ats[0].LiveSubjectID, "the waiting charge holds the invoice")
	e.requireUnpaid(t, inv.ID, paid)

	_, err = e.staff.ChargeAdminRenewalRecovery(e.ctx, api.OptRenewalRecoveryChargeRequest{},
		api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	requireCode(t, err, http.StatusConflict, "PAYMENT_PENDING")
	_, err = e.memberRetry(inv.ID)
	requireCode(t, err, http.StatusConflict, "PAYMENT_PENDING")
	require.Equal(t, charges+1, e.fake.InvoiceCharges(), "nothing charged twice")
	require.Len(t, e.payAttempts(t, inv.ID), 1)

	evs := append(e.fake.TakeEvents(), e.fake.FinishPayment(true)...)
	e.postAll(t, evs)
	require.Equal(t, invoice.StatusPaid, e.db().Invoice.GetX(e.op, inv.ID).Status)
	require.Equal(t, paid+1, e.renewalPayments(t))
	require.Equal(t, renewed+1, e.eventCount(t, "membership.renewed"), "one membership.renewed")
	at := e.db().PaymentAttempt.GetX(e.op, ats[0].ID)
	require.Equal(t, paymentattempt.StateSucceeded, at.State)
	require.Nil(t, at.LiveSubjectID)
	e.postAll(t, evs) // Stripe posts again: nothing changes
	require.Equal(t, paid+1, e.renewalPayments(t))
	require.Equal(t, renewed+1, e.eventCount(t, "membership.renewed"), "one membership.renewed")
	require.Equal(t, charges+1, e.fake.InvoiceCharges())
}

// TestRenewalAsksToAuthenticate: the member's retry of a renewal whose card
// asks to authenticate answers 200 requires_action with the client secret
// and the venue's account; a second retry is PAYMENT_PENDING; confirm says
// pending until the member has authenticated, then paid, once, and
// Stripe's events after it change nothing.
func TestRenewalAsksToAuthenticate(t *testing.T) {
	e := newLifeEnv(t)
	inv := e.renew(t, true)
	e.fake.DeclineRenewals(nil)
	e.fake.RequireAuthentication("pm_bill")
	charges, paid := e.fake.InvoiceCharges(), e.renewalPayments(t)
	renewed := e.eventCount(t, "membership.renewed")

	res, err := e.memberRetry(inv.ID)
	require.NoError(t, err)
	require.Equal(t, api.InvoiceRetryResultStatusRequiresAction, res.Data.Status)
	intent := res.Data.PaymentIntentID.Value
	require.NotEmpty(t, intent)
	require.Equal(t, intent+"_secret_fake", res.Data.ClientSecret.Value)
	require.Equal(t, payAccount, res.Data.ProcessorAccountID.Value)
	require.Equal(t, charges+1, e.fake.InvoiceCharges())

	_, err = e.memberRetry(inv.ID)
	requireCode(t, err, http.StatusConflict, "PAYMENT_PENDING")
	require.Equal(t, "pending", string(e.confirm(t, inv.ID, intent).Status))
	e.requireUnpaid(t, inv.ID, paid)

	evs := append(e.fake.TakeEvents(), e.fake.FinishPayment(true)...)
	require.Equal(t, "paid", string(e.confirm(t, inv.ID, intent).Status))
	require.Equal(t, invoice.StatusPaid, e.db().Invoice.GetX(e.op, inv.ID).Status)
	require.Equal(t, paid+1, e.renewalPayments(t))
	require.Equal(t, renewed+1, e.eventCount(t, "membership.renewed"), "one membership.renewed")
	ats := e.payAttempts(t, inv.ID)
	require.Len(t, ats, 1)
	require.Equal(t, paymentattempt.StateSucceeded, ats[0].State)
	require.Equal(t, intent, *ats[0].ProcessorObjectID)
	e.postAll(t, evs)
	require.Equal(t, paid+1, e.renewalPayments(t), "the events after the confirm pay nothing twice")
	require.Equal(t, renewed+1, e.eventCount(t, "membership.renewed"), "one membership.renewed")
	require.Equal(t, paymentattempt.StateSucceeded, e.db().PaymentAttempt.GetX(e.op, ats[0].ID).State)
	require.Equal(t, charges+1, e.fake.InvoiceCharges())
}

// TestSavedCardAsksToAuthenticate: staff retrying a failed payment with
// another saved card that asks to authenticate get 200 requires_action;
// the member failing the authentication confirms failed / not_completed,
// the invoice stays open and free, Stripe's payment_failed changes
// nothing more, and the next retry (the default card) pays it once.
func TestSavedCardAsksToAuthenticate(t *testing.T) {
	e := newLifeEnv(t)
	inv := e.renew(t, true)
	e.fake.DeclineRenewals(nil)
	e.fake.AttachCard("cus_bill", "pm_3ds", "visa", "3184", "")
	e.fake.RequireAuthentication("pm_3ds")
	paid := e.renewalPayments(t)
	renewed := e.eventCount(t, "membership.renewed")

	res, err := e.staff.RetryAdminInvoice(e.ctx, api.NewOptAdminInvoiceRetryRequest(api.AdminInvoiceRetryRequest{
		PaymentMethodID: api.NewOptString("pm_3ds")}), api.RetryAdminInvoiceParams{ID: inv.ID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.Equal(t, api.InvoiceRetryResultStatusRequiresAction, res.Data.Status)
	intent := res.Data.PaymentIntentID.Value
	require.NotEmpty(t, res.Data.ClientSecret.Value)

	evs := append(e.fake.TakeEvents(), e.fake.FinishPayment(false)...)
	got := e.confirm(t, inv.ID, intent)
	require.Equal(t, "failed", string(got.Status))
	require.Equal(t, "not_completed", string(got.Reason.Value))
	e.requireUnpaid(t, inv.ID, paid)
	ats := e.payAttempts(t, inv.ID)
	require.Len(t, ats, 1)
	require.Equal(t, paymentattempt.StateFailed, ats[0].State)
	require.Nil(t, ats[0].LiveSubjectID)
	require.Equal(t, "payment_intent_authentication_failure", *ats[0].FailureCode)
	e.postAll(t, evs)
	e.requireUnpaid(t, inv.ID, paid)
	require.Equal(t, paymentattempt.StateFailed, e.db().PaymentAttempt.GetX(e.op, ats[0].ID).State)

	res, err = e.memberRetry(inv.ID)
	require.NoError(t, err)
	require.Equal(t, api.InvoiceRetryResultStatusSucceeded, res.Data.Status)
	require.Equal(t, invoice.StatusPaid, e.db().Invoice.GetX(e.op, inv.ID).Status)
	require.Equal(t, paid+1, e.renewalPayments(t))
	require.Equal(t, renewed+1, e.eventCount(t, "membership.renewed"), "one membership.renewed")
	require.Len(t, e.payAttempts(t, inv.ID), 2)
}

// TestNotACard: a saved bank debit is listed with the cards, so every
// card-only write given it answers 422 NOT_A_CARD and changes nothing:
// making it the default (staff, member), a desk charge to it, and staff's
// retry and recovery charge of a renewal to it.
func TestNotACard(t *testing.T) {
	e := newRefundEnv(t)
	cus := e.clientCards(t)
	e.fake.AttachPaymentMethod(cus, "pm_sepa", "sepa_debit")
	mid := *e.pay.MemberID
	desk := e.staffWith(t, "sepa@pay.example", "members.contact", "pos.sell")
	list, err := desk.ListAdminClientPaymentMethods(e.ctx, api.ListAdminClientPaymentMethodsParams{MemberId: mid})
	require.NoError(t, err)
	require.Len(t, list.Data, 4, "the bank debit is listed")

	_, err = desk.SetAdminClientDefaultPaymentMethod(e.ctx, api.SetAdminClientDefaultPaymentMethodParams{MemberId: mid,
		PaymentMethodId: "pm_sepa", IdempotencyKey: uuid.NewString()})
	hookErr(t, err, 422, "NOT_A_CARD")
	_, err = e.member.SetMyDefaultPaymentMethod(e.ctx, api.SetMyDefaultPaymentMethodParams{XOrganizationID: e.venue.ID,
		ID: "pm_sepa", IdempotencyKey: uuid.NewString()})
	hookErr(t, err, 422, "NOT_A_CARD")
	require.Empty(t, e.fake.DefaultCard(cus))
	require.Zero(t, e.db().AuditLog.Query().Where(auditlog.Action("member_default_payment_method_set")).CountX(e.op))

	intents, pays := len(e.fake.Intents()), e.db().Payment.Query().CountX(e.op)
	_, err = desk.CreateAdminDeskCharge(e.ctx, &api.DeskChargeRequest{PaymentMethodID: "pm_sepa", AmountMinor: 12500},
		api.CreateAdminDeskChargeParams{MemberId: mid, IdempotencyKey: uuid.NewString()})
	hookErr(t, err, 422, "NOT_A_CARD")
	require.Len(t, e.fake.Intents(), intents, "nothing charged")
	require.Equal(t, pays, e.db().Payment.Query().CountX(e.op))
	require.Zero(t, e.db().DeskCharge.Query().CountX(e.op))
	require.Zero(t, e.db().AuditLog.Query().Where(auditlog.Action("payment.desk_charged")).CountX(e.op))

	l := newLifeEnv(t)
	inv := l.renew(t, true)
	l.fake.DeclineRenewals(nil)
	l.fake.AttachPaymentMethod("cus_bill", "pm_sepa", "sepa_debit")
	charges := l.fake.InvoiceCharges()
	_, err = l.staff.RetryAdminInvoice(l.ctx, api.NewOptAdminInvoiceRetryRequest(api.AdminInvoiceRetryRequest{
		PaymentMethodID: api.NewOptString("pm_sepa")}), api.RetryAdminInvoiceParams{ID: inv.ID, IdempotencyKey: uuid.NewString()})
	requireCode(t, err, http.StatusUnprocessableEntity, "NOT_A_CARD")
	_, err = l.staff.ChargeAdminRenewalRecovery(l.ctx, api.NewOptRenewalRecoveryChargeRequest(api.RenewalRecoveryChargeRequest{
		PaymentMethodID: api.NewOptString("pm_sepa")}), api.ChargeAdminRenewalRecoveryParams{ID: l.pass, IdempotencyKey: uuid.NewString()})
	requireCode(t, err, http.StatusUnprocessableEntity, "NOT_A_CARD")
	require.Equal(t, charges, l.fake.InvoiceCharges())
	require.Empty(t, l.payAttempts(t, inv.ID), "no attempt")
	l.requireUnpaid(t, inv.ID, l.renewalPayments(t))
}

// TestDeskChargeRefusedByStripe: Stripe refusing the desk charge outright
// (not the card) is 500 CHARGE_FAILED: no payment, no audit, the attempt
// failed; the same request tried again charges once.
func TestDeskChargeRefusedByStripe(t *testing.T) {
	e := newRefundEnv(t)
	e.clientCards(t)
	mid := *e.pay.MemberID
	pos := e.staffWith(t, "refused@pay.example", "pos.sell")
	charge := func(key string) (*api.DeskChargeResponse, error) {
		return pos.CreateAdminDeskCharge(e.ctx, &api.DeskChargeRequest{PaymentMethodID: "pm_visa", AmountMinor: 12500},
			api.CreateAdminDeskChargeParams{MemberId: mid, IdempotencyKey: key})
	}
	pays := e.db().Payment.Query().CountX(e.op)
	intents := len(e.fake.Intents())
	e.fake.RefuseNext(1)
	key := uuid.NewString()
	_, err := charge(key)
	hookErr(t, err, 500, "CHARGE_FAILED")
	require.Len(t, e.fake.Intents(), intents, "nothing charged")
	require.Equal(t, pays, e.db().Payment.Query().CountX(e.op))
	require.Zero(t, e.db().AuditLog.Query().Where(auditlog.Action("payment.desk_charged")).CountX(e.op))
	dc := e.db().DeskCharge.Query().OnlyX(e.op)
	ats := e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(dc.ID)).AllX(e.op)
	require.Len(t, ats, 1)
	require.Nil(t, ats[0].LiveSubjectID)
	require.NotEqual(t, paymentattempt.StateSucceeded, ats[0].State)

	res, err := charge(key)
	require.NoError(t, err)
	require.Equal(t, dc.ID, res.Data.ID)
	require.Len(t, e.fake.Intents(), intents+1)
	require.Equal(t, pays+1, e.db().Payment.Query().CountX(e.op))
	require.Equal(t, 1, e.db().AuditLog.Query().Where(auditlog.Action("payment.desk_charged")).CountX(e.op))
}

// TestReconcileInvoicePayDeclined: a member's retry declined by Stripe
// whose answer was lost is settled by the reconcile reading the invoice:
// the attempt failed with the decline, the invoice unpaid and free again;
// the next retry pays it once.
func TestReconcileInvoicePayDeclined(t *testing.T) {
	e := newLifeEnv(t)
	inv := e.renew(t, true)
	charges, paid := e.fake.InvoiceCharges(), e.renewalPayments(t)
	renewed := e.eventCount(t, "membership.renewed")
	e.fake.DropInvoicePays(10)
	_, err := e.memberRetry(inv.ID)
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	e.fake.DropInvoicePays(0)
	require.Equal(t, charges+1, e.fake.InvoiceCharges(), "Stripe tried the card")
	at := e.payAttempts(t, inv.ID)[0]
	e.asSwept(t, at)
	_, err = e.memberRetry(inv.ID)
	requireCode(t, err, http.StatusConflict, "RECONCILIATION_REQUIRED")

	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	at = e.db().PaymentAttempt.GetX(e.op, at.ID)
	require.Equal(t, paymentattempt.StateFailed, at.State)
	require.Equal(t, "insufficient_funds", *at.DeclineCode)
	require.Nil(t, at.LiveSubjectID)
	e.requireUnpaid(t, inv.ID, paid)
	require.Equal(t, charges+1, e.fake.InvoiceCharges(), "the reconcile charges nothing")

	e.fake.DeclineRenewals(nil)
	res, err := e.memberRetry(inv.ID)
	require.NoError(t, err)
	require.Equal(t, api.InvoiceRetryResultStatusSucceeded, res.Data.Status)
	require.Equal(t, paid+1, e.renewalPayments(t))
	require.Equal(t, renewed+1, e.eventCount(t, "membership.renewed"), "one membership.renewed")
	require.Equal(t, charges+2, e.fake.InvoiceCharges())
}

// TestInvoicePayProcessing: a retry whose bank debit is processing answers
// processing; another retry, the member's or staff's, is PAYMENT_PENDING
// and charges nothing; invoice.paid settles the waiting attempt and the
// invoice once, however often Stripe posts it.
func TestInvoicePayProcessing(t *testing.T) {
	e := newLifeEnv(t)
	inv := e.renew(t, true)
	e.fake.DeclineRenewals(nil)
	e.fake.ProcessSlowly("pm_bill")
	charges, paid := e.fake.InvoiceCharges(), e.renewalPayments(t)
	renewed := e.eventCount(t, "membership.renewed")

	res, err := e.memberRetry(inv.ID)
	require.NoError(t, err)
	require.Equal(t, api.InvoiceRetryResultStatusProcessing, res.Data.Status)
	require.False(t, res.Data.ClientSecret.Set && !res.Data.ClientSecret.Null, "no secret for a processing charge")
	ats := e.payAttempts(t, inv.ID)
	require.Len(t, ats, 1)
	require.Equal(t, paymentattempt.StateProcessing, ats[0].State)
	require.NotNil(t, ats[0].LiveSubjectID)

	_, err = e.memberRetry(inv.ID)
	requireCode(t, err, http.StatusConflict, "PAYMENT_PENDING")
	_, err = e.staff.RetryAdminInvoice(e.ctx, api.OptAdminInvoiceRetryRequest{}, api.RetryAdminInvoiceParams{ID: inv.ID, IdempotencyKey: uuid.NewString()})
	requireCode(t, err, http.StatusConflict, "PAYMENT_PENDING")
	require.Equal(t, charges+1, e.fake.InvoiceCharges())
	e.requireUnpaid(t, inv.ID, paid)

	evs := append(e.fake.TakeEvents(), e.fake.FinishPayment(true)...)
	e.postAll(t, evs)
	e.postAll(t, evs)
	require.Equal(t, invoice.StatusPaid, e.db().Invoice.GetX(e.op, inv.ID).Status)
	require.Equal(t, paid+1, e.renewalPayments(t))
	require.Equal(t, renewed+1, e.eventCount(t, "membership.renewed"), "one membership.renewed")
	at := e.db().PaymentAttempt.GetX(e.op, ats[0].ID)
	require.Equal(t, paymentattempt.StateSucceeded, at.State)
	require.Nil(t, at.LiveSubjectID)
	require.Equal(t, charges+1, e.fake.InvoiceCharges())
}

// TestReconcileInvoicePayProcessing: a processing retry whose answer was
// lost is reconciled to processing, still holding the invoice (retries are
// PAYMENT_PENDING); the bank's failure (invoice.payment_failed) marks the
// attempt failed, leaves the invoice unpaid and frees it; staff's recovery
// charge then answers 200 processing.
func TestReconcileInvoicePayProcessing(t *testing.T) {
	e := newLifeEnv(t)
	inv := e.renew(t, true)
	e.fake.DeclineRenewals(nil)
	e.fake.ProcessSlowly("pm_bill")
	charges, paid := e.fake.InvoiceCharges(), e.renewalPayments(t)
	renewed := e.eventCount(t, "membership.renewed")
	e.fake.DropInvoicePays(10)
	_, err := e.memberRetry(inv.ID)
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	e.fake.DropInvoicePays(0)
	at := e.payAttempts(t, inv.ID)[0]
	e.asSwept(t, at)

	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	at = e.db().PaymentAttempt.GetX(e.op, at.ID)
	require.Equal(t, paymentattempt.StateProcessing, at.State)
	require.NotNil(t, at.ProcessorObjectID)
	require.NotNil(t, at.LiveSubjectID, "still holds the invoice")
	_, err = e.memberRetry(inv.ID)
	requireCode(t, err, http.StatusConflict, "PAYMENT_PENDING")
	require.Equal(t, charges+1, e.fake.InvoiceCharges())

	e.postAll(t, append(e.fake.TakeEvents(), e.fake.FinishPayment(false)...))
	at = e.db().PaymentAttempt.GetX(e.op, at.ID)
	require.Equal(t, paymentattempt.StateFailed, at.State)
	require.Nil(t, at.LiveSubjectID)
	e.requireUnpaid(t, inv.ID, paid)
	require.Equal(t, renewed, e.eventCount(t, "membership.renewed"), "a failed debit renews nothing")

	// Free again: staff's recovery charge starts the next debit, 200
	// processing with the invoice unpaid.
	res, err := e.staff.ChargeAdminRenewalRecovery(e.ctx, api.OptRenewalRecoveryChargeRequest{},
		api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err, "the invoice is free again")
	require.Equal(t, api.RenewalRecoveryChargeResponseDataStatusProcessing, res.Data.Status)
	require.NotEqual(t, "paid", res.Data.InvoiceStatus)
	require.Equal(t, charges+2, e.fake.InvoiceCharges())
	ats := e.payAttempts(t, inv.ID)
	require.Len(t, ats, 2)
	require.Equal(t, paymentattempt.StateProcessing, ats[1].State)
}

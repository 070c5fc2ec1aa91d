package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// collect moves the membership to collection c as the desk.
func (e *lifeEnv) collect(c api.BillingCollectionRequestCollection, key string) (*api.BillingCollectionResponse, error) {
	return e.staff.SetAdminBillingCollection(e.ctx, &api.BillingCollectionRequest{Collection: c, Reason: api.NewOptString("asked at the desk")},
		api.SetAdminBillingCollectionParams{ID: e.pass, IdempotencyKey: key})
}

// requireExternallyBilled checks the refusal of a card path for an
// externally billed membership.
func requireExternallyBilled(t *testing.T, err error) {
	t.Helper()
	st, code, det := apiCode(t, err)
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Equal(t, billing.CodeNotRetryable, code)
	require.Equal(t, billing.ReasonExternallyBilled, det.Reason.Value)
	require.JSONEq(t, `"contact_venue"`, string(det.AdditionalProps["next_step"]))
}

// auditText reads one detail of the newest audit entry of action.
func (e *lifeEnv) auditText(t *testing.T, action, key string) string {
	t.Helper()
	var v *string
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT details->>$3 FROM audit_logs WHERE organization_id = $1 AND action = $2
		ORDER BY created_at DESC LIMIT 1`, e.venue.ID, action, key).Scan(&v))
	if v == nil {
		return ""
	}
	return *v
}

func (e *lifeEnv) invoiceAttempts(t *testing.T, id any) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM payment_attempts WHERE subject_id = $1`, id).Scan(&n))
	return n
}

// TestExternallyBilledInvoiceIsNeverCharged: every card path (the member's
// retry and its confirm, the staff's retry, the recovery charge, the pay
// link) refuses an externally billed membership's invoice with 422
// NOT_RETRYABLE externally_billed, writes nothing and asks Stripe nothing;
// the recovery read shows the collection and offers no card action; comp
// and the external settlement stay open.
func TestExternallyBilledInvoiceIsNeverCharged(t *testing.T) {
	e := newLifeEnv(t)
	_, err := e.collect(api.BillingCollectionRequestCollectionExternal, "ext-1")
	require.NoError(t, err)
	inv := e.renew(t, false)
	require.Equal(t, invoice.StatusSent, inv.Status)
	charges, attempts := e.fake.InvoiceCharges(), e.invoiceAttempts(t, inv.ID)
	org := e.venue.ID

	_, err = e.member.RetryMyInvoice(e.ctx, api.OptInvoiceRetryRequest{}, api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: org})
	requireExternallyBilled(t, err)
	_, err = e.member.ConfirmMyInvoiceRetry(e.ctx, &api.InvoiceRetryConfirmRequest{PaymentIntentID: "pi_none"},
		api.ConfirmMyInvoiceRetryParams{ID: inv.ID, XOrganizationID: org})
	requireExternallyBilled(t, err)
	_, err = e.staff.RetryAdminInvoice(e.ctx, api.OptAdminInvoiceRetryRequest{}, api.RetryAdminInvoiceParams{ID: inv.ID, IdempotencyKey: "r-1"})
	requireExternallyBilled(t, err)
	_, err = e.staff.ChargeAdminRenewalRecovery(e.ctx, api.OptRenewalRecoveryChargeRequest{},
		api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: "rc-1"})
	requireExternallyBilled(t, err)
	link := &api.RenewalPaymentLinkRequest{Notify: api.NewOptRenewalPaymentLinkRequestNotify(api.RenewalPaymentLinkRequestNotify{
		Audience: api.NewOptRenewalPaymentLinkRequestNotifyAudience(api.RenewalPaymentLinkRequestNotifyAudience{Clients: api.NewOptBool(true)}),
		Channels: api.NewOptRenewalPaymentLinkRequestNotifyChannels(api.RenewalPaymentLinkRequestNotifyChannels{Email: api.NewOptBool(true)})})}
	_, err = e.boss.SendAdminRenewalPaymentLink(e.ctx, link, api.SendAdminRenewalPaymentLinkParams{ID: e.pass, IdempotencyKey: "pl-1"})
	requireExternallyBilled(t, err)

	require.Equal(t, charges, e.fake.InvoiceCharges(), "Stripe saw no charge")
	require.Equal(t, attempts, e.invoiceAttempts(t, inv.ID), "no attempt written")
	require.Zero(t, e.deliveries(t), "no pay link queued")
	require.Zero(t, e.audits(t, billing.AuditRenewalPaymentLinkSent))
	got := e.db().Invoice.GetX(e.op, inv.ID)
	require.Equal(t, invoice.StatusSent, got.Status)
	require.Zero(t, got.AttemptCount)

	rec, err := e.staff.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: e.pass})
	require.NoError(t, err)
	require.Equal(t, api.RenewalRecoveryResponseDataCollectionExternal, rec.Data.Collection.Value)
	require.True(t, rec.Data.SavedCard)
	require.False(t, rec.Data.Actions.ChargeSavedCard)
	require.False(t, rec.Data.Actions.SendPaymentLink)
	tl, err := e.staff.GetAdminSubscriptionTimeline(e.ctx, api.GetAdminSubscriptionTimelineParams{ID: e.pass})
	require.NoError(t, err)
	require.Equal(t, api.SubscriptionSummaryCollectionExternal, tl.Data.Subscription.Collection)

	// Back to card, the same invoice may be charged again.
	_, err = e.collect(api.BillingCollectionRequestCollectionCard, "ext-2")
	require.NoError(t, err)
	rec, err = e.staff.GetAdminRenewalRecovery(e.ctx, api.GetAdminRenewalRecoveryParams{ID: e.pass})
	require.NoError(t, err)
	require.Equal(t, api.RenewalRecoveryResponseDataCollectionCard, rec.Data.Collection.Value)
	require.True(t, rec.Data.Actions.ChargeSavedCard)
	tl, err = e.staff.GetAdminSubscriptionTimeline(e.ctx, api.GetAdminSubscriptionTimelineParams{ID: e.pass})
	require.NoError(t, err)
	require.Equal(t, api.SubscriptionSummaryCollectionCard, tl.Data.Subscription.Collection)
}

// TestDeclinedThenExternallyBilled: a renewal the card declined, then the
// membership moved to external collection: the member's outstanding item
// offers no card action (contact_venue), every card path refuses it, and
// the open invoice is settled externally, not charged.
func TestDeclinedThenExternallyBilled(t *testing.T) {
	e := newLifeEnv(t)
	inv := e.renew(t, true)
	require.Equal(t, invoice.StatusOverdue, inv.Status)
	e.fake.DeclineRenewals(nil)
	org := e.venue.ID

	out, err := e.member.GetMyOutstandingPayments(e.ctx, api.GetMyOutstandingPaymentsParams{XOrganizationID: org})
	require.NoError(t, err)
	require.Len(t, out.Data.Items, 1)
	require.Equal(t, api.OutstandingActionTypeRetryInvoice, out.Data.Items[0].Action.Type, "billed by card: the card retry")

	_, err = e.collect(api.BillingCollectionRequestCollectionExternal, "ext-1")
	require.NoError(t, err)
	charges := e.fake.InvoiceCharges()
	out, err = e.member.GetMyOutstandingPayments(e.ctx, api.GetMyOutstandingPaymentsParams{XOrganizationID: org})
	require.NoError(t, err)
	require.Len(t, out.Data.Items, 1)
	it := out.Data.Items[0]
	require.Equal(t, inv.ID, it.ID)
	require.Equal(t, "invoice_overdue_external", it.StateKey)
	require.Equal(t, api.OutstandingItemNextStepContactVenue, it.NextStep.Value)
	require.Equal(t, api.OutstandingActionTypeContactVenue, it.Action.Type)
	require.Equal(t, "GET", it.Action.Method)
	require.True(t, it.Action.ConfirmPath.Null)
	require.Empty(t, it.CardsOnFile)

	_, err = e.member.RetryMyInvoice(e.ctx, api.OptInvoiceRetryRequest{}, api.RetryMyInvoiceParams{ID: inv.ID, XOrganizationID: org})
	requireExternallyBilled(t, err)
	_, err = e.staff.ChargeAdminRenewalRecovery(e.ctx, api.OptRenewalRecoveryChargeRequest{},
		api.ChargeAdminRenewalRecoveryParams{ID: e.pass, IdempotencyKey: "rc-1"})
	requireExternallyBilled(t, err)
	require.Equal(t, charges, e.fake.InvoiceCharges())

	paid, err := e.settle(t, "s-1", api.ExternalSettlementRequestMethodBankTransfer)
	require.NoError(t, err)
	require.Equal(t, inv.ID, paid.Data.ID, "the declined invoice is the one settled")
	got := e.db().Invoice.GetX(e.op, inv.ID)
	require.Equal(t, invoice.StatusPaid, got.Status)
	require.Equal(t, invoice.SettlementExternal, *got.Settlement)
	pays := e.db().Payment.Query().Where(payment.KindEQ(payment.KindRenewal), payment.StatusEQ(payment.StatusSucceeded)).AllX(e.op)
	require.Len(t, pays, 1)
	require.Equal(t, payment.MethodBankTransfer, pays[0].Method)
	require.Equal(t, charges, e.fake.InvoiceCharges(), "not charged")
	out, err = e.member.GetMyOutstandingPayments(e.ctx, api.GetMyOutstandingPaymentsParams{XOrganizationID: org})
	require.NoError(t, err)
	require.Empty(t, out.Data.Items)
}

// TestCollectionChangeSurvivesStripeFaults: a collection change whose
// answer Stripe lost is 409 UNKNOWN_WRITE_OUTCOME, holds the membership
// (another change is PAYMENT_PENDING) and is finished by the reconcile as
// asked: recorded when Stripe has it (no second update), sent again under
// the same key when Stripe does not; a refusal then leaves our rows as
// they were and frees the membership.
func TestCollectionChangeSurvivesStripeFaults(t *testing.T) {
	e := newLifeEnv(t)
	sub := e.db().Subscription.Query().Where(subscription.PassID(e.pass)).OnlyX(e.op)
	sid, _ := e.stripeSub(t)
	collection := func() subscription.Collection { return e.db().Subscription.GetX(e.op, sub.ID).Collection }

	// Stripe made the change; its answer was lost.
	e.fake.FailSubscriptionUpdates(0, 10, 0) // every retry of the client too
	_, err := e.collect(api.BillingCollectionRequestCollectionExternal, "c-1")
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	e.fake.FailSubscriptionUpdates(0, 0, 0)
	require.Equal(t, subscription.CollectionCard, collection(), "not recorded yet")
	require.Equal(t, 1, e.fake.SubscriptionUpdates(sid))
	_, err = e.collect(api.BillingCollectionRequestCollectionExternal, "c-2")
	requireCode(t, err, http.StatusConflict, "PAYMENT_PENDING")
	at := e.lastUpdate(t)
	require.Equal(t, "external", at.Intent["to"])
	e.asSwept(t, at)
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.Equal(t, subscription.CollectionExternal, collection())
	require.Equal(t, 1, e.fake.SubscriptionUpdates(sid), "no second update")
	require.Equal(t, paymentattempt.StateSucceeded, e.db().PaymentAttempt.GetX(e.op, at.ID).State)
	require.Equal(t, 1, e.audits(t, billing.AuditCollectionChanged))
	require.Equal(t, "reconcile", e.auditText(t, billing.AuditCollectionChanged, "finished_by"))
	require.Equal(t, "asked at the desk", e.auditText(t, billing.AuditCollectionChanged, "reason"))
	charges := e.fake.InvoiceCharges()
	require.Equal(t, invoice.StatusSent, e.renew(t, true).Status, "Stripe invoices it, charges nothing")
	require.Equal(t, charges, e.fake.InvoiceCharges())

	// Stripe failed before making the change: the reconcile sends it again.
	e.fake.FailSubscriptionUpdates(10, 0, 0)
	_, err = e.collect(api.BillingCollectionRequestCollectionCard, "c-3")
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	e.fake.FailSubscriptionUpdates(0, 0, 0)
	require.Equal(t, 1, e.fake.SubscriptionUpdates(sid), "Stripe made nothing")
	at = e.lastUpdate(t)
	e.asSwept(t, at)
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.Equal(t, 2, e.fake.SubscriptionUpdates(sid), "sent again, once")
	require.Equal(t, subscription.CollectionCard, collection())
	require.Equal(t, 2, e.audits(t, billing.AuditCollectionChanged))
	require.NoError(t, e.svc.Reconcile(e.op, at.ID), "a second reconcile changes nothing")
	require.Equal(t, 2, e.fake.SubscriptionUpdates(sid))
	require.Equal(t, 2, e.audits(t, billing.AuditCollectionChanged))

	// Lost, then refused on the reconcile: our rows as they were.
	e.fake.FailSubscriptionUpdates(10, 0, 0)
	_, err = e.collect(api.BillingCollectionRequestCollectionExternal, "c-4")
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	e.fake.FailSubscriptionUpdates(0, 0, 0)
	at = e.lastUpdate(t)
	e.asSwept(t, at)
	e.fake.FailSubscriptionUpdates(0, 0, 1)
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.Equal(t, paymentattempt.StateFailed, e.db().PaymentAttempt.GetX(e.op, at.ID).State)
	require.Equal(t, subscription.CollectionCard, collection())
	require.Equal(t, 2, e.audits(t, billing.AuditCollectionChanged))
	require.Equal(t, 2, e.fake.SubscriptionUpdates(sid))

	// Refused at once: 502, nothing changed; then the membership is free.
	e.fake.FailSubscriptionUpdates(0, 0, 1)
	_, err = e.collect(api.BillingCollectionRequestCollectionExternal, "c-5")
	requireCode(t, err, http.StatusBadGateway, "STRIPE_ERROR")
	require.Equal(t, subscription.CollectionCard, collection())
	res, err := e.collect(api.BillingCollectionRequestCollectionExternal, "c-6")
	require.NoError(t, err)
	require.Equal(t, api.BillingCollectionResponseDataCollectionExternal, res.Data.Collection)
	require.Equal(t, 3, e.audits(t, billing.AuditCollectionChanged))
}

// TestExternalSettlementFinishedLaterKeepsMethod: an external settlement
// whose Stripe answer was lost (409 UNKNOWN_WRITE_OUTCOME, Stripe has the
// invoice paid out of band) is finished by Stripe's invoice.paid, or by the
// reconcile, as the staff asked: the payment row keeps their method, the
// audit entry their note; nothing is recorded twice.
func TestExternalSettlementFinishedLaterKeepsMethod(t *testing.T) {
	e := newLifeEnv(t)
	_, err := e.collect(api.BillingCollectionRequestCollectionExternal, "ext-1")
	require.NoError(t, err)
	renewals := func() []*ent.Payment {
		return e.db().Payment.Query().Where(payment.KindEQ(payment.KindRenewal)).Order(payment.ByCreatedAt()).AllX(e.op)
	}

	// Finished by Stripe's event.
	inv := e.renew(t, false)
	e.fake.DropInvoicePays(10) // every retry of the client too
	_, err = e.settle(t, "s-1", api.ExternalSettlementRequestMethodCash)
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	e.fake.DropInvoicePays(0)
	require.Equal(t, invoice.StatusSent, e.db().Invoice.GetX(e.op, inv.ID).Status, "not recorded yet")
	require.Empty(t, renewals())
	_, err = e.settle(t, "s-2", api.ExternalSettlementRequestMethodBankTransfer)
	requireCode(t, err, http.StatusConflict, "PAYMENT_PENDING")
	_, err = e.clock.Deliver(context.Background())
	require.NoError(t, err)
	got := e.db().Invoice.GetX(e.op, inv.ID)
	require.Equal(t, invoice.StatusPaid, got.Status)
	require.Equal(t, invoice.SettlementExternal, *got.Settlement)
	pays := renewals()
	require.Len(t, pays, 1)
	require.Equal(t, payment.MethodCash, pays[0].Method, "the staff's method, not other")
	require.Equal(t, 1, e.audits(t, billing.AuditSettledExternally))
	require.Equal(t, "transfer ref 42", e.auditText(t, billing.AuditSettledExternally, "note"))
	require.Equal(t, "cash", e.auditText(t, billing.AuditSettledExternally, "method"))
	require.Equal(t, "stripe_event", e.auditText(t, billing.AuditSettledExternally, "finished_by"))
	at := e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(inv.ID)).OnlyX(e.op)
	require.Equal(t, paymentattempt.StateSucceeded, at.State)
	require.Nil(t, at.LiveSubjectID)

	// Finished by the reconcile, before Stripe's event arrives.
	inv2 := e.renew(t, false)
	require.NotEqual(t, inv.ID, inv2.ID)
	e.fake.DropInvoicePays(10)
	_, err = e.settle(t, "s-3", api.ExternalSettlementRequestMethodBankTransfer)
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	e.fake.DropInvoicePays(0)
	at = e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(inv2.ID)).OnlyX(e.op)
	e.asSwept(t, at)
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	got = e.db().Invoice.GetX(e.op, inv2.ID)
	require.Equal(t, invoice.StatusPaid, got.Status)
	pays = renewals()
	require.Len(t, pays, 2)
	require.Equal(t, payment.MethodBankTransfer, pays[1].Method)
	require.Equal(t, 2, e.audits(t, billing.AuditSettledExternally))
	require.Equal(t, "reconcile", e.auditText(t, billing.AuditSettledExternally, "finished_by"))
	require.Equal(t, paymentattempt.StateSucceeded, e.db().PaymentAttempt.GetX(e.op, at.ID).State)
	_, err = e.clock.Deliver(context.Background()) // Stripe's invoice.paid changes nothing more
	require.NoError(t, err)
	require.Len(t, renewals(), 2)
	require.Equal(t, 2, e.audits(t, billing.AuditSettledExternally))

	// Stripe failed before paying it: the reconcile sends the settlement
	// again under the attempt's key, then records it as asked.
	inv3 := e.renew(t, false)
	e.fake.FailInvoicePays(10)
	_, err = e.settle(t, "s-4", api.ExternalSettlementRequestMethodCash)
	requireCode(t, err, http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	e.fake.FailInvoicePays(0)
	var stripeInv map[string]any
	require.NoError(t, json.Unmarshal(e.fake.InvoiceObject(*inv3.ProcessorInvoiceID), &stripeInv))
	require.Equal(t, "open", stripeInv["status"], "Stripe paid nothing")
	at = e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(inv3.ID)).OnlyX(e.op)
	e.asSwept(t, at)
	require.NoError(t, e.svc.Reconcile(e.op, at.ID))
	require.NoError(t, json.Unmarshal(e.fake.InvoiceObject(*inv3.ProcessorInvoiceID), &stripeInv))
	require.Equal(t, "paid", stripeInv["status"])
	require.Equal(t, true, stripeInv["paid_out_of_band"])
	require.Equal(t, invoice.StatusPaid, e.db().Invoice.GetX(e.op, inv3.ID).Status)
	pays = renewals()
	require.Len(t, pays, 3)
	require.Equal(t, payment.MethodCash, pays[2].Method)
	require.Equal(t, 3, e.audits(t, billing.AuditSettledExternally))
	require.Equal(t, "reconcile", e.auditText(t, billing.AuditSettledExternally, "finished_by"))
	require.Equal(t, "transfer ref 42", e.auditText(t, billing.AuditSettledExternally, "note"))
}

package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func (e *lifeEnv) eventCount(t *testing.T, typ string) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM events WHERE organization_id = $1 AND type = $2`, e.venue.ID, typ).Scan(&n))
	return n
}

// put sends a raw JSON body with PUT as the billing manager.
func (e *lifeEnv) put(t *testing.T, path, body string) (int, string) {
	t.Helper()
	return e.rawAs(t, e.bossToken, http.MethodPut, path, body)
}

func (e *lifeEnv) settle(t *testing.T, key string, method api.ExternalSettlementRequestMethod) (*api.InvoiceDetailResponse, error) {
	t.Helper()
	return e.staff.SettleAdminPassExternally(e.ctx, &api.ExternalSettlementRequest{Method: method, Note: api.NewOptString("transfer ref 42")},
		api.SettleAdminPassExternallyParams{ID: e.pass, IdempotencyKey: key})
}

// TestAdminExternalSettlement: a membership moved to external collection
// renews without a card charge (its invoice stays open, not a decline) until
// staff record the cycle's settlement, which pays Stripe's invoice out of
// band and our rows (payment of kind renewal with its method, invoice paid,
// pass rolled on, audit, payment.succeeded); each refusal of the contract
// (NOT_EXTERNALLY_BILLED, NO_SUBSCRIPTION, NO_OPEN_INVOICE,
// STRIPE_NOT_CONFIGURED, SETTLEMENT_FAILED, OPERATION_FAILED, bad input,
// permission, another venue's pass) changes nothing.
func TestAdminExternalSettlement(t *testing.T) {
	e := newLifeEnv(t)
	foreign := e.foreignPass(t)
	plain := e.plainPass(t, pass.StatusActive)
	sub := e.db().Subscription.Query().OnlyX(e.op)
	path := "/admin/passes/" + e.pass.String()
	payments := func() int { return e.db().Payment.Query().Where(payment.KindEQ(payment.KindRenewal)).CountX(e.op) }

	// Card-billed, no subscription, another venue's, bad input, permission.
	_, err := e.settle(t, "s-card", api.ExternalSettlementRequestMethodBankTransfer)
	st, code, _ := apiCode(t, err)
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Equal(t, billing.CodeNotExternallyBilled, code)
	for _, c := range []struct {
		id   string
		st   int
		code string
	}{{plain.ID.String(), http.StatusUnprocessableEntity, billing.CodeNoSubscription}, {foreign.String(), http.StatusNotFound, "NOT_FOUND"}} {
		st, b := e.post(t, "/admin/passes/"+c.id+"/external-settlement", `{"method":"cash"}`)
		require.Equal(t, c.st, st, b)
		require.Contains(t, b, c.code)
		st, b = e.put(t, "/admin/passes/"+c.id+"/billing-collection", `{"collection":"external"}`)
		require.Equal(t, c.st, st, b)
		require.Contains(t, b, c.code)
	}
	for _, body := range []string{`{}`, `{"method":"card"}`, `{"method":"cash","x":1}`, `{"method":"cash","note":"` + strings.Repeat("n", 501) + `"}`, `{"method":7}`} {
		st, b := e.post(t, path+"/external-settlement", body)
		require.Equal(t, http.StatusBadRequest, st, body)
		require.Contains(t, b, "VALIDATION_ERROR", body)
	}
	for _, body := range []string{`{}`, `{"collection":"cheque"}`, `{"collection":"external","x":1}`, `{"collection":"external","reason":"` + strings.Repeat("r", 501) + `"}`} {
		st, b := e.put(t, path+"/billing-collection", body)
		require.Equal(t, http.StatusBadRequest, st, body)
		require.Contains(t, b, "VALIDATION_ERROR", body)
	}
	_, err = e.viewer.SetAdminBillingCollection(e.ctx, &api.BillingCollectionRequest{Collection: api.BillingCollectionRequestCollectionExternal},
		api.SetAdminBillingCollectionParams{ID: e.pass, IdempotencyKey: "c-0"})
	st, _, _ = apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st)
	require.Equal(t, "card", string(e.db().Subscription.GetX(e.op, sub.ID).Collection), "nothing changed")
	require.Zero(t, e.audits(t, billing.AuditCollectionChanged)+e.audits(t, billing.AuditSettledExternally))

	// A refusal of Stripe leaves the membership billed by card.
	e.fake.FailSubscriptionUpdates(0, 0, 1)
	_, err = e.staff.SetAdminBillingCollection(e.ctx, &api.BillingCollectionRequest{Collection: api.BillingCollectionRequestCollectionExternal},
		api.SetAdminBillingCollectionParams{ID: e.pass, IdempotencyKey: "c-refused"})
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusBadGateway, st)
	require.Equal(t, "STRIPE_ERROR", code)
	require.Equal(t, "card", string(e.db().Subscription.GetX(e.op, sub.ID).Collection))

	// External collection.
	res, err := e.staff.SetAdminBillingCollection(e.ctx, &api.BillingCollectionRequest{Collection: api.BillingCollectionRequestCollectionExternal,
		Reason: api.NewOptString("pays by transfer")}, api.SetAdminBillingCollectionParams{ID: e.pass, IdempotencyKey: "c-1"})
	require.NoError(t, err)
	require.Equal(t, api.BillingCollectionResponseDataCollectionExternal, res.Data.Collection)
	require.Equal(t, sub.ID, res.Data.SubscriptionID)
	require.Equal(t, 1, e.audits(t, billing.AuditCollectionChanged))
	_, err = e.staff.SetAdminBillingCollection(e.ctx, &api.BillingCollectionRequest{Collection: api.BillingCollectionRequestCollectionExternal},
		api.SetAdminBillingCollectionParams{ID: e.pass, IdempotencyKey: "c-2"})
	require.NoError(t, err)
	require.Equal(t, 1, e.audits(t, billing.AuditCollectionChanged), "the same collection again changes nothing")

	_, err = e.settle(t, "s-none", api.ExternalSettlementRequestMethodCash)
	_, code, _ = apiCode(t, err)
	require.Equal(t, billing.CodeNoOpenInvoice, code)

	// The renewal is invoiced and left open: no card charge, no decline.
	charges := e.fake.InvoiceCharges()
	validTo := *e.db().Pass.GetX(e.op, e.pass).ValidTo
	inv := e.renew(t, true) // a card charge would be declined
	require.Equal(t, charges, e.fake.InvoiceCharges(), "no card charge")
	require.Equal(t, invoice.StatusSent, inv.Status)
	require.Nil(t, inv.FailureCode)
	require.Equal(t, pass.StatusActive, e.db().Pass.GetX(e.op, e.pass).Status)
	require.Zero(t, payments())

	// Stripe refuses the settlement: nothing changes.
	e.fake.RefuseInvoicePays(1)
	_, err = e.settle(t, "s-refused", api.ExternalSettlementRequestMethodBankTransfer)
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusBadGateway, st)
	require.Equal(t, "SETTLEMENT_FAILED", code)
	require.Equal(t, invoice.StatusSent, e.db().Invoice.GetX(e.op, inv.ID).Status)
	require.Zero(t, payments())
	require.Zero(t, e.audits(t, billing.AuditSettledExternally))

	// Settled.
	succeeded := e.eventCount(t, "payment.succeeded")
	out, err := e.settle(t, "s-1", api.ExternalSettlementRequestMethodBankTransfer)
	require.NoError(t, err)
	require.Equal(t, inv.ID, out.Data.ID)
	require.Equal(t, "paid", string(out.Data.Status))
	var stripeInv map[string]any
	require.NoError(t, json.Unmarshal(e.fake.InvoiceObject(*inv.ProcessorInvoiceID), &stripeInv))
	require.Equal(t, "paid", stripeInv["status"])
	require.Equal(t, true, stripeInv["paid_out_of_band"])
	pays := e.db().Payment.Query().Where(payment.KindEQ(payment.KindRenewal)).AllX(e.op)
	require.Len(t, pays, 1)
	require.Equal(t, payment.MethodBankTransfer, pays[0].Method)
	require.Equal(t, inv.TotalMinor, pays[0].AmountMinor)
	require.Equal(t, payment.StatusSucceeded, pays[0].Status)
	got := e.db().Invoice.GetX(e.op, inv.ID)
	require.Equal(t, invoice.StatusPaid, got.Status)
	require.Equal(t, invoice.SettlementExternal, *got.Settlement)
	require.True(t, e.db().Pass.GetX(e.op, e.pass).ValidTo.After(validTo), "the pass rolled on")
	require.Equal(t, 1, e.audits(t, billing.AuditSettledExternally))
	require.Equal(t, succeeded+1, e.eventCount(t, "payment.succeeded"))
	again, err := e.settle(t, "s-1", api.ExternalSettlementRequestMethodBankTransfer)
	require.NoError(t, err, "the key replays")
	require.Equal(t, out.Data.ID, again.Data.ID)
	require.Equal(t, 1, e.audits(t, billing.AuditSettledExternally))
	_, err = e.clock.Deliver(context.Background()) // Stripe's invoice.paid (out of band) changes nothing more
	require.NoError(t, err)
	require.Equal(t, 1, payments())
	_, err = e.settle(t, "s-2", api.ExternalSettlementRequestMethodCash)
	_, code, _ = apiCode(t, err)
	require.Equal(t, billing.CodeNoOpenInvoice, code)

	// The next cycle: Stripe not configured at the venue, then our write
	// fails after Stripe took it.
	inv2 := e.renew(t, false)
	require.NotEqual(t, inv.ID, inv2.ID)
	require.Equal(t, invoice.StatusSent, inv2.Status)
	vp := e.db().VenuePayments.Query().OnlyX(e.op)
	e.db().VenuePayments.UpdateOne(vp).SetChargesEnabled(false).ExecX(e.op)
	_, err = e.settle(t, "s-3", api.ExternalSettlementRequestMethodCash)
	st, code, _ = apiCode(t, err)
	require.Equal(t, http.StatusUnprocessableEntity, st)
	require.Equal(t, billing.CodeStripeNotConfigured, code)
	e.db().VenuePayments.UpdateOneID(vp.ID).SetChargesEnabled(true).ExecX(e.op)
	require.Equal(t, invoice.StatusSent, e.db().Invoice.GetX(e.op, inv2.ID).Status)

	_, err = e.pool.Exec(e.ctx, `CREATE FUNCTION refuse_settlement() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'settlement write refused'; END $$;
		CREATE TRIGGER refuse_settlement BEFORE INSERT ON payments FOR EACH ROW
		WHEN (NEW.method = 'cash') EXECUTE FUNCTION refuse_settlement()`)
	require.NoError(t, err)
	_, err = e.settle(t, "s-4", api.ExternalSettlementRequestMethodCash)
	st, code, det := apiCode(t, err)
	require.Equal(t, http.StatusBadGateway, st)
	require.Equal(t, billing.CodeOperationFailed, code)
	require.Contains(t, det.AdditionalProps, "attempt_id")
	require.NotContains(t, err.Error(), "settlement write refused", "no internal error text reaches the client")
	_, err = e.pool.Exec(e.ctx, `DROP TRIGGER refuse_settlement ON payments`)
	require.NoError(t, err)
	require.Equal(t, invoice.StatusSent, e.db().Invoice.GetX(e.op, inv2.ID).Status, "our rows unchanged")
	require.Equal(t, 1, e.db().PaymentAttempt.Query().Where(paymentattempt.SubjectID(inv2.ID),
		paymentattempt.StateEQ(paymentattempt.StateInFlight)).CountX(e.op), "the attempt is left to the reconcile")
	// Stripe's invoice.paid finishes our rows.
	_, err = e.clock.Deliver(context.Background())
	require.NoError(t, err)
	require.Equal(t, invoice.StatusPaid, e.db().Invoice.GetX(e.op, inv2.ID).Status)
	require.Equal(t, 2, payments())

	// Back to card: the next renewal is charged.
	_, err = e.staff.SetAdminBillingCollection(e.ctx, &api.BillingCollectionRequest{Collection: api.BillingCollectionRequestCollectionCard},
		api.SetAdminBillingCollectionParams{ID: e.pass, IdempotencyKey: "c-3"})
	require.NoError(t, err)
	require.Equal(t, 2, e.audits(t, billing.AuditCollectionChanged))
	charges = e.fake.InvoiceCharges()
	inv3 := e.renew(t, false)
	require.Equal(t, charges+1, e.fake.InvoiceCharges())
	require.Equal(t, invoice.StatusPaid, inv3.Status)
	tl, err := e.staff.GetAdminSubscriptionTimeline(e.ctx, api.GetAdminSubscriptionTimelineParams{ID: e.pass})
	require.NoError(t, err)
	actions := []string{}
	for _, c := range tl.Data.Changes {
		actions = append(actions, c.Action)
	}
	require.Equal(t, []string{billing.AuditCollectionChanged, billing.AuditSettledExternally, billing.AuditSettledExternally,
		billing.AuditCollectionChanged}, actions,
		"the timeline shows the staff's collection changes and settlements (the one Stripe's event finished too), newest first")
	_, err = e.settle(t, "s-5", api.ExternalSettlementRequestMethodCash)
	_, code, _ = apiCode(t, err)
	require.Equal(t, billing.CodeNotExternallyBilled, code)
}

// TestShiftNextChargeDBErrorKeepsKey: a database failure after the key is
// claimed (and after Stripe took the date) answers 500 DB_ERROR without the
// internal text and changes none of our rows; the same key then succeeds
// (it was left free), once.
func TestShiftNextChargeDBErrorKeepsKey(t *testing.T) {
	e := newLifeEnv(t)
	before := *e.db().Pass.GetX(e.op, e.pass).ValidTo
	_, err := e.pool.Exec(e.ctx, `CREATE FUNCTION refuse_shift() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'shift write refused'; END $$;
		CREATE TRIGGER refuse_shift BEFORE INSERT ON audit_logs FOR EACH ROW
		WHEN (NEW.action = 'membership.next_charge_shifted') EXECUTE FUNCTION refuse_shift()`)
	require.NoError(t, err)
	newDate := time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, 40)
	req := &api.ShiftNextChargeRequest{NewDate: newDate}
	params := api.ShiftAdminNextChargeParams{ID: e.pass, IdempotencyKey: "shift-db-1"}
	_, err = e.boss.ShiftAdminNextCharge(e.ctx, req, params)
	st, code, _ := apiCode(t, err)
	require.Equal(t, http.StatusInternalServerError, st)
	require.Equal(t, billing.CodeDBError, code)
	require.NotContains(t, err.Error(), "shift write refused", "no internal error text reaches the client")
	require.Equal(t, before, *e.db().Pass.GetX(e.op, e.pass).ValidTo, "nothing changed")
	require.Zero(t, e.audits(t, billing.AuditNextChargeShifted))

	_, err = e.pool.Exec(e.ctx, `DROP TRIGGER refuse_shift ON audit_logs`)
	require.NoError(t, err)
	out, err := e.boss.ShiftAdminNextCharge(e.ctx, req, params)
	require.NoError(t, err, "the key was left free")
	require.Equal(t, newDate, out.Data.ValidTo.Value)
	again, err := e.boss.ShiftAdminNextCharge(e.ctx, req, params)
	require.NoError(t, err, "now the key replays")
	require.Equal(t, out.Data.ValidTo, again.Data.ValidTo)
	require.Equal(t, 1, e.audits(t, billing.AuditNextChargeShifted))
}

package handlers_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// rawAs sends a JSON body with a bearer token, for bodies the generated
// client refuses to send.
func (e *billEnv) rawAs(t *testing.T, token, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, e.url+"/api/v1"+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", uuid.NewString())
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func (e *billEnv) overrideRows(t *testing.T) int {
	t.Helper()
	var n int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM payment_overrides WHERE organization_id = $1`, e.venue.ID).Scan(&n))
	return n
}

// TestAdminPaymentOverrides: staff with billing.manage read the upcoming
// periods, comp the next one and reprice the one after through the API; the
// renewal then invoices zero and charges nothing, the next one charges the
// override; invoiced overrides are locked; bad input, a missing permission,
// another pass and a conflict change nothing.
func TestAdminPaymentOverrides(t *testing.T) {
	e := newBillEnv(t)
	s := e.signup(t, "price@pay.example", goodPassword)
	enroll(t, e.authEnv, e.op, "price@pay.example", "staff", billing.PermBillingManage)
	staff := e.client(t, s.AccessToken)
	_, err := staff.SetActiveOrganization(e.ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	sub := e.db().Subscription.Query().Where(subscription.PassID(e.pass)).OnlyX(e.op)

	_, err = e.staff.ListAdminPaymentOverrides(e.ctx, api.ListAdminPaymentOverridesParams{ID: e.pass})
	st, _, _ := apiCode(t, err)
	require.Equal(t, http.StatusForbidden, st, "passes.manage is not billing.manage")
	list, err := staff.ListAdminPaymentOverrides(e.ctx, api.ListAdminPaymentOverridesParams{ID: e.pass, Periods: api.NewOptInt(12)})
	require.NoError(t, err)
	require.Len(t, list.Data.Periods, 12)
	p1, p2 := list.Data.Periods[0], list.Data.Periods[1]
	require.Equal(t, int64(49900), p1.AmountMinor)
	require.True(t, p1.Override.Null)

	comp, err := staff.CreateAdminPaymentOverrides(e.ctx, &api.AdminPaymentOverrideCreateRequest{Mode: api.AdminPaymentOverrideCreateRequestModePeriods,
		PeriodStarts: []time.Time{p1.PeriodStart}, AmountMinor: 0, Reason: api.NewOptString("injury")},
		api.CreateAdminPaymentOverridesParams{ID: e.pass, IdempotencyKey: "o-1"})
	require.NoError(t, err)
	require.Len(t, comp.Data, 1)
	require.Equal(t, api.AdminPaymentOverrideStatusScheduled, comp.Data[0].Status)
	require.True(t, comp.Data[0].ProcessorSynced)
	require.Equal(t, []int64{-49900}, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID))
	// The same key and body replays: one override, one item.
	again, err := staff.CreateAdminPaymentOverrides(e.ctx, &api.AdminPaymentOverrideCreateRequest{Mode: api.AdminPaymentOverrideCreateRequestModePeriods,
		PeriodStarts: []time.Time{p1.PeriodStart}, AmountMinor: 0, Reason: api.NewOptString("injury")},
		api.CreateAdminPaymentOverridesParams{ID: e.pass, IdempotencyKey: "o-1"})
	require.NoError(t, err)
	require.Equal(t, comp.Data[0].ID, again.Data[0].ID)
	second, err := staff.CreateAdminPaymentOverrides(e.ctx, &api.AdminPaymentOverrideCreateRequest{Mode: api.AdminPaymentOverrideCreateRequestModeRange,
		From: api.NewOptDate(p2.PeriodStart), To: api.NewOptDate(p2.PeriodStart.AddDate(0, 0, 2)), AmountMinor: 25000},
		api.CreateAdminPaymentOverridesParams{ID: e.pass, IdempotencyKey: "o-2"})
	require.NoError(t, err)
	require.Len(t, second.Data, 1)

	// Refusals change nothing.
	rows := e.overrideRows(t)
	path := "/admin/passes/" + e.pass.String() + "/payment-overrides"
	d1 := p1.PeriodStart.Format(time.DateOnly)
	for _, c := range []struct{ body, code string }{
		{`{"mode":"periods","period_starts":["` + d1 + `"],"amount_minor":-1}`, "VALIDATION_ERROR"},
		{`{"mode":"periods","period_starts":["` + d1 + `"],"amount_minor":12.5}`, "VALIDATION_ERROR"},
		{`{"mode":"periods","period_starts":["` + d1 + `"],"amount_minor":"100"}`, "VALIDATION_ERROR"},
		{`{"mode":"weeks","period_starts":["` + d1 + `"],"amount_minor":100}`, "VALIDATION_ERROR"},
		{`{"mode":"periods","period_starts":["` + d1 + `"],"amount_minor":100,"extra":1}`, "VALIDATION_ERROR"},
		{`{"mode":"periods","period_starts":["` + p1.PeriodStart.AddDate(0, -1, 0).Format(time.DateOnly) + `"],"amount_minor":100}`, "INVALID_RANGE"},
		{`{"mode":"periods","period_starts":["` + p1.PeriodStart.AddDate(0, 0, 3).Format(time.DateOnly) + `"],"amount_minor":100}`, "INVALID_RANGE"},
		{`{"mode":"range","from":"` + p2.PeriodStart.Format(time.DateOnly) + `","to":"` + d1 + `","amount_minor":100}`, "INVALID_RANGE"},
		{`{"mode":"range","amount_minor":100}`, "INVALID_RANGE"},
		{`{"mode":"periods","period_starts":["` + d1 + `"],"amount_minor":100}`, "OVERRIDE_CONFLICT"},
	} {
		_, b := e.rawAs(t, s.AccessToken, http.MethodPost, path, c.body)
		require.Contains(t, b, `"`+c.code+`"`, c.body)
	}
	st, _ = e.rawAs(t, s.AccessToken, http.MethodPost, "/admin/passes/"+uuid.NewString()+"/payment-overrides",
		`{"mode":"periods","period_starts":["`+d1+`"],"amount_minor":100}`)
	require.Equal(t, http.StatusNotFound, st)
	bulk7 := make([]time.Time, 0, 7)
	for _, p := range list.Data.Periods[2:9] {
		bulk7 = append(bulk7, p.PeriodStart)
	}
	_, err = staff.BulkAdminPaymentOverrides(e.ctx, &api.AdminPaymentOverrideBulkRequest{Action: api.AdminPaymentOverrideBulkRequestActionSet,
		PeriodStarts: bulk7, AmountMinor: api.NewOptInt64(1)}, api.BulkAdminPaymentOverridesParams{ID: e.pass, IdempotencyKey: "b-0"})
	require.Error(t, err, "at most six")
	require.Equal(t, rows, e.overrideRows(t))
	require.Equal(t, []int64{-49900}, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID))

	// The comped renewal: a zero invoice, paid, nothing charged.
	charges := e.fake.InvoiceCharges()
	inv := e.renew(t, false)
	require.Equal(t, invoice.StatusPaid, inv.Status)
	require.Zero(t, inv.TotalMinor)
	require.Equal(t, charges, e.fake.InvoiceCharges())
	require.Equal(t, []int64{25000 - 49900}, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID))
	// Locked.
	_, err = staff.UpdateAdminPaymentOverride(e.ctx, &api.AdminPaymentOverrideUpdateRequest{AmountMinor: api.NewOptInt64(100)},
		api.UpdateAdminPaymentOverrideParams{ID: e.pass, OverrideId: comp.Data[0].ID, IdempotencyKey: "u-1"})
	_, code, _ := apiCode(t, err)
	require.Equal(t, billing.CodeOverrideApplied, code)
	_, err = staff.DeleteAdminPaymentOverride(e.ctx, api.DeleteAdminPaymentOverrideParams{ID: e.pass, OverrideId: comp.Data[0].ID, IdempotencyKey: "d-1"})
	_, code, _ = apiCode(t, err)
	require.Equal(t, billing.CodeOverrideApplied, code)
	// Another pass's override is not found.
	_, err = staff.DeleteAdminPaymentOverride(e.ctx, api.DeleteAdminPaymentOverrideParams{ID: uuid.New(), OverrideId: second.Data[0].ID, IdempotencyKey: "d-2"})
	st, _, _ = apiCode(t, err)
	require.Equal(t, http.StatusNotFound, st)

	// The repriced renewal charges the override.
	inv = e.renew(t, false)
	require.Equal(t, invoice.StatusPaid, inv.Status)
	require.Equal(t, int64(25000), inv.TotalMinor)
	require.Equal(t, charges+1, e.fake.InvoiceCharges())
	list, err = staff.ListAdminPaymentOverrides(e.ctx, api.ListAdminPaymentOverridesParams{ID: e.pass})
	require.NoError(t, err)
	require.Len(t, list.Data.Periods, 6)
	require.Len(t, list.Data.Overrides, 2)
	for _, o := range list.Data.Overrides {
		require.Equal(t, api.AdminPaymentOverrideStatusApplied, o.Status)
		require.False(t, o.InvoiceID.Null)
	}

	// Bulk set two periods, then restore one; delete the other.
	d3, d4 := list.Data.Periods[0].PeriodStart, list.Data.Periods[1].PeriodStart
	set, err := staff.BulkAdminPaymentOverrides(e.ctx, &api.AdminPaymentOverrideBulkRequest{Action: api.AdminPaymentOverrideBulkRequestActionSet,
		PeriodStarts: []time.Time{d3, d4}, AmountMinor: api.NewOptInt64(10000)}, api.BulkAdminPaymentOverridesParams{ID: e.pass, IdempotencyKey: "b-1"})
	require.NoError(t, err)
	require.Len(t, set.Data, 2)
	require.Equal(t, []int64{10000 - 49900}, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID))
	_, err = staff.BulkAdminPaymentOverrides(e.ctx, &api.AdminPaymentOverrideBulkRequest{Action: api.AdminPaymentOverrideBulkRequestActionRestore,
		PeriodStarts: []time.Time{d3}}, api.BulkAdminPaymentOverridesParams{ID: e.pass, IdempotencyKey: "b-2"})
	require.NoError(t, err)
	require.Empty(t, e.fake.InvoiceItemsOf(*sub.ProcessorSubscriptionID))
	del, err := staff.DeleteAdminPaymentOverride(e.ctx, api.DeleteAdminPaymentOverrideParams{ID: e.pass, OverrideId: set.Data[1].ID, IdempotencyKey: "d-3"})
	require.NoError(t, err)
	require.True(t, del.Data.Deleted)
	require.Equal(t, 2, e.overrideRows(t))
	var audits int
	require.NoError(t, e.pool.QueryRow(e.ctx, `SELECT count(*) FROM audit_logs WHERE organization_id = $1 AND action LIKE 'membership.payment_override%'`, e.venue.ID).Scan(&audits))
	require.Equal(t, 5, audits, "two creates, two bulks, one delete")
}

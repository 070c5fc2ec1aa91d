package handlers_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/refund"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// reportPayments writes the studio's payments of the sales tests: three
// currencies with their own exponents, every method, paid today, yesterday
// and 10 days ago, in the states that count and those that do not, some with
// the studio's brand and location; and one payment of the other venue.
func reportPayments(t *testing.T, e *schedEnv) {
	t.Helper()
	at := func(day, hour int) time.Time { return e.today.AddDate(0, 0, day).Add(time.Duration(hour) * time.Hour) }
	add := func(op context.Context, minor int64, cur string, st payment.Status, kind payment.Kind, m payment.Method, paid time.Time, brand, loc *uuid.UUID) *ent.Payment {
		c := e.db().Payment.Create().SetAmountMinor(minor).SetCurrency(cur).SetStatus(st).SetKind(kind).SetMethod(m).
			SetCreatedAt(paid.Add(-time.Hour)).SetNillableBrandID(brand).SetNillableLocationID(loc)
		if st == payment.StatusSucceeded {
			c.SetPaidAt(paid)
		}
		return c.SaveX(op)
	}
	b, l := &e.brand, &e.location
	add(e.op, 15000, "DKK", payment.StatusSucceeded, payment.KindProduct, payment.MethodCash, at(0, 10), b, l)
	add(e.op, 9950, "DKK", payment.StatusSucceeded, payment.KindPassPurchase, payment.MethodCard, at(0, 11), nil, nil)
	add(e.op, 2500, "DKK", payment.StatusSucceeded, payment.KindGiftCard, payment.MethodGiftCard, at(0, 12), b, nil)
	add(e.op, 1200, "JPY", payment.StatusSucceeded, payment.KindDropIn, payment.MethodCard, at(0, 13), nil, l)
	add(e.op, 1250, "KWD", payment.StatusSucceeded, payment.KindFee, payment.MethodBankTransfer, at(-1, 9), nil, nil)
	add(e.op, 7000, "DKK", payment.StatusSucceeded, payment.KindRenewal, payment.MethodCard, at(-1, 23), b, l)
	add(e.op, 4000, "DKK", payment.StatusSucceeded, payment.KindRenewal, payment.MethodCard, at(-10, 12), nil, nil)
	add(e.op, 3000, "DKK", payment.StatusPending, payment.KindPassPurchase, payment.MethodCard, at(0, 14), nil, nil)
	add(e.op, 5000, "DKK", payment.StatusFailed, payment.KindPassPurchase, payment.MethodCard, at(0, 15), nil, nil)
	add(e.op, 6000, "DKK", payment.StatusRefunded, payment.KindProduct, payment.MethodCash, at(0, 15), nil, nil)
	// A pending payment that succeeds later, and one deleted: the rollup follows updates and deletes.
	p := add(e.op, 800, "DKK", payment.StatusPending, payment.KindDropIn, payment.MethodCash, at(0, 9), nil, l)
	e.db().Payment.UpdateOne(p).SetStatus(payment.StatusSucceeded).SetPaidAt(at(0, 16)).ExecX(e.op)
	gone := add(e.op, 99900, "DKK", payment.StatusSucceeded, payment.KindProduct, payment.MethodCash, at(0, 10), nil, nil)
	e.db().Payment.DeleteOne(gone).ExecX(e.op)
	// One statement of several rows (grouped by the statement trigger), then one
	// update of several rows that moves two of them to another method.
	bulk := make([]*ent.PaymentCreate, 3)
	for i := range bulk {
		bulk[i] = e.db().Payment.Create().SetAmountMinor(int64(1000 * (i + 1))).SetCurrency("DKK").SetStatus(payment.StatusSucceeded).
			SetKind(payment.KindProduct).SetMethod(payment.MethodCash).SetCreatedAt(at(-2, 9)).SetPaidAt(at(-2, 10))
	}
	e.db().Payment.CreateBulk(bulk...).ExecX(e.op)
	e.db().Payment.Update().Where(payment.AmountMinorIn(2000, 3000), payment.KindEQ(payment.KindProduct)).
		SetMethod(payment.MethodCard).ExecX(e.op)
	add(e.otherOp, 123400, "DKK", payment.StatusSucceeded, payment.KindProduct, payment.MethodCash, at(0, 10), nil, nil)
	// Refunds: netted on the date each succeeded, in the dimensions of their
	// payment, which keeps counting as the sale it was. A partial refund today
	// of yesterday's card renewal, a full one today of 10 days ago's, one in
	// a batch of two yesterday (one still pending: it counts once it
	// succeeds), and one that failed.
	addRefund := func(p *ent.Payment, minor int64, st refund.Status, when time.Time, ps payment.Status) *ent.Refund {
		c := e.db().Refund.Create().SetPaymentID(p.ID).SetAmountMinor(minor).SetCurrency(p.Currency).SetStatus(st).
			SetDestination(refund.DestinationOriginalPaymentMethod).SetCreatedAt(when)
		if st == refund.StatusSucceeded {
			c.SetRefundedAt(when)
		}
		r := c.SaveX(e.op)
		e.db().Payment.UpdateOne(p).SetStatus(ps).ExecX(e.op)
		return r
	}
	renewal := e.db().Payment.Query().Where(payment.AmountMinor(7000)).OnlyX(e.op)
	old := e.db().Payment.Query().Where(payment.AmountMinor(4000)).OnlyX(e.op)
	kwd := e.db().Payment.Query().Where(payment.AmountMinor(1250)).OnlyX(e.op)
	addRefund(renewal, 2500, refund.StatusSucceeded, at(0, 8), payment.StatusPartiallyRefunded)
	addRefund(old, 4000, refund.StatusSucceeded, at(0, 9), payment.StatusRefunded)
	addRefund(kwd, 250, refund.StatusFailed, at(-1, 20), payment.StatusSucceeded)
	pending := addRefund(kwd, 500, refund.StatusPending, at(-1, 21), payment.StatusSucceeded)
	e.db().Refund.UpdateOne(pending).SetStatus(refund.StatusSucceeded).SetRefundedAt(at(-1, 22)).ExecX(e.op)
	e.db().Payment.UpdateOne(kwd).SetStatus(payment.StatusPartiallyRefunded).ExecX(e.op)
}

// sqlSales is the plain SQL sum of the studio's payment rows less their
// refunds a snapshot must equal: currency -> [amount_minor, payments]. A
// payment counts as the sale it was whatever its refunds (status succeeded,
// refunded or partially refunded; accrual also pending), on its own date; a
// refund that succeeded subtracts on its own date.
func sqlSales(t *testing.T, e *schedEnv, basis string, from, to time.Time, where string, args ...any) map[string][2]int64 {
	t.Helper()
	at, states := "paid_at", "status IN ('succeeded', 'refunded', 'partially_refunded')"
	if basis == "accrual" {
		at, states = "created_at", "status IN ('pending', 'succeeded', 'refunded', 'partially_refunded')"
	}
	q := `SELECT currency, sum(amount)::bigint, sum(n)::bigint FROM (
		SELECT currency, amount_minor AS amount, 1 AS n FROM payments
		WHERE organization_id = $1 AND ` + states + ` AND (` + at + ` AT TIME ZONE $2)::date BETWEEN $3::date AND $4::date` + where + `
		UNION ALL
		SELECT p.currency, -r.amount_minor, 0 FROM refunds r JOIN payments p ON p.id = r.payment_id
		WHERE r.organization_id = $1 AND r.status = 'succeeded'
		  AND (r.refunded_at AT TIME ZONE $2)::date BETWEEN $3::date AND $4::date` + where + `) f
		GROUP BY currency`
	rows, err := e.pool.Query(context.Background(), q, append([]any{e.venue.ID, e.venue.Timezone, from.Format(time.DateOnly), to.Format(time.DateOnly)}, args...)...)
	require.NoError(t, err)
	defer rows.Close()
	out := map[string][2]int64{}
	for rows.Next() {
		var cur string
		var sum, n int64
		require.NoError(t, rows.Scan(&cur, &sum, &n))
		out[cur] = [2]int64{sum, n}
	}
	require.NoError(t, rows.Err())
	return out
}

func snapshotTotals(t *testing.T, res api.GetSalesSnapshotRes) (map[string][2]int64, *api.SalesSnapshot) {
	t.Helper()
	s, ok := res.(*api.SalesSnapshotResponse)
	require.True(t, ok, "a JSON snapshot, got %T", res)
	out := map[string][2]int64{}
	for _, a := range s.Data.Totals {
		out[a.Currency] = [2]int64{a.AmountMinor, a.Payments}
	}
	return out, &s.Data
}

// TestSalesSnapshotEqualsPaymentRows: for every range, both bases and each
// filter, the snapshot's totals equal a plain SQL sum of the payment rows, in
// the venue's time zone, with each currency's exponent; nothing of another
// venue counts; refresh=1 recomputes a damaged rollup from the payments.
func TestSalesSnapshotEqualsPaymentRows(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	reportPayments(t, e)
	key := e.keyClient(t, e.studio.key)
	staff := e.staff(t, "owner@studio.example", "reports.view")
	today := time.Date(e.today.Year(), e.today.Month(), e.today.Day(), 0, 0, 0, 0, time.UTC)
	ranges := map[api.ReportRange][2]time.Time{
		api.ReportRangeToday:     {today, today},
		api.ReportRangeYesterday: {today.AddDate(0, 0, -1), today.AddDate(0, 0, -1)},
		api.ReportRange7d:        {today.AddDate(0, 0, -6), today},
		api.ReportRange30d:       {today.AddDate(0, 0, -29), today},
		api.ReportRangeMtd:       {time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC), today},
	}
	for rng, span := range ranges {
		for _, basis := range []api.GetSalesSnapshotBasis{api.GetSalesSnapshotBasisCash, api.GetSalesSnapshotBasisAccrual} {
			res, err := key.GetSalesSnapshot(ctx, api.GetSalesSnapshotParams{Range: api.NewOptReportRange(rng), Basis: api.NewOptGetSalesSnapshotBasis(basis)})
			require.NoError(t, err)
			got, data := snapshotTotals(t, res)
			require.Equal(t, sqlSales(t, e, string(basis), span[0], span[1], ""), got, "%s %s", rng, basis)
			require.Equal(t, span[0], data.Period.From, "%s", rng)
			require.Equal(t, span[1], data.Period.To, "%s", rng)
		}
	}
	// Today's cash: DKK 150.00 + 99.50 + 25.00 + 8.00 (the pending one that
	// succeeded) less today's refunds 25.00 and 40.00 (of payments of other
	// days), JPY 1200, no KWD (yesterday).
	res, err := staff.GetSalesSnapshot(ctx, api.GetSalesSnapshotParams{})
	require.NoError(t, err)
	got, data := snapshotTotals(t, res)
	require.Equal(t, map[string][2]int64{"DKK": {15000 + 9950 + 2500 + 800 - 2500 - 4000, 4}, "JPY": {1200, 1}}, got)
	for _, a := range data.Totals {
		if a.Currency == "DKK" {
			require.Equal(t, int64(15000+9950+2500+800), a.GrossMinor.Value)
			require.Equal(t, int64(6500), a.RefundedMinor.Value)
			require.Equal(t, int64(2), a.Refunds.Value)
		}
	}
	for _, a := range data.Totals {
		switch a.Currency {
		case "DKK":
			require.Equal(t, 2, a.Exponent)
			require.InDelta(t, 217.50, a.Amount, 1e-9)
		case "JPY":
			require.Equal(t, 0, a.Exponent)
			require.InDelta(t, 1200, a.Amount, 1e-9)
		}
	}
	// Yesterday's KWD keeps three digits.
	res, err = key.GetSalesSnapshot(ctx, api.GetSalesSnapshotParams{Range: api.NewOptReportRange(api.ReportRangeYesterday)})
	require.NoError(t, err)
	_, data = snapshotTotals(t, res)
	require.Contains(t, data.Totals, api.SalesAmount{Currency: "KWD", Exponent: 3, AmountMinor: 750, Amount: 0.75, Payments: 1,
		GrossMinor: api.NewOptInt64(1250), RefundedMinor: api.NewOptInt64(500), Refunds: api.NewOptInt64(1)})

	// Filters, each against SQL over the same rows.
	from, to := today.AddDate(0, 0, -29), today
	custom := api.GetSalesSnapshotParams{Range: api.NewOptReportRange(api.ReportRangeCustom), From: api.NewOptDate(from), To: api.NewOptDate(to)}
	check := func(p api.GetSalesSnapshotParams, where string, args ...any) {
		t.Helper()
		res, err := key.GetSalesSnapshot(ctx, p)
		require.NoError(t, err)
		got, _ := snapshotTotals(t, res)
		want := sqlSales(t, e, "cash", from, to, where, args...)
		require.NotEmpty(t, want)
		require.Equal(t, want, got, where)
	}
	p := custom
	p.Methods = api.NewOptString("cash,gift_card")
	check(p, " AND method IN ('cash', 'gift_card')")
	p = custom
	p.Categories = api.NewOptString("renewal")
	check(p, " AND kind = 'renewal'")
	p = custom
	p.Brand = api.NewOptUUID(e.brand)
	check(p, " AND brand_id = $5", e.brand)
	p = custom
	p.Location = api.NewOptUUID(e.location)
	p.Methods = api.NewOptString("card")
	check(p, " AND location_id = $5 AND method = 'card'", e.location)

	// A damaged rollup (or a time-zone change) is recomputed by refresh=1.
	_, err = e.pool.Exec(ctx, `UPDATE sales_dailies SET amount_minor = amount_minor + 1 WHERE organization_id = $1`, e.venue.ID)
	require.NoError(t, err)
	res, err = key.GetSalesSnapshot(ctx, custom)
	require.NoError(t, err)
	got, _ = snapshotTotals(t, res)
	require.NotEqual(t, sqlSales(t, e, "cash", from, to, ""), got)
	p = custom
	p.Refresh = api.NewOptGetSalesSnapshotRefresh(api.GetSalesSnapshotRefresh1)
	res, err = key.GetSalesSnapshot(ctx, p)
	require.NoError(t, err)
	got, data = snapshotTotals(t, res)
	require.True(t, data.Refreshed)
	require.Equal(t, sqlSales(t, e, "cash", from, to, ""), got)
}

// TestSalesSnapshotCSV: format=csv answers text/csv with a header, one line
// per method, category and currency and a total per currency, amounts with
// the currency's digits.
func TestSalesSnapshotCSV(t *testing.T) {
	e := newSchedEnv(t)
	reportPayments(t, e)
	res, err := e.keyClient(t, e.studio.key).GetSalesSnapshot(e.ctx, api.GetSalesSnapshotParams{Format: api.NewOptReportFormat(api.ReportFormatCsv)})
	require.NoError(t, err)
	body, ok := res.(*api.GetSalesSnapshotOKTextCsv)
	require.True(t, ok, "%T", res)
	records, err := csv.NewReader(body).ReadAll()
	require.NoError(t, err)
	require.Equal(t, []string{"from", "to", "basis", "method", "category", "currency", "exponent", "amount_minor", "amount", "payments"}, records[0])
	day := e.today.Format(time.DateOnly)
	require.Contains(t, records, []string{day, day, "cash", "cash", "product", "DKK", "2", "15000", "150.00", "1"})
	require.Contains(t, records, []string{day, day, "cash", "all", "all", "DKK", "2", "21750", "217.50", "4"})
	// A line of refunds only (of payments of other days) is negative.
	require.Contains(t, records, []string{day, day, "cash", "card", "renewal", "DKK", "2", "-6500", "-65.00", "0"})
	require.Contains(t, records, []string{day, day, "cash", "all", "all", "JPY", "0", "1200", "1200", "1"})

	// The header and content type on the wire.
	req, err := http.NewRequest(http.MethodGet, e.url+"/api/v1/admin/sales-snapshot?format=csv", nil)
	require.NoError(t, err)
	req.Header.Set("X-API-Key", e.studio.key)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), "text/csv"), resp.Header.Get("Content-Type"))
}

// TestReportsBadInputAndAccess: the contract's errors, and nothing changes
// (a refused refresh leaves a damaged rollup as it was).
func TestReportsBadInputAndAccess(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	reportPayments(t, e)
	key := e.keyClient(t, e.studio.key)
	d := func(days int) api.OptDate {
		return api.NewOptDate(time.Date(e.today.Year(), e.today.Month(), e.today.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, days))
	}
	custom := api.NewOptReportRange(api.ReportRangeCustom)
	_, err := e.pool.Exec(ctx, `UPDATE sales_dailies SET amount_minor = amount_minor + 1 WHERE organization_id = $1`, e.venue.ID)
	require.NoError(t, err)
	var before int64
	require.NoError(t, e.pool.QueryRow(ctx, `SELECT sum(amount_minor)::bigint FROM sales_dailies WHERE organization_id = $1`, e.venue.ID).Scan(&before))
	refresh := api.NewOptGetSalesSnapshotRefresh(api.GetSalesSnapshotRefresh1)
	for name, c := range map[string]struct {
		p      api.GetSalesSnapshotParams
		status int
		code   string
	}{
		"custom without from": {api.GetSalesSnapshotParams{Range: custom, To: d(0), Refresh: refresh}, 400, "INVALID_RANGE"},
		"custom without to":   {api.GetSalesSnapshotParams{Range: custom, From: d(0), Refresh: refresh}, 400, "INVALID_RANGE"},
		"from without custom": {api.GetSalesSnapshotParams{From: d(-3), Refresh: refresh}, 400, "INVALID_RANGE"},
		"to before from":      {api.GetSalesSnapshotParams{Range: custom, From: d(0), To: d(-1), Refresh: refresh}, 400, "INVALID_RANGE"},
		"over 366 days":       {api.GetSalesSnapshotParams{Range: custom, From: d(-366), To: d(0), Refresh: refresh}, 400, "INVALID_RANGE"},
		"unknown brand":       {api.GetSalesSnapshotParams{Brand: api.NewOptUUID(uuid.New()), Refresh: refresh}, 404, "BRAND_NOT_FOUND"},
		"unknown location":    {api.GetSalesSnapshotParams{Location: api.NewOptUUID(uuid.New()), Refresh: refresh}, 404, "NOT_FOUND"},
	} {
		_, err := key.GetSalesSnapshot(ctx, c.p)
		requireErr(t, err, c.status, c.code)
		_ = name
	}
	var after int64
	require.NoError(t, e.pool.QueryRow(ctx, `SELECT sum(amount_minor)::bigint FROM sales_dailies WHERE organization_id = $1`, e.venue.ID).Scan(&after))
	require.Equal(t, before, after, "a refused request recomputes nothing")

	// The other venue's brand looks exactly like an unknown one.
	otherBrand := e.db().Brand.Create().SetName("Theirs").SetSlug("theirs").SaveX(e.otherOp)
	_, err = key.GetSalesSnapshot(ctx, api.GetSalesSnapshotParams{Brand: api.NewOptUUID(otherBrand.ID)})
	requireErr(t, err, 404, "BRAND_NOT_FOUND")

	// The input gate: a method outside the list, a malformed date, an unknown range.
	for _, q := range []string{"methods=card,bitcoin", "from=2026-02-30&range=custom&to=2026-03-01", "range=week", "basis=cashflow", "refresh=2", "format=xml"} {
		req, err := http.NewRequest(http.MethodGet, e.url+"/api/v1/admin/sales-snapshot?"+q, nil)
		require.NoError(t, err)
		req.Header.Set("X-API-Key", e.studio.key)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var env struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusBadRequest, resp.StatusCode, "%s: %s", q, b)
		require.NoError(t, json.Unmarshal(b, &env))
		require.Equal(t, "VALIDATION_ERROR", env.Error.Code, q)
	}

	// Permissions: a staff member without reports.view; attendance needs both of its permissions; a key without read:reports.
	noPerm := e.staff(t, "desk@studio.example", "booking.checkin")
	_, err = noPerm.GetSalesSnapshot(ctx, api.GetSalesSnapshotParams{})
	requireErr(t, err, 403, "ACCESS_DENIED")
	half := e.staff(t, "coach@studio.example", "reports.classes")
	_, err = half.GetAttendanceReport(ctx, api.GetAttendanceReportParams{})
	requireErr(t, err, 403, "ACCESS_DENIED")
	_, err = e.keyClient(t, e.writeKey).GetSalesSnapshot(ctx, api.GetSalesSnapshotParams{})
	requireErr(t, err, 403, "ACCESS_DENIED")
	_, err = e.keyClient(t, e.writeKey).GetBrandAnalytics(ctx, api.GetBrandAnalyticsParams{})
	requireErr(t, err, 403, "ACCESS_DENIED")
}

// TestAttendanceAndBrandReports: the attendance report counts bookings by
// class date (status now) and by action date (when each action happened),
// brand analytics counts classes, bookings, check-ins and sales per brand,
// and both download as CSV with RFC 4180 quoting.
func TestAttendanceAndBrandReports(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	reportPayments(t, e)
	owner := e.staff(t, "owner@studio.example", "reports.view", "reports.classes", "members.view_insights")
	// A class three days ago (booked, checked in, no-show, late-cancelled, waitlisted), the brand Hot Yoga's.
	start := e.today.AddDate(0, 0, -3).Add(10 * time.Hour)
	cl := e.db().ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(start).SetEndTime(start.Add(time.Hour)).
		SetCapacity(10).SetLocationID(e.location).SaveX(e.op)
	ms := e.db().Member.Query().Limit(4).AllX(e.op)
	require.Len(t, ms, 4)
	made := e.today.AddDate(0, 0, -5).Add(8 * time.Hour)
	e.db().Booking.Create().SetMemberID(ms[0].ID).SetClassInstanceID(cl.ID).SetStatus("checked_in").SetCreatedAt(made).
		SetCheckedInAt(start.Add(-5 * time.Minute)).ExecX(e.op)
	e.db().Booking.Create().SetMemberID(ms[1].ID).SetClassInstanceID(cl.ID).SetStatus("no-show").SetCreatedAt(made).ExecX(e.op)
	e.db().Booking.Create().SetMemberID(ms[2].ID).SetClassInstanceID(cl.ID).SetStatus("late-cancelled").SetCreatedAt(made).
		SetCancelledAt(start.Add(-time.Hour)).ExecX(e.op)
	e.db().Booking.Create().SetMemberID(ms[3].ID).SetClassInstanceID(cl.ID).SetStatus("waitlisted").SetCreatedAt(made).ExecX(e.op)
	utc := func(t time.Time) time.Time { return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC) }

	res, err := owner.GetAttendanceReport(ctx, api.GetAttendanceReportParams{Range: api.NewOptReportRange(api.ReportRange7d),
		Location: api.NewOptUUID(e.location)})
	require.NoError(t, err)
	a := res.(*api.AttendanceReportResponse).Data
	require.Equal(t, api.AttendanceReportViewClassDate, a.View)
	require.Equal(t, []api.AttendanceDay{{Date: utc(start), Counts: api.AttendanceCounts{Booked: 2, CheckedIn: 1, NoShow: 1, LateCancelled: 1, Waitlisted: 1}}}, a.Days)

	// Bookings made today (the studio's seed) stay outside this custom range.
	res, err = e.keyClient(t, e.studio.key).GetAttendanceReport(ctx, api.GetAttendanceReportParams{Range: api.NewOptReportRange(api.ReportRangeCustom),
		From: api.NewOptDate(utc(made)), To: api.NewOptDate(utc(start)),
		View: api.NewOptGetAttendanceReportView(api.GetAttendanceReportViewActionDate), Location: api.NewOptUUID(e.location)})
	require.NoError(t, err)
	a = res.(*api.AttendanceReportResponse).Data
	require.Equal(t, []api.AttendanceDay{
		{Date: utc(made), Counts: api.AttendanceCounts{Booked: 4, Waitlisted: 1}},
		{Date: utc(start), Counts: api.AttendanceCounts{CheckedIn: 1, NoShow: 1, LateCancelled: 1}},
	}, a.Days)
	require.Equal(t, api.AttendanceCounts{Booked: 4, CheckedIn: 1, NoShow: 1, LateCancelled: 1, Waitlisted: 1}, a.Totals)

	res, err = owner.GetAttendanceReport(ctx, api.GetAttendanceReportParams{Range: api.NewOptReportRange(api.ReportRange7d),
		Location: api.NewOptUUID(e.location), Format: api.NewOptReportFormat(api.ReportFormatCsv)})
	require.NoError(t, err)
	records, err := csv.NewReader(res.(*api.GetAttendanceReportOKTextCsv)).ReadAll()
	require.NoError(t, err)
	require.Equal(t, [][]string{
		{"date", "view", "booked", "checked_in", "no_show", "late_cancelled", "cancelled", "waitlisted"},
		{utc(start).Format(time.DateOnly), "class_date", "2", "1", "1", "1", "0", "1"},
		{"total", "class_date", "2", "1", "1", "1", "0", "1"},
	}, records)
	_, err = owner.GetAttendanceReport(ctx, api.GetAttendanceReportParams{Location: api.NewOptUUID(uuid.New())})
	requireErr(t, err, 404, "NOT_FOUND")

	// Brand analytics: a name a spreadsheet would misread is quoted and defused in the CSV.
	e.db().Brand.UpdateOneID(e.otherBrand).SetName(`=Spin, "45"`).ExecX(e.op)
	bres, err := owner.GetBrandAnalytics(ctx, api.GetBrandAnalyticsParams{Range: api.NewOptReportRange(api.ReportRange7d)})
	require.NoError(t, err)
	b := bres.(*api.BrandAnalyticsResponse).Data
	require.Len(t, b.Brands, 3)
	hot := b.Brands[1]
	require.Equal(t, "Hot Yoga", hot.Name)
	require.Equal(t, api.NewNilUUID(e.brand), hot.BrandID)
	require.GreaterOrEqual(t, hot.Classes, int64(2)) // the class above and the seeded past one
	require.Equal(t, int64(1), hot.CheckedIn)
	require.Equal(t, []api.SalesAmount{{Currency: "DKK", Exponent: 2, AmountMinor: 15000 + 2500 + 7000, Amount: 245, Payments: 3}}, hot.Sales)
	require.True(t, b.Brands[2].BrandID.Null, "the no-brand entry is last")

	bres, err = owner.GetBrandAnalytics(ctx, api.GetBrandAnalyticsParams{Range: api.NewOptReportRange(api.ReportRange7d), Format: api.NewOptReportFormat(api.ReportFormatCsv)})
	require.NoError(t, err)
	raw, err := io.ReadAll(bres.(*api.GetBrandAnalyticsOKTextCsv))
	require.NoError(t, err)
	require.Contains(t, string(raw), `,"'=Spin, ""45""",`)
	records, err = csv.NewReader(strings.NewReader(string(raw))).ReadAll()
	require.NoError(t, err)
	require.Equal(t, `'=Spin, "45"`, records[1][3])
}

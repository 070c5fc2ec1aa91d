package handlers

import (
	"bytes"
	"context"
	"encoding/csv"
	"strconv"
	"strings"
	"time"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/reports"
	"github.com/venueplatform/venue/internal/schedule"
)

// reportVenue authorizes a report read needing perms and reads the venue and
// the report's period.
func (h *Handler) reportVenue(ctx context.Context, rng api.OptReportRange, from, to api.OptDate, perms ...string) (schedule.Venue, reports.Period, error) {
	if err := reports.Authorize(ctx, perms...); err != nil {
		return schedule.Venue{}, reports.Period{}, err
	}
	v, err := schedule.LoadVenue(ctx, h.client)
	if err != nil {
		return schedule.Venue{}, reports.Period{}, err
	}
	var f, t *time.Time
	if from.Set {
		f = &from.Value
	}
	if to.Set {
		t = &to.Value
	}
	p, err := reports.ParsePeriod(string(rng.Value), f, t, v.Today(h.now()))
	return v, p, err
}

func reportPeriod(p reports.Period, tz string) api.ReportPeriod {
	return api.ReportPeriod{Range: api.ReportPeriodRange(p.Name), From: p.From, To: p.To, Timezone: tz}
}

func salesAmount(a reports.Amount) api.SalesAmount {
	return api.SalesAmount{Currency: a.Currency, Exponent: a.Exponent(), AmountMinor: a.AmountMinor, Amount: a.Major(), Payments: a.Payments,
		GrossMinor: api.NewOptInt64(a.GrossMinor), RefundedMinor: api.NewOptInt64(a.RefundedMinor), Refunds: api.NewOptInt64(a.Refunds)}
}

// GetSalesSnapshot implements getSalesSnapshot.
func (h *Handler) GetSalesSnapshot(ctx context.Context, p api.GetSalesSnapshotParams) (api.GetSalesSnapshotRes, error) {
	v, per, err := h.reportVenue(ctx, p.Range, p.From, p.To, reports.PermView)
	if err != nil {
		return nil, err
	}
	f := reports.SalesFilter{Basis: string(p.Basis.Value), BrandID: optUUID(p.Brand), LocationID: optUUID(p.Location)}
	if f.Methods, err = reports.ParseList("methods", p.Methods.Value, reports.Methods); err != nil {
		return nil, err
	}
	if f.Categories, err = reports.ParseList("categories", p.Categories.Value, reports.Categories); err != nil {
		return nil, err
	}
	s, err := reports.SalesSnapshot(ctx, h.client, per, v.Org.Timezone, f, p.Refresh.Value == api.GetSalesSnapshotRefresh1)
	if err != nil {
		return nil, err
	}
	if p.Format.Value == api.ReportFormatCsv {
		return &api.GetSalesSnapshotOKTextCsv{Data: bytes.NewReader(salesCSV(s))}, nil
	}
	out := api.SalesSnapshot{Period: reportPeriod(s.Period, s.Timezone), Basis: api.SalesSnapshotBasis(s.Filter.Basis),
		Filters: api.SalesSnapshotFilters{Methods: orEmpty(s.Filter.Methods), Categories: orEmpty(s.Filter.Categories),
			BrandID: nilUUIDOf(s.Filter.BrandID), LocationID: nilUUIDOf(s.Filter.LocationID)},
		Totals: make([]api.SalesAmount, len(s.Totals)), Lines: make([]api.SalesLine, len(s.Lines)), Refreshed: s.Refreshed}
	for i, a := range s.Totals {
		out.Totals[i] = salesAmount(a)
	}
	for i, l := range s.Lines {
		out.Lines[i] = api.SalesLine{Method: api.SalesLineMethod(l.Method), Category: l.Category, Currency: l.Currency,
			Exponent: l.Exponent(), AmountMinor: l.AmountMinor, Amount: l.Major(), Payments: l.Payments,
			GrossMinor: api.NewOptInt64(l.GrossMinor), RefundedMinor: api.NewOptInt64(l.RefundedMinor), Refunds: api.NewOptInt64(l.Refunds)}
	}
	return &api.SalesSnapshotResponse{Data: out}, nil
}

// GetAttendanceReport implements getAttendanceReport.
func (h *Handler) GetAttendanceReport(ctx context.Context, p api.GetAttendanceReportParams) (api.GetAttendanceReportRes, error) {
	v, per, err := h.reportVenue(ctx, p.Range, p.From, p.To, reports.PermClasses, reports.PermInsights)
	if err != nil {
		return nil, err
	}
	a, err := reports.AttendanceReport(ctx, h.client, per, v.Loc, v.Org.Timezone, string(p.View.Value), optUUID(p.Location))
	if err != nil {
		return nil, err
	}
	if p.Format.Value == api.ReportFormatCsv {
		return &api.GetAttendanceReportOKTextCsv{Data: bytes.NewReader(attendanceCSV(a))}, nil
	}
	out := api.AttendanceReport{Period: reportPeriod(a.Period, a.Timezone), View: api.AttendanceReportView(a.View),
		LocationID: nilUUIDOf(a.LocationID), Days: make([]api.AttendanceDay, len(a.Days)), Totals: attendanceCounts(a.Totals)}
	for i, d := range a.Days {
		out.Days[i] = api.AttendanceDay{Date: d.Date, Counts: attendanceCounts(d.Counts)}
	}
	return &api.AttendanceReportResponse{Data: out}, nil
}

func attendanceCounts(c reports.Counts) api.AttendanceCounts {
	return api.AttendanceCounts{Booked: c.Booked, CheckedIn: c.CheckedIn, NoShow: c.NoShow,
		LateCancelled: c.LateCancelled, Cancelled: c.Cancelled, Waitlisted: c.Waitlisted}
}

// GetBrandAnalytics implements getBrandAnalytics.
func (h *Handler) GetBrandAnalytics(ctx context.Context, p api.GetBrandAnalyticsParams) (api.GetBrandAnalyticsRes, error) {
	v, per, err := h.reportVenue(ctx, p.Range, p.From, p.To, reports.PermView)
	if err != nil {
		return nil, err
	}
	b, err := reports.BrandAnalytics(ctx, h.client, per, v.Loc, v.Org.Timezone)
	if err != nil {
		return nil, err
	}
	if p.Format.Value == api.ReportFormatCsv {
		return &api.GetBrandAnalyticsOKTextCsv{Data: bytes.NewReader(brandsCSV(b))}, nil
	}
	out := api.BrandAnalytics{Period: reportPeriod(b.Period, b.Timezone), Brands: make([]api.BrandAnalyticsEntry, len(b.Brands))}
	for i, e := range b.Brands {
		o := api.BrandAnalyticsEntry{BrandID: nilUUIDOf(e.BrandID), Name: e.Name, Classes: e.Classes,
			CancelledClasses: e.CancelledClasses, Booked: e.Booked, CheckedIn: e.CheckedIn, Sales: make([]api.SalesAmount, len(e.Sales))}
		for j, a := range e.Sales {
			// Brand analytics sums the brand's payments as sold; the
			// refund split belongs to the sales snapshot, so it is left out.
			o.Sales[j] = api.SalesAmount{Currency: a.Currency, Exponent: a.Exponent(), AmountMinor: a.AmountMinor,
				Amount: a.Major(), Payments: a.Payments}
		}
		out.Brands[i] = o
	}
	return &api.BrandAnalyticsResponse{Data: out}, nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// writeCSV writes a header and rows with RFC 4180 quoting (encoding/csv:
// fields holding a comma, quote or line break are quoted, quotes doubled),
// CRLF line ends.
func writeCSV(header []string, rows [][]string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.UseCRLF = true
	_ = w.Write(header)
	_ = w.WriteAll(rows) // a bytes.Buffer does not fail
	return b.Bytes()
}

// csvText neutralises a free-text cell a spreadsheet would run as a formula
// (=, +, -, @, tab or carriage return first) by a leading apostrophe.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

func csvDate(t time.Time) string { return t.Format(time.DateOnly) }

func csvInt(n int64) string { return strconv.FormatInt(n, 10) }

// salesCSV is one row per method, category and currency of s, then one
// total row per currency (method and category "all").
func salesCSV(s *reports.Snapshot) []byte {
	from, to := csvDate(s.Period.From), csvDate(s.Period.To)
	var rows [][]string
	for _, l := range s.Lines {
		rows = append(rows, []string{from, to, s.Filter.Basis, l.Method, l.Category, l.Currency,
			strconv.Itoa(l.Exponent()), csvInt(l.AmountMinor), l.Decimal(), csvInt(l.Payments)})
	}
	for _, a := range s.Totals {
		rows = append(rows, []string{from, to, s.Filter.Basis, "all", "all", a.Currency,
			strconv.Itoa(a.Exponent()), csvInt(a.AmountMinor), a.Decimal(), csvInt(a.Payments)})
	}
	return writeCSV([]string{"from", "to", "basis", "method", "category", "currency", "exponent", "amount_minor", "amount", "payments"}, rows)
}

// attendanceCSV is one row per date of a, then a total row (date "total").
func attendanceCSV(a *reports.Attendance) []byte {
	row := func(date string, c reports.Counts) []string {
		return []string{date, a.View, csvInt(c.Booked), csvInt(c.CheckedIn), csvInt(c.NoShow),
			csvInt(c.LateCancelled), csvInt(c.Cancelled), csvInt(c.Waitlisted)}
	}
	var rows [][]string
	for _, d := range a.Days {
		rows = append(rows, row(csvDate(d.Date), d.Counts))
	}
	rows = append(rows, row("total", a.Totals))
	return writeCSV([]string{"date", "view", "booked", "checked_in", "no_show", "late_cancelled", "cancelled", "waitlisted"}, rows)
}

// brandsCSV is one row per brand and sales currency (one row with empty
// currency for a brand without sales).
func brandsCSV(b *reports.BrandReport) []byte {
	from, to := csvDate(b.Period.From), csvDate(b.Period.To)
	var rows [][]string
	for _, e := range b.Brands {
		id := ""
		if e.BrandID != nil {
			id = e.BrandID.String()
		}
		base := []string{from, to, id, csvText(e.Name), csvInt(e.Classes), csvInt(e.CancelledClasses), csvInt(e.Booked), csvInt(e.CheckedIn)}
		if len(e.Sales) == 0 {
			rows = append(rows, append(base, "", "", "", "", ""))
		}
		for _, a := range e.Sales {
			rows = append(rows, append(append([]string{}, base...), a.Currency, strconv.Itoa(a.Exponent()),
				csvInt(a.AmountMinor), a.Decimal(), csvInt(a.Payments)))
		}
	}
	return writeCSV([]string{"from", "to", "brand_id", "brand", "classes", "cancelled_classes", "booked", "checked_in",
		"currency", "exponent", "amount_minor", "amount", "payments"}, rows)
}

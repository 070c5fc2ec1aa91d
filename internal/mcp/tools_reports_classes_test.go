package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/ogen-go/ogen/ogenerrors"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/accounts"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/mcptools"
	"github.com/venueplatform/venue/internal/server"
	"github.com/venueplatform/venue/internal/viewer"
)

type restKey string

func (k restKey) ApiKeyAuth(context.Context, api.OperationName) (api.ApiKeyAuth, error) {
	return api.ApiKeyAuth{APIKey: string(k)}, nil
}

func (restKey) BearerAuth(context.Context, api.OperationName) (api.BearerAuth, error) {
	return api.BearerAuth{}, ogenerrors.ErrSkipClientSecurity // the key alone
}

type countsJSON struct {
	Booked        int64 `json:"booked"`
	CheckedIn     int64 `json:"checked_in"`
	NoShow        int64 `json:"no_show"`
	LateCancelled int64 `json:"late_cancelled"`
	Cancelled     int64 `json:"cancelled"`
	Waitlisted    int64 `json:"waitlisted"`
}

type attendanceJSON struct {
	Range, From, To, Timezone, View string
	LocationID                      *string `json:"location_id"`
	Days                            []struct {
		Date string `json:"date"`
		countsJSON
	} `json:"days"`
	Totals countsJSON `json:"totals"`
}

type brandsJSON struct {
	Range, From, To string
	Brands          []struct {
		BrandID          *string `json:"brand_id"`
		Name             string  `json:"name"`
		Classes          int64   `json:"classes"`
		CancelledClasses int64   `json:"cancelled_classes"`
		Booked           int64   `json:"booked"`
		CheckedIn        int64   `json:"checked_in"`
		Sales            []struct {
			Currency    string `json:"currency"`
			AmountMinor int64  `json:"amount_minor"`
			Payments    int64  `json:"payments"`
		} `json:"sales"`
	} `json:"brands"`
}

func restCounts(c api.AttendanceCounts) countsJSON {
	return countsJSON{Booked: c.Booked, CheckedIn: c.CheckedIn, NoShow: c.NoShow,
		LateCancelled: c.LateCancelled, Cancelled: c.Cancelled, Waitlisted: c.Waitlisted}
}

// TestAttendanceAndBrandTools drives get_attendance_report and
// get_brand_analytics with the official Go SDK: each equals the REST report
// (GET /admin/reports/attendance, /admin/reports/brands) read with the same
// key over the same database, in both attendance views; another venue's
// bookings and brands never appear; a key without read:reports is -32002,
// another venue's location -32005; every call leaves its audit entry.
func TestAttendanceAndBrandTools(t *testing.T) {
	f := newFixture(t, 1000)
	ctx := context.Background()
	// The other venue: a brand and a checked-in booking today, which must not show.
	xctx := viewer.NewContext(ctx, viewer.Operator{Org: f.other, Name: "test"})
	theirs := f.client.Brand.Create().SetName("Theirs").SetSlug("theirs").SaveX(xctx)
	f.client.Booking.Create().SetMemberID(f.otherMember).SetClassInstanceID(f.otherClass).SetStatus(booking.StatusCheckedIn).ExecX(xctx)
	theirLoc := f.client.Location.Create().SetName("Elsewhere").SaveX(xctx)
	ours := f.client.Brand.Create().SetName("Hot Yoga").SetSlug("hot-yoga").SaveX(f.operatorCtx())

	acct, err := accounts.New(f.client, accounts.Config{})
	require.NoError(t, err)
	rh, err := server.New(server.Deps{Pool: f.pool, Client: f.client, Accounts: acct, Log: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	require.NoError(t, err)
	rsrv := httptest.NewServer(rh)
	t.Cleanup(rsrv.Close)
	rest, err := api.NewClient(rsrv.URL+"/api/v1", restKey(f.keys["reads"]))
	require.NoError(t, err)

	client := sdk.NewClient(&sdk.Implementation{Name: "venue-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{
		Endpoint:   f.url,
		HTTPClient: &http.Client{Transport: keyTransport{f.keys["reads"]}},
		MaxRetries: -1,
	}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-03-26"})
	require.NoError(t, err)
	defer cs.Close()
	call := func(name string, args map[string]any, out any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		require.NoError(t, err, name)
		require.False(t, res.IsError, name)
		require.NoError(t, json.Unmarshal([]byte(res.Content[0].(*sdk.TextContent).Text), out))
	}

	for _, view := range []api.GetAttendanceReportView{api.GetAttendanceReportViewClassDate, api.GetAttendanceReportViewActionDate} {
		res, err := rest.GetAttendanceReport(ctx, api.GetAttendanceReportParams{Range: api.NewOptReportRange(api.ReportRange7d),
			View: api.NewOptGetAttendanceReportView(view)})
		require.NoError(t, err)
		want := res.(*api.AttendanceReportResponse).Data
		var got attendanceJSON
		call(mcptools.GetAttendanceName, map[string]any{"range": "7d", "view": string(view)}, &got)
		require.Equal(t, "7d", got.Range)
		require.Equal(t, want.Period.From.Format(day), got.From)
		require.Equal(t, want.Period.To.Format(day), got.To)
		require.Equal(t, want.Period.Timezone, got.Timezone)
		require.Equal(t, string(want.View), got.View)
		require.Nil(t, got.LocationID)
		require.Equal(t, restCounts(want.Totals), got.Totals, view)
		require.Len(t, got.Days, len(want.Days))
		for i, d := range want.Days {
			require.Equal(t, d.Date.Format(day), got.Days[i].Date)
			require.Equal(t, restCounts(d.Counts), got.Days[i].countsJSON)
		}
		if view == api.GetAttendanceReportViewClassDate {
			// Only this venue's one check-in today (the other venue's is not counted).
			require.Equal(t, int64(1), got.Totals.CheckedIn)
		}
	}

	res, err := rest.GetBrandAnalytics(ctx, api.GetBrandAnalyticsParams{Range: api.NewOptReportRange(api.ReportRange7d)})
	require.NoError(t, err)
	want := res.(*api.BrandAnalyticsResponse).Data
	var got brandsJSON
	call(mcptools.GetBrandAnalyticsName, map[string]any{"range": "7d"}, &got)
	require.Equal(t, want.Period.From.Format(day), got.From)
	require.Len(t, got.Brands, len(want.Brands))
	require.Len(t, got.Brands, 2) // ours and the no-brand entry
	for i, w := range want.Brands {
		g := got.Brands[i]
		if w.BrandID.Null {
			require.Nil(t, g.BrandID)
		} else {
			require.Equal(t, w.BrandID.Value.String(), *g.BrandID)
		}
		require.NotEqual(t, theirs.Name, g.Name)
		require.Equal(t, w.Name, g.Name)
		require.Equal(t, []int64{w.Classes, w.CancelledClasses, w.Booked, w.CheckedIn}, []int64{g.Classes, g.CancelledClasses, g.Booked, g.CheckedIn})
		require.Len(t, g.Sales, len(w.Sales))
		for j, s := range w.Sales {
			require.Equal(t, s.Currency, g.Sales[j].Currency)
			require.Equal(t, s.AmountMinor, g.Sales[j].AmountMinor)
			require.Equal(t, s.Payments, g.Sales[j].Payments)
		}
	}
	require.Equal(t, ours.ID.String(), *got.Brands[0].BrandID)
	require.Equal(t, int64(1), got.Brands[1].CheckedIn)

	// Another venue's location, a custom range without its dates, a key without the scope.
	code, _ := f.errorOf(f.keys["reads"], "tools/call", map[string]any{"name": mcptools.GetAttendanceName,
		"arguments": map[string]any{"location_id": theirLoc.ID.String()}})
	require.Equal(t, mcp.CodeNotFound, code)
	code, _ = f.errorOf(f.keys["reads"], "tools/call", map[string]any{"name": mcptools.GetBrandAnalyticsName,
		"arguments": map[string]any{"range": "custom", "from": f.today.Format(day)}})
	require.Equal(t, mcp.CodeInvalidParams, code)
	code, _ = f.errorOf(f.keys["schedule"], "tools/call", map[string]any{"name": mcptools.GetAttendanceName, "arguments": map[string]any{}})
	require.Equal(t, mcp.CodeForbidden, code)
	code, _ = f.errorOf(f.keys["schedule"], "tools/call", map[string]any{"name": mcptools.GetBrandAnalyticsName, "arguments": map[string]any{}})
	require.Equal(t, mcp.CodeForbidden, code)

	f.flushAudit()
	for name, want := range map[string]map[auditlog.Outcome]int{
		mcptools.GetAttendanceName:     {auditlog.OutcomeSuccess: 2, auditlog.OutcomeFailure: 1, auditlog.OutcomeDenied: 1},
		mcptools.GetBrandAnalyticsName: {auditlog.OutcomeSuccess: 1, auditlog.OutcomeFailure: 1, auditlog.OutcomeDenied: 1},
	} {
		rows, err := f.client.AuditLog.Query().Where(auditlog.Target(name)).All(f.operatorCtx())
		require.NoError(t, err)
		outcomes := map[auditlog.Outcome]int{}
		for _, r := range rows {
			outcomes[r.Outcome]++
		}
		require.Equal(t, want, outcomes, name)
	}
}

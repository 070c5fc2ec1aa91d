package mcp_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/mcptools"
)

func TestReadTools(t *testing.T) {
	f := newFixture(t, 1000)
	key := f.keys["reads"]
	today := f.today.Format(day)

	t.Run("search_schedule filters by class type and instructor", func(t *testing.T) {
		all := f.tool(key, mcptools.SearchScheduleName, map[string]any{"date": today})
		require.EqualValues(t, 2, all["count"])
		spin := f.tool(key, mcptools.SearchScheduleName, map[string]any{"date": today, "class_type": "SPIN"})
		require.EqualValues(t, 1, spin["count"])
		byName := f.tool(key, mcptools.SearchScheduleName, map[string]any{"date": today, "instructor": "holm"})
		require.EqualValues(t, 1, byName["count"])
		c := byName["classes"].([]any)[0].(map[string]any)
		require.Equal(t, f.vinyasaToday.String(), c["id"])
		require.Equal(t, "Mette Holm", c["instructor"].(map[string]any)["name"])
		require.EqualValues(t, 1, c["booked"])
		require.EqualValues(t, 1, c["waitlisted"])
		require.Regexp(t, `Z$`, c["start_time"])
		require.Equal(t, "Europe/Copenhagen", byName["timezone"])
	})

	t.Run("search_schedule ceiling is 100", func(t *testing.T) {
		out := f.tool(key, mcptools.SearchScheduleName, map[string]any{"date": f.ceilingDate.Format(day)})
		require.EqualValues(t, 100, out["count"])
		require.Equal(t, true, out["truncated"])
		require.Len(t, out["classes"], 100)
		small := f.tool(key, mcptools.SearchScheduleName, map[string]any{"date": f.ceilingDate.Format(day), "limit": 7})
		require.EqualValues(t, 7, small["count"])
	})

	t.Run("check_availability", func(t *testing.T) {
		out := f.tool(key, mcptools.CheckAvailabilityName, map[string]any{"class_instance_id": f.vinyasaToday.String()})
		require.EqualValues(t, 2, out["capacity"])
		require.EqualValues(t, 1, out["booked"])
		require.EqualValues(t, 1, out["remaining"])
		require.EqualValues(t, 1, out["waitlisted"])
	})

	t.Run("search_members by name, email and client id; ceiling 25", func(t *testing.T) {
		for _, q := range []string{"anna berg", "ANNA.BERG@", "c-1001"} {
			out := f.tool(key, mcptools.SearchMembersName, map[string]any{"query": q})
			require.EqualValues(t, 1, out["count"], q)
			require.Equal(t, f.anna.String(), out["members"].([]any)[0].(map[string]any)["id"], q)
		}
		out := f.tool(key, mcptools.SearchMembersName, map[string]any{"query": "zed"})
		require.EqualValues(t, 25, out["count"])
		require.Equal(t, true, out["truncated"])
		// The other venue's Anna is never found.
		out = f.tool(key, mcptools.SearchMembersName, map[string]any{"query": "otherson"})
		require.EqualValues(t, 0, out["count"])
	})

	t.Run("get_member_details", func(t *testing.T) {
		out := f.tool(key, mcptools.GetMemberDetailsName, map[string]any{"member_id": f.anna.String()})
		require.Equal(t, "anna.berg@example.com", out["member"].(map[string]any)["email"])
		require.Len(t, out["active_passes"], 1)
		require.Len(t, out["recent_bookings"], 2)
	})

	t.Run("get_revenue_summary totals succeeded payments by currency", func(t *testing.T) {
		out := f.tool(key, mcptools.GetRevenueSummaryName, map[string]any{"period": "today"})
		require.Equal(t, []any{
			map[string]any{"currency": "DKK", "amount": 599.0, "amount_minor": 59900.0, "payments": 1.0},
			map[string]any{"currency": "EUR", "amount": 120.5, "amount_minor": 12050.0, "payments": 1.0},
		}, out["totals"])
		require.Equal(t, today, out["from"])
		rng := f.today.AddDate(0, 0, -3).Format(day) + ".." + f.today.AddDate(0, 0, -1).Format(day)
		out = f.tool(key, mcptools.GetRevenueSummaryName, map[string]any{"period": rng})
		require.Empty(t, out["totals"])
		for _, p := range []string{"week", "month"} {
			out = f.tool(key, mcptools.GetRevenueSummaryName, map[string]any{"period": p})
			require.Len(t, out["totals"], 2, p)
		}
	})

	t.Run("get_today_overview", func(t *testing.T) {
		out := f.tool(key, mcptools.GetTodayOverviewName, map[string]any{})
		require.Equal(t, today, out["date"])
		require.EqualValues(t, 2, out["classes"])
		require.EqualValues(t, 2, out["bookings"])
		require.EqualValues(t, 1, out["waitlisted"])
		require.EqualValues(t, 1, out["open_alerts"])
	})
}

func TestCreateFlashSale(t *testing.T) {
	f := newFixture(t, 1000)
	ctx := f.operatorCtx()
	out := f.tool(f.keys["all"], mcptools.CreateFlashSaleName, f.flashSaleArgs())
	sales, err := f.client.FlashSale.Query().WithApplicablePassTypes().All(ctx)
	require.NoError(t, err)
	require.Len(t, sales, 1, "exactly one offer")
	fs := sales[0]
	require.Equal(t, out["id"], fs.ID.String())
	require.Equal(t, f.org, fs.OrganizationID)
	require.Equal(t, flashsale.ProductFamilyRecurring, fs.ProductFamily)
	require.Equal(t, 199.0, fs.CommercialRule.Pricing.Price)
	require.Equal(t, []string{"public_link", "pricing_page"}, fs.Placements)
	require.Len(t, fs.Edges.ApplicablePassTypes, 1)
	require.NotNil(t, fs.CreatedByUserID)

	// Its audit entry committed with it, naming the issuing staff member.
	e, err := f.client.AuditLog.Query().Where(auditlog.Target(mcptools.CreateFlashSaleName)).Only(ctx)
	require.NoError(t, err)
	require.Equal(t, auditlog.OutcomeSuccess, e.Outcome)
	require.Equal(t, fs.CreatedByUserID, e.UserID)
	require.Equal(t, fs.ID.String(), e.Details["flash_sale_id"])
	require.Equal(t, "owner@hot-yoga.test", e.Details["created_by"])

	t.Run("another venue's pass type is not found, like an unknown one", func(t *testing.T) {
		for _, id := range []string{f.otherPassType.String(), "7d0d4a6e-0b8e-4c41-9a3f-1b2c3d4e5f60"} {
			args := f.flashSaleArgs()
			args["applicable_pass_type_ids"] = []string{id}
			code, data := f.errorOf(f.keys["all"], "tools/call", map[string]any{"name": mcptools.CreateFlashSaleName, "arguments": args})
			require.Equal(t, mcp.CodeNotFound, code)
			require.Equal(t, "pass_type", data["resource"])
		}
	})

	t.Run("a non-recurring pass type is invalid", func(t *testing.T) {
		args := f.flashSaleArgs()
		args["applicable_pass_type_ids"] = []string{f.clipCard.String()}
		code, _ := f.errorOf(f.keys["all"], "tools/call", map[string]any{"name": mcptools.CreateFlashSaleName, "arguments": args})
		require.Equal(t, mcp.CodeInvalidParams, code)
	})

	t.Run("a key without its issuer must be reissued", func(t *testing.T) {
		r := f.call(f.keys["legacy"], "tools/call", map[string]any{"name": mcptools.CreateFlashSaleName, "arguments": f.flashSaleArgs()})
		require.NotNil(t, r.Error)
		require.Equal(t, mcp.CodeForbidden, r.Error.Code)
		require.Contains(t, r.Error.Message, "reissue this API key")
		require.JSONEq(t, `{"reason":"key_reissue_required","required_scopes":["write:marketing"]}`, string(r.Error.Data))
	})

	n, err := f.client.FlashSale.Query().Count(ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n, "refused calls create nothing")
}

// TestFlashSaleValidation covers every strict rule of the input.
func TestFlashSaleValidation(t *testing.T) {
	f := newFixture(t, 1000)
	rule := func(args map[string]any) map[string]any { return args["commercial_rule"].(map[string]any) }
	cases := map[string]func(map[string]any){
		"pricing mode":   func(a map[string]any) { rule(a)["pricing"] = map[string]any{"mode": "tiered", "price": 10} },
		"zero price":     func(a map[string]any) { rule(a)["pricing"] = map[string]any{"mode": "shared", "price": 0} },
		"negative price": func(a map[string]any) { rule(a)["pricing"] = map[string]any{"mode": "shared", "price": -5} },
		"currency":       func(a map[string]any) { rule(a)["currency"] = "XYZ" },
		"lower currency": func(a map[string]any) { rule(a)["currency"] = "dkk" },
		"vat mode":       func(a map[string]any) { rule(a)["vatMode"] = "excluded" },
		"version":        func(a map[string]any) { rule(a)["version"] = 1 },
		"kind":           func(a map[string]any) { rule(a)["kind"] = "discount" },
		"duration mode": func(a map[string]any) {
			rule(a)["duration"] = map[string]any{"mode": "forever", "endsAt": "2030-01-01"}
		},
		"endsAt not a date": func(a map[string]any) {
			rule(a)["duration"] = map[string]any{"mode": "until_date", "endsAt": "2030-02-30"}
		},
		"following price":  func(a map[string]any) { rule(a)["followingPrice"] = map[string]any{"mode": "custom"} },
		"waive not uuid":   func(a map[string]any) { rule(a)["waiveRegistrationFeePassTypeIds"] = []string{"x"} },
		"product family":   func(a map[string]any) { a["product_family"] = "non_recurring" },
		"placement":        func(a map[string]any) { a["placements"] = []string{"email"} },
		"no placement":     func(a map[string]any) { a["placements"] = []string{} },
		"pass type uuid":   func(a map[string]any) { a["applicable_pass_type_ids"] = []string{"not-a-uuid"} },
		"no pass type":     func(a map[string]any) { a["applicable_pass_type_ids"] = []string{} },
		"offset timestamp": func(a map[string]any) { a["starts_at"] = "2030-01-01T10:00:00+01:00" },
		"date only":        func(a map[string]any) { a["ends_at"] = "2030-01-01" },
		"start after end": func(a map[string]any) {
			a["starts_at"], a["ends_at"] = a["ends_at"], a["starts_at"]
		},
		"ended": func(a map[string]any) {
			a["starts_at"], a["ends_at"] = "2020-01-01T00:00:00Z", "2020-02-01T00:00:00Z"
		},
		"unknown field": func(a map[string]any) { a["send_email"] = true },
		"missing name":  func(a map[string]any) { delete(a, "name") },
	}
	for name, mutate := range cases {
		args := f.flashSaleArgs()
		mutate(args)
		code, data := f.errorOf(f.keys["all"], "tools/call", map[string]any{"name": mcptools.CreateFlashSaleName, "arguments": args})
		require.Equal(t, mcp.CodeInvalidParams, code, name)
		require.NotEmpty(t, data["violations"], name)
	}
	// Validation comes before any query: a foreign pass type with a bad
	// currency is -32602, not -32005.
	args := f.flashSaleArgs()
	args["applicable_pass_type_ids"] = []string{f.otherPassType.String()}
	rule(args)["currency"] = "ZZZ"
	code, _ := f.errorOf(f.keys["all"], "tools/call", map[string]any{"name": mcptools.CreateFlashSaleName, "arguments": args})
	require.Equal(t, mcp.CodeInvalidParams, code)

	n, err := f.client.FlashSale.Query().Count(f.operatorCtx())
	require.NoError(t, err)
	require.Zero(t, n)
}

// TestAuditEveryCall: every tools/call leaves one entry, success or not.
func TestAuditEveryCall(t *testing.T) {
	f := newFixture(t, 1000)
	key := f.keys["schedule"]
	f.tool(key, mcptools.SearchScheduleName, map[string]any{"date": f.today.Format(day)})
	f.errorOf(key, "tools/call", map[string]any{"name": mcptools.SearchMembersName, "arguments": map[string]any{"query": "x"}})
	f.errorOf(key, "tools/call", map[string]any{"name": mcptools.SearchScheduleName, "arguments": map[string]any{"date": "2026-02-30"}})
	f.errorOf(key, "tools/call", map[string]any{"name": "nope"})
	f.errorOf(key, "tools/call", map[string]any{"name": mcptools.CheckAvailabilityName, "arguments": map[string]any{"class_instance_id": f.otherClass.String()}})
	f.errorOf("", "tools/call", map[string]any{"name": mcptools.SearchScheduleName}) // no venue: not attributable
	f.flushAudit()

	entries, err := audit.List(f.operatorCtx(), f.client, 10)
	require.NoError(t, err)
	require.Len(t, entries, 5)
	got := map[string]string{}
	for _, e := range entries {
		require.Equal(t, mcp.AuditAction, e.Action)
		require.Len(t, e.Details["arguments_sha256"], 64)
		require.NotNil(t, e.DurationMs)
		require.NotNil(t, e.APIKeyID)
		code := "ok"
		if c, ok := e.Details["error_code"]; ok {
			code = fmt.Sprint(int(c.(float64)))
		}
		got[e.Target+" "+code] = string(e.Outcome)
	}
	require.Equal(t, map[string]string{
		"search_schedule ok":        "success",
		"search_members -32002":     "denied",
		"search_schedule -32602":    "failure",
		"nope -32601":               "failure",
		"check_availability -32005": "failure",
	}, got)
}

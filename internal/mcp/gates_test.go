package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/mcptools"
	"github.com/venueplatform/venue/internal/platform"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestKeyGate(t *testing.T) {
	f := newFixture(t, 1000)
	for _, key := range []string{"", "vk_nope", "vk_abcdefghij_" + "0000000000000000000000000000000000000000"} {
		for _, m := range []string{"initialize", "ping", "tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read"} {
			code, _ := f.errorOf(key, m, map[string]any{"name": "search_schedule", "uri": "venue://alerts"})
			require.Equal(t, mcp.CodeUnauthorized, code, "%q %s", key, m)
		}
	}
	// Unknown methods are -32601 at once, key or not.
	code, data := f.errorOf("", "server/discover", nil)
	require.Equal(t, mcp.CodeMethodNotFound, code)
	require.Equal(t, "server/discover", data["method"])
}

func TestAccessGates(t *testing.T) {
	f := newFixture(t, 1000)
	code, data := f.errorOf(f.keys["starter"], "tools/list", nil)
	require.Equal(t, mcp.CodeAccessDenied, code)
	require.Equal(t, "plan", data["reason"])
	code, data = f.errorOf(f.keys["noflag"], "resources/read", map[string]any{"uri": "venue://alerts"})
	require.Equal(t, mcp.CodeAccessDenied, code)
	require.Equal(t, "feature_flag", data["reason"])
	// A refused tools/call of a known venue is audited as denied.
	f.errorOf(f.keys["starter"], "tools/call", map[string]any{"name": mcptools.GetTodayOverviewName})
	f.flushAudit()
	k, err := apikey.Lookup(context.Background(), f.client, f.keys["starter"])
	require.NoError(t, err)
	entries, err := audit.List(viewer.NewContext(context.Background(), apikey.Viewer(k)), f.client, 10)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	require.Equal(t, auditlog.OutcomeDenied, entries[0].Outcome)
	require.Equal(t, mcptools.GetTodayOverviewName, entries[0].Target)
	require.EqualValues(t, mcp.CodeAccessDenied, entries[0].Details["error_code"])
}

func TestKillSwitch(t *testing.T) {
	f := newFixture(t, 1000)
	_, err := platform.SetKillSwitch(context.Background(), f.client, true, "test")
	require.NoError(t, err)
	code, data := f.errorOf(f.keys["all"], "ping", nil)
	require.Equal(t, mcp.CodeAccessDenied, code)
	require.Equal(t, "kill_switch", data["reason"])
}

func TestRateLimitPerElement(t *testing.T) {
	f := newFixture(t, 3)
	status, _, body := f.post(f.keys["reads"], `[
		{"jsonrpc":"2.0","id":1,"method":"ping"},
		{"jsonrpc":"2.0","method":"notifications/initialized"},
		{"jsonrpc":"2.0","id":2,"method":"ping"},
		{"jsonrpc":"2.0","id":3,"method":"ping"},
		{"jsonrpc":"2.0","id":4,"method":"ping"},
		{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"search_members","arguments":{}}}]`)
	require.Equal(t, http.StatusOK, status)
	var rs []rpcResponse
	require.NoError(t, json.Unmarshal(body, &rs))
	require.Len(t, rs, 5, "notifications get no response and cost nothing")
	for i, r := range rs[:3] {
		require.Nil(t, r.Error, i)
	}
	for _, r := range rs[3:] {
		require.Equal(t, mcp.CodeRateLimited, r.Error.Code)
		var data map[string]any
		require.NoError(t, json.Unmarshal(r.Error.Data, &data))
		require.GreaterOrEqual(t, data["retry_after_seconds"], 1.0)
	}
	// The window is the key's, not the request's: the next request is refused too.
	code, _ := f.errorOf(f.keys["reads"], "ping", nil)
	require.Equal(t, mcp.CodeRateLimited, code)
	// Another key has its own window.
	require.Nil(t, f.call(f.keys["schedule"], "ping", nil).Error)
}

func TestScopes(t *testing.T) {
	f := newFixture(t, 1000)
	cases := []struct {
		key, name string
		want      []any
	}{
		{"schedule", mcptools.SearchMembersName, []any{"read:members"}},
		{"schedule", mcptools.GetRevenueSummaryName, []any{"read:reports"}},
		{"partial", mcptools.GetTodayOverviewName, []any{"read:schedule", "read:bookings", "read:operations"}},
		{"reads", mcptools.CreateFlashSaleName, []any{"write:marketing"}},
	}
	for _, c := range cases {
		// Invalid arguments too: the scope gate comes first.
		code, data := f.errorOf(f.keys[c.key], "tools/call", map[string]any{"name": c.name, "arguments": map[string]any{"bogus": 1}})
		require.Equal(t, mcp.CodeForbidden, code, c.name)
		require.Equal(t, c.want, data["required_scopes"], c.name)
	}
	code, data := f.errorOf(f.keys["schedule"], "resources/read", map[string]any{"uri": "venue://members/%ZZ"})
	require.Equal(t, mcp.CodeForbidden, code)
	require.Equal(t, []any{"read:members"}, data["required_scopes"])
}

func TestGateOrder(t *testing.T) {
	f := newFixture(t, 1)
	// Plan before scope and params.
	code, _ := f.errorOf(f.keys["starter"], "tools/call", map[string]any{"name": mcptools.CreateFlashSaleName, "arguments": map[string]any{}})
	require.Equal(t, mcp.CodeAccessDenied, code)
	// Rate limit before scope: the first call spends the window of 1.
	code, _ = f.errorOf(f.keys["schedule"], "tools/call", map[string]any{"name": mcptools.SearchMembersName, "arguments": map[string]any{}})
	require.Equal(t, mcp.CodeForbidden, code)
	code, _ = f.errorOf(f.keys["schedule"], "tools/call", map[string]any{"name": mcptools.SearchMembersName, "arguments": map[string]any{}})
	require.Equal(t, mcp.CodeRateLimited, code)
	// Params before not found.
	code, _ = f.errorOf(f.keys["reads"], "tools/call", map[string]any{"name": mcptools.CheckAvailabilityName, "arguments": map[string]any{"class_instance_id": "nope"}})
	require.Equal(t, mcp.CodeInvalidParams, code)
}

// TestForeignLooksUnknown: another venue's ids answer exactly like unknown ones.
func TestForeignLooksUnknown(t *testing.T) {
	f := newFixture(t, 1000)
	unknown := "0b5b8a4e-1f0e-4a57-9d55-3c1f1f7e2a10"
	pairs := []struct{ tool, arg, foreign string }{
		{mcptools.CheckAvailabilityName, "class_instance_id", f.otherClass.String()},
		{mcptools.GetMemberDetailsName, "member_id", f.otherMember.String()},
	}
	for _, p := range pairs {
		a := f.call(f.keys["reads"], "tools/call", map[string]any{"name": p.tool, "arguments": map[string]any{p.arg: p.foreign}})
		b := f.call(f.keys["reads"], "tools/call", map[string]any{"name": p.tool, "arguments": map[string]any{p.arg: unknown}})
		require.NotNil(t, a.Error)
		require.Equal(t, mcp.CodeNotFound, a.Error.Code)
		require.Equal(t, b.Error, a.Error, p.tool)
	}
	a := f.call(f.keys["reads"], "resources/read", map[string]any{"uri": "venue://member/" + f.otherMember.String()})
	require.Equal(t, mcp.CodeNotFound, a.Error.Code)
}

func TestParamsFormats(t *testing.T) {
	f := newFixture(t, 1000)
	bad := []struct {
		tool string
		args map[string]any
	}{
		{mcptools.SearchScheduleName, map[string]any{"date": "2026-02-30"}},
		{mcptools.SearchScheduleName, map[string]any{"date": "26-01-01"}},
		{mcptools.SearchScheduleName, map[string]any{}},
		{mcptools.SearchScheduleName, map[string]any{"date": "2026-01-01", "limit": 101}},
		{mcptools.SearchScheduleName, map[string]any{"date": "2026-01-01", "room": "x"}},
		{mcptools.CheckAvailabilityName, map[string]any{"class_instance_id": "123"}},
		{mcptools.SearchMembersName, map[string]any{"query": "a", "limit": 26}},
		{mcptools.SearchMembersName, map[string]any{"query": ""}},
		{mcptools.GetRevenueSummaryName, map[string]any{"period": "year"}},
		{mcptools.GetRevenueSummaryName, map[string]any{"period": "2026-02-01..2026-02-30"}},
		{mcptools.GetRevenueSummaryName, map[string]any{"period": "2026-03-01..2026-02-01"}},
		{mcptools.GetRevenueSummaryName, map[string]any{"period": "2020-01-01..2026-02-01"}},
		{mcptools.GetTodayOverviewName, map[string]any{"x": 1}},
	}
	for _, b := range bad {
		code, data := f.errorOf(f.keys["all"], "tools/call", map[string]any{"name": b.tool, "arguments": b.args})
		require.Equal(t, mcp.CodeInvalidParams, code, "%s %v", b.tool, b.args)
		require.NotEmpty(t, data["violations"], "%s %v", b.tool, b.args)
	}
	code, _ := f.errorOf(f.keys["all"], "tools/call", map[string]any{"name": mcptools.GetTodayOverviewName, "arguments": []int{1}})
	require.Equal(t, mcp.CodeInvalidParams, code)
	code, _ = f.errorOf(f.keys["all"], "tools/call", []int{1})
	require.Equal(t, mcp.CodeInvalidParams, code)
}

package mcp_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/internal/input"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/mcptools"
)

// libraryText are fragments of Go and library error texts that no answer
// may carry.
var libraryText = []string{"parsing time", "cannot parse", "must have", "invalid character", "json:",
	"is not valid", "got ", "want ", "jsonschema", "strconv", "uuid:", "out of range"}

type gateViolation struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// rawCall posts a raw tools/call or resources/read body (params given as
// raw JSON, so that escapes and invalid bytes arrive as written) and
// returns the decoded answer and its size.
func (f *fixture) rawCall(key, method, params string) (rpcResponse, int) {
	f.t.Helper()
	status, _, out := f.post(key, `{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`)
	require.Equal(f.t, http.StatusOK, status)
	var r rpcResponse
	require.NoError(f.t, json.Unmarshal(out, &r), "%.300s", out)
	return r, len(out)
}

// requireRefused checks a -32602 answer naming path with reason (any
// message when reason is empty), in our own words.
func requireRefused(t *testing.T, r rpcResponse, path, reason string) []gateViolation {
	t.Helper()
	require.NotNil(t, r.Error, "want -32602, got %s", r.Result)
	require.Equal(t, mcp.CodeInvalidParams, r.Error.Code, r.Error.Message)
	var data struct {
		Violations []gateViolation `json:"violations"`
	}
	require.NoError(t, json.Unmarshal(r.Error.Data, &data))
	require.NotEmpty(t, data.Violations)
	requireOwnWords(t, r)
	if path != "" || reason != "" {
		found := false
		for _, v := range data.Violations {
			if v.Path == path && (reason == "" || v.Message == reason) {
				found = true
			}
		}
		require.True(t, found, "want %s %q in %+v", path, reason, data.Violations)
	}
	return data.Violations
}

func requireOwnWords(t *testing.T, r rpcResponse) {
	t.Helper()
	text := r.Error.Message + " " + string(r.Error.Data)
	for _, frag := range libraryText {
		require.NotContains(t, text, frag)
	}
}

func args(tool, arguments string) string {
	return `{"name":"` + tool + `","arguments":` + arguments + `}`
}

// TestInputGate: the fuzzer's findings. Text that is not valid UTF-8 or
// holds a NUL (raw or escaped, a lone surrogate included), a duplicate key,
// a non-canonical UUID and a date outside 1900-2200 are -32602 naming the
// argument, before any query (they were -32603 when PostgreSQL refused
// them, or reached it).
func TestInputGate(t *testing.T) {
	f := newFixture(t, 1000)
	key := f.keys["all"]
	today := f.today.Format(day)
	cases := []struct {
		name, method, params, path, reason string
	}{
		{"NUL in query", "tools/call", args(mcptools.SearchMembersName, `{"query":"a\u0000b"}`), "/query", input.ReasonNUL},
		{"NUL in class_type", "tools/call", args(mcptools.SearchScheduleName, `{"date":"`+today+`","class_type":"a\u0000b"}`), "/class_type", input.ReasonNUL},
		{"NUL in instructor", "tools/call", args(mcptools.SearchScheduleName, `{"date":"`+today+`","instructor":"a\u0000b"}`), "/instructor", input.ReasonNUL},
		{"invalid UTF-8", "tools/call", args(mcptools.SearchMembersName, "{\"query\":\"a\xff\xfeb\"}"), "/query", input.ReasonUTF8},
		{"encoded surrogate", "tools/call", args(mcptools.SearchMembersName, "{\"query\":\"a\xed\xa0\x80\"}"), "/query", input.ReasonUTF8},
		{"lone surrogate escape", "tools/call", args(mcptools.SearchMembersName, `{"query":"a\ud800"}`), "/query", input.ReasonUTF8},
		{"reversed surrogates", "tools/call", args(mcptools.SearchMembersName, `{"query":"\udc00\ud800"}`), "/query", input.ReasonUTF8},
		{"NUL in a key", "tools/call", args(mcptools.SearchMembersName, `{"query":"a","x\u0000":1}`), "", input.ReasonNUL},
		{"duplicate key", "tools/call", args(mcptools.SearchMembersName, `{"query":"a","query":"b"}`), "/query", input.ReasonDuplicate},
		{"nested", "tools/call", args(mcptools.CreateFlashSaleName, `{"commercial_rule":{"waiveRegistrationFeePassTypeIds":["\u0000"]}}`),
			"/commercial_rule/waiveRegistrationFeePassTypeIds/0", input.ReasonNUL},
		{"braced UUID", "tools/call", args(mcptools.CheckAvailabilityName, `{"class_instance_id":"{`+f.vinyasaToday.String()+`}"}`), "/class_instance_id", input.ReasonUUID},
		{"urn UUID", "tools/call", args(mcptools.GetMemberDetailsName, `{"member_id":"urn:uuid:`+f.anna.String()+`"}`), "/member_id", input.ReasonUUID},
		{"UUID without dashes", "tools/call", args(mcptools.GetMemberDetailsName, `{"member_id":"`+strings.ReplaceAll(f.anna.String(), "-", "")+`"}`), "/member_id", input.ReasonUUID},
		{"year 0000", "tools/call", args(mcptools.SearchScheduleName, `{"date":"0000-01-01"}`), "/date", input.ReasonYear},
		{"year 9999", "tools/call", args(mcptools.SearchScheduleName, `{"date":"9999-12-31"}`), "/date", input.ReasonYear},
		{"period year 0000", "tools/call", args(mcptools.GetRevenueSummaryName, `{"period":"0000-01-01..0000-01-31"}`), "/period", "period " + input.ReasonYear},
		{"date-time year 0001", "tools/call", args(mcptools.CreateFlashSaleName, `{"starts_at":"0001-01-01T00:00:00Z"}`), "/starts_at", input.ReasonYear},
		{"NUL in _meta", "tools/call", `{"name":"search_members","arguments":{"query":"a"},"_meta":{"progressToken":"\u0000"}}`, "/_meta/progressToken", input.ReasonNUL},
		{"NUL in URI", "resources/read", `{"uri":"venue://members/a\u0000b"}`, "/uri", input.ReasonNUL},
		{"encoded NUL in URI", "resources/read", `{"uri":"venue://members/a%00b"}`, "/uri", "query " + input.ReasonNUL},
		{"encoded invalid UTF-8 in URI", "resources/read", `{"uri":"venue://members/a%FFb"}`, "/uri", "query " + input.ReasonUTF8},
		{"braced member URI", "resources/read", `{"uri":"venue://member/{` + f.anna.String() + `}"}`, "/uri", "id " + input.ReasonUUID},
		{"schedule year 0000", "resources/read", `{"uri":"venue://schedule/0000-01-01"}`, "/uri", "date " + input.ReasonYear},
		{"range year 2201", "resources/read", `{"uri":"venue://classes/2201-01-01..2201-01-02"}`, "/uri", "date_range " + input.ReasonYear},
		{"period resource", "resources/read", `{"uri":"venue://revenue/1899-12-01..1899-12-31"}`, "/uri", "period " + input.ReasonYear},
	}
	for _, c := range cases {
		r, _ := f.rawCall(key, c.method, c.params)
		requireRefused(t, r, c.path, c.reason)
	}
	// The same values, well formed, are answered.
	f.tool(key, mcptools.SearchMembersName, map[string]any{"query": "anna"})
	f.tool(key, mcptools.CheckAvailabilityName, map[string]any{"class_instance_id": strings.ToUpper(f.vinyasaToday.String())})
	f.tool(key, mcptools.SearchScheduleName, map[string]any{"date": today, "class_type": "flow", "instructor": "😀 \u00e6"})
}

// TestNULToolNameIsAudited: a tool name holding a NUL (or invalid UTF-8) is
// refused, -32602, and still leaves its audit entry, under the name made
// safe by input.Echo (the NUL and invalid bytes become U+FFFD).
func TestNULToolNameIsAudited(t *testing.T) {
	f := newFixture(t, 1000)
	key := f.keys["reads"]
	r, _ := f.rawCall(key, "tools/call", `{"name":"search\u0000schedule","arguments":{"date":"2026-01-01"}}`)
	requireRefused(t, r, "/name", input.ReasonNUL)
	r, _ = f.rawCall(key, "tools/call", "{\"name\":\"search\xffmembers\",\"arguments\":{}}")
	requireRefused(t, r, "/name", input.ReasonUTF8)
	long := strings.Repeat("n", 5000) + `\u0000`
	r, _ = f.rawCall(key, "tools/call", `{"name":"`+long+`"}`)
	requireRefused(t, r, "/name", input.ReasonNUL)
	f.flushAudit()

	rows, err := f.client.AuditLog.Query().Where(auditlog.Action(mcp.AuditAction)).All(f.operatorCtx())
	require.NoError(t, err)
	targets := map[string]bool{}
	for _, e := range rows {
		require.EqualValues(t, mcp.CodeInvalidParams, e.Details["error_code"])
		require.Equal(t, auditlog.OutcomeFailure, e.Outcome)
		require.Equal(t, e.Target, e.Details["tool"])
		targets[e.Target] = true
	}
	require.Equal(t, map[string]bool{
		"search\uFFFDschedule":                true,
		"search\uFFFDmembers":                 true,
		input.Echo(strings.Repeat("n", 5000)): true,
	}, targets)
}

// TestBoundedAnswers: an offending value is echoed at most once and cut, so
// a request of about a megabyte gets an answer of a few hundred bytes, and
// every refusal is in our own words.
func TestBoundedAnswers(t *testing.T) {
	f := newFixture(t, 1000)
	key := f.keys["all"]
	big := strings.Repeat("x", 1_000_000)
	cases := map[string]string{
		"bad date":        args(mcptools.SearchScheduleName, `{"date":"`+big+`"}`),
		"bad uuid":        args(mcptools.CheckAvailabilityName, `{"class_instance_id":"`+big+`"}`),
		"long query":      args(mcptools.SearchMembersName, `{"query":"`+big+`"}`),
		"NUL at the end":  args(mcptools.SearchMembersName, `{"query":"`+big+`\u0000"}`),
		"unknown key":     args(mcptools.SearchMembersName, `{"query":"a","`+big+`":1}`),
		"bad period":      args(mcptools.GetRevenueSummaryName, `{"period":"`+big+`"}`),
		"bad enum":        args(mcptools.CreateFlashSaleName, `{"placements":["`+big+`"]}`),
		"many keys":       args(mcptools.SearchMembersName, `{"query":"a",`+manyKeys(60_000)+`}`),
		"unknown tool":    args(big, `{}`),
		"unknown uri":     `{"uri":"venue://` + big + `"}`,
		"long member uri": `{"uri":"venue://member/` + big + `"}`,
		"long period uri": `{"uri":"venue://revenue/` + big + `"}`,
	}
	largest := 0
	for name, params := range cases {
		method := "tools/call"
		if strings.HasPrefix(params, `{"uri"`) {
			method = "resources/read"
		}
		r, size := f.rawCall(key, method, params)
		require.NotNil(t, r.Error, name)
		require.NotEqual(t, mcp.CodeInternalError, r.Error.Code, name)
		requireOwnWords(t, r)
		require.Less(t, size, 4096, "%s: answer of %d bytes", name, size)
		largest = max(largest, size)
	}
	t.Logf("largest answer to a ~1 MB bad request: %d bytes", largest)
	status, _, out := f.post(key, `{"jsonrpc":"2.0","id":1,"method":"`+big[:900_000]+`"}`)
	require.Equal(t, http.StatusOK, status)
	require.Less(t, len(out), 4096)
}

func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":1`, i)
	}
	return b.String()
}

// TestNoLibraryText: the refusals the schema library words on its own (and
// the ones the fuzzer listed) are in our words.
func TestNoLibraryText(t *testing.T) {
	f := newFixture(t, 1000)
	key := f.keys["all"]
	bad := []string{
		args(mcptools.SearchScheduleName, `{"date":"x"}`),
		args(mcptools.SearchScheduleName, `{"date":"2026-02-30","limit":500,"room":"A"}`),
		args(mcptools.SearchScheduleName, `{"date":7,"limit":"x","class_type":""}`),
		args(mcptools.SearchScheduleName, `{"limit":1.5}`),
		args(mcptools.CheckAvailabilityName, `{"class_instance_id":"not-a-uuid"}`),
		args(mcptools.CheckAvailabilityName, `{"class_instance_id":null}`),
		args(mcptools.SearchMembersName, `{"query":"a","limit":0}`),
		args(mcptools.GetRevenueSummaryName, `{"period":"2026-02-01..2026-02-30"}`),
		args(mcptools.GetRevenueSummaryName, `{"period":"2026-03-01..2026-02-01"}`),
		args(mcptools.GetTodayOverviewName, `[1]`),
		args(mcptools.GetTodayOverviewName, `"x"`),
		args(mcptools.CreateFlashSaleName, `{"name":"","commercial_rule":{"version":1,"pricing":{"mode":"x","price":-1},"currency":"XYZ","duration":{"endsAt":"2030-13-01"},"waiveRegistrationFeePassTypeIds":["a","a"]},"starts_at":"2030-01-01T10:00:00+01:00","ends_at":"yesterday","placements":[]}`),
		`{"name":5}`,
		`[1]`,
	}
	for _, params := range bad {
		r, _ := f.rawCall(key, "tools/call", params)
		require.NotNil(t, r.Error, params)
		require.Equal(t, mcp.CodeInvalidParams, r.Error.Code, "%s: %s", params, errText(r))
		requireOwnWords(t, r)
	}
	for _, uri := range []string{"venue://schedule/2026-02-30", "venue://classes/x", "venue://members/%ZZ",
		"venue://member/x", "venue://revenue/year", "venue://bookings/2026-1-1"} {
		r, _ := f.rawCall(key, "resources/read", `{"uri":"`+uri+`"}`)
		require.NotNil(t, r.Error, uri)
		require.Equal(t, mcp.CodeInvalidParams, r.Error.Code, uri)
		requireOwnWords(t, r)
	}
}

package mcp_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/gen/mcpschema/toolschema"
	"github.com/venueplatform/venue/internal/mcp"
)

// TestLenientHeaders: Accept, Content-Type and MCP-Protocol-Version do not
// decide anything.
func TestLenientHeaders(t *testing.T) {
	f := newFixture(t, 1000)
	for _, h := range []map[string]string{
		{"Content-Type": "text/plain", "Accept": "text/event-stream"},
		{"MCP-Protocol-Version": "1999-01-01", "Accept": "*/*"},
		{"Mcp-Session-Id": "whatever"},
	} {
		req, err := http.NewRequest(http.MethodPost, f.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		require.NoError(t, err)
		req.Header.Set("X-API-Key", f.keys["reads"])
		for k, v := range h {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, h)
		require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		require.Empty(t, resp.Header.Get("Mcp-Session-Id"), "stateless: no session")
	}
	for _, m := range []string{http.MethodGet, http.MethodDelete, http.MethodPut} {
		req, err := http.NewRequest(m, f.url, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, m)
		require.Equal(t, "POST", resp.Header.Get("Allow"))
	}
}

func TestBodyTooLarge(t *testing.T) {
	f := newFixture(t, 1000)
	body := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", mcp.MaxBodyBytes) + `"}}`
	status, _, out := f.post(f.keys["reads"], body)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, string(out), `"code":-32600`)
	require.Contains(t, string(out), `"id":null`)
}

// TestInternalError: a failure of the database is -32603 with the request's
// id and no detail.
func TestInternalError(t *testing.T) {
	f := newFixture(t, 1000)
	f.pool.Close()
	code, data := f.errorOf(f.keys["reads"], "tools/list", nil)
	require.Equal(t, mcp.CodeInternalError, code)
	require.Empty(t, data)
}

func TestNullParamsAreAbsent(t *testing.T) {
	f := newFixture(t, 1000)
	status, _, out := f.post(f.keys["reads"], `{"jsonrpc":"2.0","id":9,"method":"tools/list","params":null}`)
	require.Equal(t, http.StatusOK, status)
	require.Contains(t, string(out), `"tools":[`)
}

// TestToolsListIsTheGeneratedSchema: tools/list publishes exactly the
// generated schemas the arguments are validated against.
func TestToolsListIsTheGeneratedSchema(t *testing.T) {
	f := newFixture(t, 1000)
	r := f.call(f.keys["schedule"], "tools/list", nil)
	require.Nil(t, r.Error)
	require.JSONEq(t, string(toolschema.ToolsJSON), string(r.Result))
}

package mcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// post sends body to the endpoint with key (none when empty).
func (f *fixture) post(key, body string) (int, http.Header, []byte) {
	f.t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.url, strings.NewReader(body))
	require.NoError(f.t, err)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(f.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(f.t, err)
	return resp.StatusCode, resp.Header, b
}

// rpcResponse is a decoded JSON-RPC response.
type rpcResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// call posts one request and decodes its response.
func (f *fixture) call(key, method string, params any) rpcResponse {
	f.t.Helper()
	body := map[string]any{"jsonrpc": "2.0", "id": 1, "method": method}
	if params != nil {
		body["params"] = params
	}
	b, err := json.Marshal(body)
	require.NoError(f.t, err)
	status, h, out := f.post(key, string(b))
	require.Equal(f.t, http.StatusOK, status, string(out))
	require.Equal(f.t, "application/json", h.Get("Content-Type"))
	var r rpcResponse
	require.NoError(f.t, json.Unmarshal(out, &r), string(out))
	require.Equal(f.t, "2.0", r.JSONRPC)
	require.JSONEq(f.t, "1", string(r.ID))
	return r
}

// tool calls a tool and returns its structuredContent, failing on an error.
func (f *fixture) tool(key, name string, args any) map[string]any {
	f.t.Helper()
	r := f.call(key, "tools/call", map[string]any{"name": name, "arguments": args})
	require.Nil(f.t, r.Error, "%s: %s", name, errText(r))
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent map[string]any `json:"structuredContent"`
		IsError           bool           `json:"isError"`
	}
	require.NoError(f.t, json.Unmarshal(r.Result, &res))
	require.False(f.t, res.IsError)
	require.Len(f.t, res.Content, 1)
	require.Equal(f.t, "text", res.Content[0].Type)
	var fromText map[string]any
	require.NoError(f.t, json.Unmarshal([]byte(res.Content[0].Text), &fromText))
	require.Equal(f.t, res.StructuredContent, fromText, "text content and structuredContent agree")
	return res.StructuredContent
}

// errorOf calls method and returns the error code and data, failing on success.
func (f *fixture) errorOf(key, method string, params any) (int, map[string]any) {
	f.t.Helper()
	r := f.call(key, method, params)
	require.NotNil(f.t, r.Error, "expected an error, got %s", r.Result)
	var data map[string]any
	if len(r.Error.Data) > 0 {
		require.NoError(f.t, json.Unmarshal(r.Error.Data, &data))
	}
	return r.Error.Code, data
}

func errText(r rpcResponse) string {
	if r.Error == nil {
		return ""
	}
	return r.Error.Message + " " + string(r.Error.Data)
}

func TestSmoke(t *testing.T) {
	f := newFixture(t, 1000)
	r := f.call(f.keys["all"], "initialize", map[string]any{"protocolVersion": "2025-03-26"})
	require.Nil(t, r.Error)
	out := f.tool(f.keys["all"], "search_schedule", map[string]any{"date": f.today.Format("2006-01-02")})
	t.Logf("%v", out)
}

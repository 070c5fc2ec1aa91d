package negative_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/negative"
)

// TestMCPNegative sends every string argument of every tool in tools/list
// NUL, invalid UTF-8, a lone surrogate and an overlong value, and requires
// an answer that is not an internal error (-32603), carries no library
// text, and changes no row.
func TestMCPNegative(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	call := func(body []byte) *negative.Response {
		res, err := e.do(negative.Request{Method: "POST", Target: "/api/mcp", Body: body,
			Header: [][2]string{{"Content-Type", "application/json"}}}, "apikey")
		require.NoError(t, err)
		return res
	}
	res := call(rpc("tools/list", map[string]any{}))
	require.Equal(t, 200, res.Status, "%s", res.Body)
	var list struct {
		Result struct {
			Tools []struct {
				Name        string         `json:"name"`
				InputSchema map[string]any `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(res.Body, &list))
	require.NotEmpty(t, list.Result.Tools)

	var cases, internal, leaks, serverErrors, changed int
	failures := map[string][]string{}
	before, err := negative.Take(ctx, e.pool)
	require.NoError(t, err)
	for _, tool := range list.Result.Tools {
		for _, c := range negative.ToolCases(tool.Name, tool.InputSchema) {
			cases++
			_, _ = e.pool.Exec(ctx, `DELETE FROM rate_limits`)
			res := call(c.Body)
			key := fmt.Sprintf("%s %s (%s)", c.Tool, c.Class, c.Arg)
			body := string(res.Body)
			var rpc struct {
				Error *struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			_ = json.Unmarshal(res.Body, &rpc)
			if res.Status >= 500 {
				serverErrors++
				failures[key] = append(failures[key], fmt.Sprintf("status %d", res.Status))
			}
			if rpc.Error != nil && rpc.Error.Code == -32603 {
				internal++
				failures[key] = append(failures[key], "-32603: "+clip(body))
			}
			if m := negative.Leaks.FindString(body); m != "" {
				leaks++
				failures[key] = append(failures[key], fmt.Sprintf("leaks %q: %s", m, clip(body)))
			}
		}
	}
	after, err := negative.Take(ctx, e.pool)
	require.NoError(t, err)
	if ch := before.Changed(after); len(ch) > 0 {
		changed = len(ch)
		failures["changed-rows"] = []string{fmt.Sprintf("tables %v", ch)}
	}
	t.Logf("negative MCP: %d tools, %d cases, %d 5xx, %d -32603, %d internal-text leaks, %d tables with changed rows",
		len(list.Result.Tools), cases, serverErrors, internal, leaks, changed)
	keys := make([]string, 0, len(failures))
	for k := range failures {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Errorf("%s: %s", k, strings.Join(failures[k], "; "))
	}
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

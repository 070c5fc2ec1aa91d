package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/mcp"
)

// read reads uri and decodes its one JSON content item.
func (f *fixture) read(key, uri string) map[string]any {
	f.t.Helper()
	r := f.call(key, "resources/read", map[string]any{"uri": uri})
	require.Nil(f.t, r.Error, "%s: %s", uri, errText(r))
	var res struct {
		Contents []struct {
			URI      string `json:"uri"`
			MimeType string `json:"mimeType"`
			Text     string `json:"text"`
		} `json:"contents"`
	}
	require.NoError(f.t, json.Unmarshal(r.Result, &res))
	require.Len(f.t, res.Contents, 1)
	require.Equal(f.t, uri, res.Contents[0].URI)
	require.Equal(f.t, "application/json", res.Contents[0].MimeType)
	var out map[string]any
	require.NoError(f.t, json.Unmarshal([]byte(res.Contents[0].Text), &out))
	return out
}

func TestResources(t *testing.T) {
	f := newFixture(t, 1000)
	key := f.keys["reads"]
	today := f.today.Format(day)

	require.EqualValues(t, 2, f.read(key, "venue://schedule/"+today)["count"])
	classes := f.read(key, "venue://classes/"+today+".."+f.today.AddDate(0, 0, 1).Format(day))
	require.EqualValues(t, 3, classes["count"])
	require.EqualValues(t, 1, f.read(key, "venue://members/anna%20berg")["count"])
	require.EqualValues(t, 1, f.read(key, "venue://members/C-1001")["count"])
	detail := f.read(key, "venue://member/"+f.anna.String())
	require.Equal(t, "Anna", detail["member"].(map[string]any)["first_name"])
	passes := f.read(key, "venue://passes")
	require.EqualValues(t, 2, passes["count"])
	bookings := f.read(key, "venue://bookings/"+today)
	require.EqualValues(t, 3, bookings["count"])
	rev := f.read(key, "venue://revenue/today")
	require.Len(t, rev["totals"], 2)
	alerts := f.read(key, "venue://alerts")
	require.EqualValues(t, 1, alerts["count"])

	// Another venue's data never shows.
	require.EqualValues(t, 0, f.read(key, "venue://members/otherson")["count"])

	bad := []string{
		"venue://schedule/2026-02-30", "venue://schedule/", "venue://schedule", "venue://schedule/2026-01-01?x=1",
		"venue://classes/2026-01-01..2026-03-05", "venue://classes/2026-01-02..2026-01-01", "venue://classes/2026-01-01",
		"venue://member/nope", "venue://members/%ZZ", "venue://revenue/forever", "venue://bookings/tomorrow",
	}
	for _, uri := range bad {
		code, _ := f.errorOf(key, "resources/read", map[string]any{"uri": uri})
		require.Equal(t, mcp.CodeInvalidParams, code, uri)
	}
	for _, uri := range []string{"venue://nothing", "venue://passes/1", "https://example.com", "venue://alerts/x"} {
		code, data := f.errorOf(key, "resources/read", map[string]any{"uri": uri})
		require.Equal(t, mcp.CodeNotFound, code, uri)
		require.Equal(t, uri, data["uri"])
	}
	code, _ := f.errorOf(key, "resources/read", map[string]any{})
	require.Equal(t, mcp.CodeInvalidParams, code)
	code, data := f.errorOf(key, "resources/read", map[string]any{"uri": "venue://member/0b5b8a4e-1f0e-4a57-9d55-3c1f1f7e2a10"})
	require.Equal(t, mcp.CodeNotFound, code)
	require.Equal(t, "member", data["resource"])
}

package mcp

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestToolResponseEncodesAsTheMap: the pre-encoded tools/call answer is byte
// for byte what encoding/json writes for the result map it replaces, for
// values with quotes, backslashes, HTML characters, U+2028, control
// characters, invalid UTF-8 and non-ASCII text, and for string and number ids.
func TestToolResponseEncodesAsTheMap(t *testing.T) {
	day := time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)
	values := []any{
		map[string]any{},
		map[string]any{"name": `Yoga "Flow" <b>&</b> \ C:\path`, "n": 1.5, "list": []any{nil, true, "ø"}},
		struct {
			Text string `json:"text"`
			Bad  string `json:"bad"`
		}{Text: "line\nbreak\ttab\u2028sep\u2029\x01", Bad: "\xff\xfe"},
		[]int{1, 2},    // not an object: answered as {}
		make(chan int), // not marshallable: answered as {}
		presentSchedule(nil, false, day, day, "Europe/Copenhagen"),
	}
	for _, id := range []json.RawMessage{json.RawMessage(`1`), json.RawMessage(`"a<b>\u2028"`), json.RawMessage(`-2.5e3`)} {
		for _, v := range values {
			got := encode(toolResponse(id, v))
			require.Equal(t, string(encodeAsMap(t, id, v)), string(got))
			require.True(t, json.Valid(got))
		}
	}
}

// encodeAsMap is the answer as written before results were pre-encoded.
func encodeAsMap(t *testing.T, id json.RawMessage, v any) []byte {
	raw, err := json.Marshal(v)
	if err != nil || len(raw) == 0 || raw[0] != '{' {
		raw = []byte("{}")
	}
	result := map[string]any{
		"content":           []map[string]any{{"type": "text", "text": string(raw)}},
		"structuredContent": json.RawMessage(raw),
		"isError":           false,
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	require.NoError(t, enc.Encode(&response{JSONRPC: "2.0", ID: id, Result: result}))
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

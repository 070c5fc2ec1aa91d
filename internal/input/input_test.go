package input_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/input"
)

func TestText(t *testing.T) {
	require.Nil(t, input.Text("København ☀"))
	require.Equal(t, input.ReasonNUL, input.Text("a\x00b").Reason)
	require.Equal(t, input.ReasonUTF8, input.Text("a\xed\xa0\x80").Reason)
	require.Nil(t, input.TextMax("ææ", 2))
	require.Equal(t, input.ReasonTooLong, input.TextMax("æææ", 2).Reason)
}

func TestDate(t *testing.T) {
	require.Nil(t, input.Date(time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)))
	require.Nil(t, input.Date(time.Date(2200, 12, 31, 0, 0, 0, 0, time.UTC)))
	require.NotNil(t, input.Date(time.Time{}))
	require.NotNil(t, input.Date(time.Date(2201, 1, 1, 0, 0, 0, 0, time.UTC)))
}

func TestUUID(t *testing.T) {
	const id = "0b6e4f2a-5c1d-4e8f-9a7b-3c2d1e0f9a8b"
	got, err := input.UUID(id)
	require.Nil(t, err)
	require.Equal(t, id, got.String())
	_, err = input.UUID(strings.ToUpper(id))
	require.Nil(t, err, "hex digits of either case")
	for _, bad := range []string{"{" + id + "}", "urn:uuid:" + id, strings.ReplaceAll(id, "-", ""),
		id[:35] + "g", id + " ", "", "x"} {
		_, err := input.UUID(bad)
		require.NotNil(t, err, bad)
		require.Equal(t, input.ReasonUUID, err.Reason)
	}
}

func TestEcho(t *testing.T) {
	require.Equal(t, "abc", input.Echo("abc"))
	require.Equal(t, "a\uFFFDb", input.Echo("a\x00b"))
	long := input.Echo(strings.Repeat("é", 1000))
	require.LessOrEqual(t, len(long), input.EchoMax+len("…")+1)
	require.True(t, utf8.ValidString(long))
	require.True(t, utf8.ValidString(input.Echo("\xff\xfe")))
}

func TestJSON(t *testing.T) {
	for _, tc := range []struct {
		doc, field, reason string
	}{
		{`{"first_name":"Mette","tags":["a","b"],"n":1.5e3,"ok":true,"x":null}`, "", ""},
		{`{"a":{"b":[{"c":"\ud83d\ude00 \u00e6 \n"}]}}`, "", ""},
		{`{"first_name":"a\u0000b"}`, "first_name", input.ReasonNUL},
		{`{"first_name":"a\\u0000b"}`, "", ""}, // an escaped backslash, then text
		{"{\"first_name\":\"a\xed\xa0\x80\"}", "first_name", input.ReasonUTF8},
		{`{"first_name":"\ud800"}`, "first_name", input.ReasonUTF8},
		{`{"first_name":"\udc00\ud800"}`, "first_name", input.ReasonUTF8},
		{`{"lines":[{"note":"ok"},{"note":"\u0000"}]}`, "lines[1].note", input.ReasonNUL},
		{`{"a":1,"a":2}`, "a", input.ReasonDuplicate},
		{`{"o":{"k":1,"k":1}}`, "o.k", input.ReasonDuplicate},
		{"{\"a\u0000\":1}", "", input.ReasonNUL},
		{`{"a":1`, "", input.ReasonJSON},
		{`{"a":1}x`, "", input.ReasonJSON},
		{`[1,]`, "[1]", input.ReasonJSON},
		{`"\x"`, "", input.ReasonJSON},
	} {
		err := input.JSON([]byte(tc.doc))
		if tc.reason == "" {
			require.Nil(t, err, tc.doc)
			continue
		}
		require.NotNil(t, err, tc.doc)
		require.Equal(t, tc.reason, err.Reason, tc.doc)
		if tc.field != "" {
			require.Equal(t, tc.field, err.Field, tc.doc)
		}
	}
	deep := strings.Repeat("[", 10000) + strings.Repeat("]", 10000)
	require.NotNil(t, input.JSON([]byte(deep)))
}

// FuzzJSON holds the gate to encoding/json: whatever the gate lets through is
// a document encoding/json decodes, whose strings are valid UTF-8 without NUL.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `[1,2,{"c":null}]`, `"\ud83d\ude00"`, `{"a":"\u0000"}`, "\"\xed\xa0\x80\"", `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if input.JSON(doc) != nil {
			return
		}
		require.True(t, utf8.Valid(doc), "accepted bytes that are not UTF-8: %q", doc)
		var v any
		if err := json.Unmarshal(doc, &v); err != nil {
			// The gate leaves some malformed numbers ("+1", "01") to the
			// decoders, which refuse them.
			return
		}
		var walk func(any)
		walk = func(v any) {
			switch x := v.(type) {
			case string:
				require.Nil(t, input.Text(x), "%q", doc)
			case []any:
				for _, e := range x {
					walk(e)
				}
			case map[string]any:
				for k, e := range x {
					require.Nil(t, input.Text(k), "%q", doc)
					walk(e)
				}
			}
		}
		walk(v)
	})
}

func TestJSONVisit(t *testing.T) {
	var seen []string
	err := input.JSONVisit([]byte(`{"a":"x","b":[{"c":"y\u00e6"}],"k":1}`), func(path, s string) *input.Error {
		seen = append(seen, path+"="+s)
		return nil
	})
	require.Nil(t, err)
	require.Equal(t, []string{"a=x", "b[0].c=yæ"}, seen)
	err = input.JSONVisit([]byte(`{"id":"nope"}`), func(path, s string) *input.Error {
		_, e := input.UUID(s)
		return e.In(path)
	})
	require.NotNil(t, err)
	require.Equal(t, "id", err.Field)
	require.Equal(t, input.ReasonUUID, err.Reason)
}

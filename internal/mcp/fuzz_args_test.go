package mcp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/input"
	"github.com/venueplatform/venue/internal/mcptools"
)

// libraryFragments are pieces of Go and library error texts no refusal may
// carry.
var libraryFragments = []string{"parsing time", "cannot parse", "must have", "invalid character", "json:",
	"is not valid", "jsonschema", "strconv", "uuid:"}

// FuzzToolArguments feeds any bytes as the arguments of any tool through
// what a tools/call runs before its query: the input gate over the params,
// their decoding, the schema with its formats, and the decoding into the
// tool's input struct. Never a panic; a refusal is -32602 (never -32603)
// in our own words and of bounded size; arguments let through hold only
// text PostgreSQL takes (valid UTF-8 without NUL), dates in 1900-2200 and
// canonical UUIDs, so no query can fail on them.
func FuzzToolArguments(f *testing.F) {
	ts, err := loadSchemas()
	if err != nil {
		f.Fatal(err)
	}
	for i, s := range []string{
		`{"date":"2026-01-01"}`, `{"date":"0000-01-01"}`, `{"date":"2026-02-30","limit":500,"room":"A"}`,
		`{"query":"a\u0000b"}`, `{"query":"a\ud800"}`, "{\"query\":\"\xff\"}", `{"query":"a","query":"b"}`,
		`{"class_instance_id":"0b6e4f2a-5c1d-4e8f-9a7b-3c2d1e0f9a8b"}`, `{"member_id":"{0b6e4f2a-5c1d-4e8f-9a7b-3c2d1e0f9a8b}"}`,
		`{"period":"2026-01-01..2026-01-31"}`, `{}`, `null`, `[]`, `"x"`, `1e999`, `{"limit":1.0}`,
		`{"name":"Intro","commercial_rule":{"version":2,"kind":"introductory_price","pricing":{"mode":"shared","price":99.5},"currency":"DKK","vatMode":"included","waiveRegistrationFeePassTypeIds":[],"duration":{"mode":"until_date","endsAt":"2030-02-01"},"followingPrice":{"mode":"pass_price"}},"product_family":"recurring","applicable_pass_type_ids":["0b6e4f2a-5c1d-4e8f-9a7b-3c2d1e0f9a8b"],"starts_at":"2030-01-01T10:00:00Z","ends_at":"2030-01-02T10:00:00Z","placements":["global_app"]}`,
	} {
		f.Add(uint8(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		def := mcptools.Tools[int(which)%len(mcptools.Tools)]
		params := append(append([]byte(`{"name":"`+def.Name+`","arguments":`), raw...), '}')
		if !json.Valid(params) {
			return // the transport answers -32700 before any method runs
		}
		rerr := gateParams(params, true)
		var p callParams
		if oerr := objectParams(params, &p); rerr == nil {
			rerr = oerr
		}
		args := p.arguments()
		if rerr == nil {
			rerr = ts.check(def.Name, args)
		}
		if rerr != nil {
			checkRefusal(t, rerr)
			return
		}
		in := reflect.New(def.Input)
		if json.Unmarshal(args, in.Interface()) != nil {
			return // bind answers -32602 "malformed value"
		}
		checkAccepted(t, def.Name, in.Elem())
	})
}

func checkRefusal(t *testing.T, rerr *rpcError) {
	t.Helper()
	if rerr.Code != CodeInvalidParams {
		t.Fatalf("code %d: %s", rerr.Code, rerr.Message)
	}
	b, err := json.Marshal(rerr)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > 4096 {
		t.Fatalf("refusal of %d bytes", len(b))
	}
	for _, frag := range libraryFragments {
		if strings.Contains(string(b), frag) {
			t.Fatalf("library text %q in %s", frag, b)
		}
	}
}

// checkAccepted walks a decoded input struct: every string is text the
// gate allows, and the fields with a format hold it.
func checkAccepted(t *testing.T, tool string, v reflect.Value) {
	t.Helper()
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			if err := input.Text(v.String()); err != nil {
				t.Fatalf("%s %s: accepted %q: %s", tool, path, v.String(), err.Reason)
			}
		case reflect.Slice:
			for i := range v.Len() {
				walk(path+"[]", v.Index(i))
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(path+"."+v.Type().Field(i).Name, v.Field(i))
			}
		}
	}
	walk(tool, v)
	date := func(s string) {
		d, err := time.Parse(dateLayout, s)
		if err != nil || input.Date(d) != nil {
			t.Fatalf("%s: accepted date %q", tool, s)
		}
	}
	id := func(s string) {
		if _, err := input.UUID(s); err != nil {
			t.Fatalf("%s: accepted id %q", tool, s)
		}
	}
	switch in := v.Interface().(type) {
	case mcptools.SearchSchedule:
		date(in.Date)
	case mcptools.CheckAvailability:
		id(in.ClassInstanceID)
	case mcptools.GetMemberDetails:
		id(in.MemberID)
	case mcptools.CreateFlashSale:
		date(in.CommercialRule.Duration.EndsAt)
		for _, s := range append(in.ApplicablePassTypeIDs, in.CommercialRule.WaiveRegistrationFeePassTypeIDs...) {
			id(s)
		}
		for _, s := range []string{in.StartsAt, in.EndsAt} {
			ts, err := time.Parse(time.RFC3339, s)
			if err != nil || input.Date(ts) != nil {
				t.Fatalf("%s: accepted time %q", tool, s)
			}
		}
	}
}

func TestPointerIsBounded(t *testing.T) {
	require.Equal(t, "/a~1b/0/c~0", pointer([]string{"a/b", "0", "c~"}))
	require.Equal(t, "/lines/2/note", fieldPointer("lines[2].note"))
	require.Equal(t, "/0/1", fieldPointer("[0][1]"))
	require.Equal(t, "", fieldPointer(""))
	long := make([]string, 40)
	for i := range long {
		long[i] = strings.Repeat("é", 100)
	}
	p := pointer(long)
	require.LessOrEqual(t, len(p), maxPathBytes+len("…"))
	require.Greater(t, len(p), input.EchoMax)
	require.True(t, utf8.ValidString(p))
}

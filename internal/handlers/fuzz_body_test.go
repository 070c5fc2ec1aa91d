package handlers_test

import (
	"reflect"
	"testing"

	"github.com/go-faster/jx"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/input"
)

// FuzzJSONBody holds the input gate to the generated JSON body decoder: a
// body the gate lets through decodes (when it decodes at all) into strings
// that are valid UTF-8 without NUL, whatever escapes it used, and the
// gate's refusal never repeats the body. Run with
// `go test ./internal/handlers -run '^$' -fuzz FuzzJSONBody -fuzztime 30s`.
func FuzzJSONBody(f *testing.F) {
	for _, s := range []string{
		`{"email":"a@b.example","password":"correct horse battery","first_name":"Mette","city":"København"}`,
		`{"email":"a@b.example","password":"x","first_name":"a\u0000b"}`,
		"{\"email\":\"a@b.example\",\"password\":\"x\",\"first_name\":\"a\xed\xa0\x80\"}",
		`{"email":"a@b.example","password":"x","last_name":"\ud800"}`,
		`{"email":"a@b.example","password":"x","city":"\ud83d\ude00"}`,
		`{"email":"a","email":"b","password":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if err := input.JSON(body); err != nil {
			if len(body) > 16 {
				require.NotContains(t, err.Error(), string(body))
			}
			return
		}
		var req api.SignupRequest
		if err := req.Decode(jx.DecodeBytes(body)); err != nil {
			return // the decoder's own refusal: 400 naming the field
		}
		walkStrings(reflect.ValueOf(req), func(s string) {
			require.Nil(t, input.Text(s), "the gate let %q through to %q", body, s)
		})
	})
}

// walkStrings calls fn with every string inside v.
func walkStrings(v reflect.Value, fn func(string)) {
	switch v.Kind() {
	case reflect.String:
		fn(v.String())
	case reflect.Struct:
		for i := range v.NumField() {
			walkStrings(v.Field(i), fn)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walkStrings(v.Index(i), fn)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			walkStrings(k, fn)
			walkStrings(v.MapIndex(k), fn)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walkStrings(v.Elem(), fn)
		}
	}
}

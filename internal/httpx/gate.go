package httpx

import (
	"bytes"
	"errors"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/input"
)

// Gate puts every value of a REST request through package input before
// anything runs with it: the raw query string's percent escapes, every path,
// query and header value of the operation's parameters (UTF-8 without NUL;
// canonical UUIDs where the format is uuid; years 1900-2200 where it is date
// or date-time), and a JSON body (input.JSON: UTF-8 without NUL, no key
// twice; properties of format uuid, date or date-time as parameters are).
// What it checks per operation comes from the bundled OpenAPI document,
// read once (gateTable).
//
// A path value that fails is the 404 the operation gives for an unknown
// value (notFound names it by parameter); anything else is 400
// VALIDATION_ERROR naming the parameter or the body field by its JSON path,
// in this package's words. Install it inside FindOperation: an operation it
// does not know (an unknown route) passes untouched. The generated decoders
// still validate what the gate lets through.
func Gate(notFound func(param string) *apperr.Error, next http.Handler) http.Handler {
	table, err := gateTable()
	if err != nil {
		// The document is embedded: a failure is a build fault, caught by
		// TestGateTableBuilds.
		panic("httpx: gate table: " + err.Error())
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, found := Operation(r)
		op := table[id]
		if !found || op == nil {
			next.ServeHTTP(w, r)
			return
		}
		if e := op.check(r, notFound); e != nil {
			WriteError(w, r, e)
			return
		}
		if op.jsonBody && r.Body != nil && r.Body != http.NoBody && isJSON(r.Header.Get("Content-Type")) {
			b, err := io.ReadAll(r.Body)
			_ = r.Body.Close()
			if err != nil {
				WriteError(w, r, bodyReadError(err))
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(b))
			if len(bytes.TrimSpace(b)) > 0 {
				if e := op.checkBody(b); e != nil {
					WriteError(w, r, e)
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// TooLarge is the 413 of a body over the cap of Middleware.
func TooLarge(limit int64) *apperr.Error {
	return &apperr.Error{Status: http.StatusRequestEntityTooLarge, Code: "PAYLOAD_TOO_LARGE",
		Message: "the request body is too large", Details: map[string]any{"max_body_bytes": limit}}
}

func bodyReadError(err error) *apperr.Error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return TooLarge(tooBig.Limit)
	}
	return apperr.Validation("body", "the request body could not be read")
}

// isJSON reports whether a Content-Type names a JSON body (an absent one is
// left to the decoder, which refuses it in its own words).
func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return false
	}
	return mt == "application/json" || strings.HasSuffix(mt, "+json")
}

// violation is the 400 of a value field breaks for reason, in the gate's
// words ("first_name must not contain a NUL character").
func violation(field, reason string) *apperr.Error {
	name := field
	if name == "" {
		name = "body"
	}
	return apperr.Validation(name, name+" "+reason)
}

// check runs the checks of the request's path, query and header values.
func (op *gateOp) check(r *http.Request, notFound func(string) *apperr.Error) *apperr.Error {
	// Every value is checked in a fixed order (the path template's, the
	// query string's, header names sorted), so that of two bad values the
	// same one is named every time, not whichever a map yields first.
	if len(op.path) > 0 {
		for _, pv := range op.pathValues(r) {
			if name, v := pv[0], pv[1]; op.path[name] != nil && op.path[name].check(v) != nil {
				if notFound != nil {
					return notFound(name)
				}
				return apperr.NotFound("resource")
			}
		}
	}
	if raw := r.URL.RawQuery; raw != "" {
		if key, reason, ok := badQuery(raw); ok {
			return violation(key, reason)
		}
		if len(op.query) > 0 {
			for _, pair := range strings.Split(raw, "&") {
				k, v, _ := strings.Cut(pair, "=")
				name, err1 := url.QueryUnescape(k)
				v, err2 := url.QueryUnescape(v)
				p := op.query[name]
				if err1 != nil || err2 != nil || p == nil {
					continue // bad escapes were refused above
				}
				if err := p.check(v); err != nil {
					return violation(name, err.Reason)
				}
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(op.header)) {
		for _, v := range r.Header.Values(name) {
			if err := op.header[name].check(v); err != nil {
				return violation(name, err.Reason)
			}
		}
	}
	return nil
}

// checkBody runs input.JSON over a JSON body, with the formats the table
// knows of its properties.
func (op *gateOp) checkBody(b []byte) *apperr.Error {
	var visit func(path, s string) *input.Error
	if len(op.body) > 0 {
		visit = func(path, s string) *input.Error {
			if f, ok := op.body[wildIndexes(path)]; ok {
				return checkFormat(f, s).In(path)
			}
			return nil
		}
	}
	if err := input.JSONVisit(b, visit); err != nil {
		return violation(err.Field, err.Reason)
	}
	return nil
}

// wildIndexes turns the array indexes of a JSON path into "[]"
// ("lines[2].id" is "lines[].id"), the form of the table's body paths.
func wildIndexes(path string) string {
	if strings.IndexByte(path, '[') < 0 {
		return path
	}
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		b.WriteByte(c)
		if c == '[' {
			for i+1 < len(path) && path[i+1] >= '0' && path[i+1] <= '9' {
				i++
			}
		}
	}
	return b.String()
}

// check checks one parameter value.
func (p *gateParam) check(v string) *input.Error {
	if err := input.Text(v); err != nil {
		return err
	}
	return checkFormat(p.format, v)
}

// checkFormat checks a text value against an OpenAPI string format: a uuid
// must be canonical, a date or date-time that parses must lie in the years
// input.Date allows. A value that does not parse at all is left to the
// generated decoder, which refuses it.
func checkFormat(format, v string) *input.Error {
	switch format {
	case "uuid":
		_, err := input.UUID(v)
		return err
	case "date":
		if t, err := time.Parse(time.DateOnly, v); err == nil {
			return input.Date(t)
		}
	case "date-time":
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			return input.Date(t)
		}
	}
	return nil
}

// reasonSemicolon refuses a raw ";" in a query: net/url no longer takes it
// as a separator and drops the whole pair, which would be silent leniency.
const reasonSemicolon = "holds a raw semicolon (escape it as %3B)"

// badQuery reports the first key of a raw query string whose key or value
// holds a malformed percent escape or a raw semicolon (url.ParseQuery would
// refuse either, and r.URL.Query would silently drop the pair), and why.
func badQuery(raw string) (key, reason string, bad bool) {
	for raw != "" {
		var pair string
		pair, raw, _ = strings.Cut(raw, "&")
		k, value, _ := strings.Cut(pair, "=")
		switch {
		case badEscape(k) || badEscape(value):
			reason = input.ReasonEscape
		case strings.IndexByte(pair, ';') >= 0:
			k, _, _ = strings.Cut(k, ";")
			reason = reasonSemicolon
		default:
			continue
		}
		if u, err := url.QueryUnescape(k); err == nil && input.Text(u) == nil {
			return input.Echo(u), reason, true
		}
		return input.Echo(k), reason, true
	}
	return "", "", false
}

func badEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			continue
		}
		if i+2 >= len(s) || !isHexDigit(s[i+1]) || !isHexDigit(s[i+2]) {
			return true
		}
		i += 2
	}
	return false
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// pathValues yields the operation's path parameters of r as name and value
// pairs in the template's order, unescaped, matching its escaped path against
// the operation's template.
func (op *gateOp) pathValues(r *http.Request) [][2]string {
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), apiPrefix)
	if !ok {
		return nil
	}
	segs := strings.Split(strings.TrimPrefix(rest, "/"), "/")
	if len(segs) != len(op.segments) {
		return nil
	}
	out := make([][2]string, 0, len(op.path))
	for i, t := range op.segments {
		name, ok := strings.CutPrefix(t, "{")
		if !ok {
			continue
		}
		name = strings.TrimSuffix(name, "}")
		v, err := url.PathUnescape(segs[i])
		if err != nil {
			v = segs[i]
		}
		out = append(out, [2]string{name, v})
	}
	return out
}

package negative

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"net/url"
	"sort"
	"strings"
)

// Class is a class of bad values; each has one expectation (Expect).
type Class string

// The bad-value classes.
const (
	NUL          Class = "nul"            // "a\x00b"; \u0000 in JSON
	InvalidUTF8  Class = "invalid-utf8"   // the bytes ED A0 80 (a UTF-8-encoded surrogate)
	Surrogate    Class = "lone-surrogate" // the JSON escape \ud800 (bodies only)
	OverMax      Class = "over-max"       // maxLength+1 characters (where declared)
	Long         Class = "long"           // 1 MB (64 KB in a URL or header) where no maxLength is declared
	WrongType    Class = "wrong-type"     // number for string, string for number, object for array...
	DateRange    Class = "date-range"     // 0000-01-01, 9999-12-31, 10000-01-01
	NumberRange  Class = "number-range"   // huge numbers; -1 where minimum >= 0
	MalformedID  Class = "malformed-id"   // {uuid}, no dashes, urn:uuid:, not-a-uuid
	BadEscape    Class = "bad-escape"     // %zz in a query value
	DuplicateKey Class = "duplicate-key"  // a JSON key given twice
	ContentType  Class = "content-type"   // text/plain; application/json; charset=utf-16
	Oversized    Class = "oversized-body" // a body over the server's cap
)

// Classes lists every class, in report order.
var Classes = []Class{NUL, InvalidUTF8, Surrogate, OverMax, Long, WrongType, DateRange, NumberRange,
	MalformedID, BadEscape, DuplicateKey, ContentType, Oversized}

// MayAccept reports whether a value of class c may be answered with a 2xx:
// only a long value where the document declares no maximum is legitimate
// (a long search string, say). Every other class is a value the service
// must refuse with a 4xx error envelope.
func MayAccept(c Class) bool { return c == Long }

// Sizes of the overlong values.
const (
	// LongBody is the length of a long string in a JSON body: 1 MB.
	LongBody = 1 << 20
	// LongURL is the length of a long value in a path, query or header:
	// 64 KB. A 1 MB request line or header is refused by net/http itself
	// (431, before any handler), which Send reports as a transport refusal.
	LongURL = 64 << 10
)

// Request is one raw HTTP request.
type Request struct {
	Method string
	// Target is the request target: path and query, already encoded.
	Target string
	Header [][2]string
	Body   []byte
}

// Case is one request of the table: an operation, a caller, and one bad
// value put in one place of an otherwise well-formed request.
type Case struct {
	Op     *Operation
	Class  Class
	Where  string // "query:search", "body:name", "header:X-Organization-ID", "body"
	Label  string // which value of the class
	Caller string // anonymous, apikey, owner, member
	Req    Request
}

// Name is the case's label in reports.
func (c Case) Name() string {
	return fmt.Sprintf("%s %s %s=%s as %s", c.Op.ID, c.Class, c.Where, c.Label, c.Caller)
}

// Base supplies the well-formed values around the bad one.
type Base struct {
	// Prefix is the REST base path, "/api/v1".
	Prefix string
	// Param returns a valid value for a parameter, false for the default
	// (a value built from its schema).
	Param func(op *Operation, p Param) (string, bool)
	// NewKey returns a fresh Idempotency-Key.
	NewKey func() string
}

// badValue is a bad value: raw text for a URL or header, raw JSON for a body.
type badValue struct {
	class Class
	label string
	raw   string
}

const placeholder = "\x01negative\x01"

// VenueHeaders are the venue context headers every operation reads
// (contract: "Venue context"), probed on every operation.
var VenueHeaders = []Param{
	{Name: "X-Organization-ID", In: "header", Schema: &Schema{Type: "string", Format: "uuid"}},
	{Name: "X-Organization-Slug", In: "header", Schema: &Schema{Type: "string", MaxLength: intp(100)}},
}

func intp(n int) *int { return &n }

// Callers returns who may call op: one caller per accepted credential
// (a bearer token both as owner and as member), plus anonymous.
func Callers(op *Operation) []string {
	set := map[string]bool{"anonymous": true}
	for _, s := range op.Security {
		switch s {
		case "ApiKeyAuth":
			set["apikey"] = true
		case "BearerAuth":
			set["owner"], set["member"] = true, true
		}
	}
	out := make([]string, 0, len(set))
	for _, c := range []string{"owner", "member", "apikey", "anonymous"} {
		if set[c] {
			out = append(out, c)
		}
	}
	return out
}

// Cases returns the whole table for op: every parameter (and the venue
// headers) and every body field, times every bad value that applies to it,
// times every caller.
func (b Base) Cases(op *Operation) []Case {
	var out []Case
	add := func(class Class, where, label string, build func() Request) {
		for _, caller := range Callers(op) {
			out = append(out, Case{Op: op, Class: class, Where: where, Label: label, Caller: caller, Req: build()})
		}
	}
	params := append(append([]Param{}, op.Params...), VenueHeaders...)
	seen := map[string]bool{}
	for _, p := range params {
		key := p.In + ":" + strings.ToLower(p.Name)
		if seen[key] || (p.In == "header" && strings.EqualFold(p.Name, "Authorization")) {
			continue
		}
		seen[key] = true
		for _, v := range paramValues(p) {
			p, v := p, v
			add(v.class, p.In+":"+p.Name, v.label, func() Request { return b.request(op, &p, v.raw, nil) })
		}
	}
	if op.Body != nil {
		for _, f := range fields(op.Body, nil, 0) {
			for _, v := range jsonValues(f.schema, f.name()) {
				f, v := f, v
				add(v.class, "body:"+f.name(), v.label, func() Request {
					return b.request(op, nil, "", func(base any) []byte { return setField(base, f.path, v.raw) })
				})
			}
		}
		add(DuplicateKey, "body", "dup", func() Request { return b.request(op, nil, "", duplicateKey) })
		for _, ct := range []string{"text/plain", "application/json; charset=utf-16"} {
			ct := ct
			add(ContentType, "header:Content-Type", ct, func() Request {
				r := b.request(op, nil, "", nil)
				setHeader(&r, "Content-Type", ct)
				return r
			})
		}
		add(Oversized, "body", "cap+1KB", func() Request {
			return b.request(op, nil, "", func(base any) []byte {
				body, _ := json.Marshal(base)
				// Whitespace is valid JSON: only the size is wrong.
				return append(bytes.Repeat([]byte(" "), MaxBody+1024), body...)
			})
		})
	}
	return out
}

// MaxBody is the server's body cap (httpx.MaxBodyBytes), set by the test.
var MaxBody = 1 << 20

// Sample picks, for every class that applies to op, one case of the
// table, the same one on every run. It prefers a caller with a credential
// the operation accepts (anonymous callers of an operation that needs a
// credential meet the 401 first; the full table sends them too).
func Sample(cases []Case) []Case {
	by := map[Class][]Case{}
	for _, c := range cases {
		if c.Caller != "anonymous" || anonymousAllowed(c.Op) {
			by[c.Class] = append(by[c.Class], c)
		}
	}
	var out []Case
	for _, class := range Classes {
		cs := by[class]
		if len(cs) == 0 {
			continue
		}
		h := fnv.New32a()
		h.Write([]byte(cs[0].Op.ID + "/" + string(class)))
		out = append(out, cs[int(h.Sum32()%uint32(len(cs)))])
	}
	return out
}

func anonymousAllowed(op *Operation) bool {
	for _, s := range op.Security {
		if s == "" {
			return true
		}
	}
	return len(op.Security) == 0
}

// request builds op's well-formed request with one change: the parameter
// bad set to raw, or the body built by body from the valid base.
func (b Base) request(op *Operation, bad *Param, raw string, body func(base any) []byte) Request {
	path := op.Path
	var query []string
	r := Request{Method: op.Method}
	for _, p := range op.Params {
		isBad := bad != nil && bad.In == p.In && strings.EqualFold(bad.Name, p.Name)
		var val string
		switch {
		case isBad:
			val = raw
		case p.In == "path" || p.Required || strings.EqualFold(p.Name, "Idempotency-Key"):
			v := b.value(op, p)
			if p.In == "header" {
				val = v
			} else if p.In == "path" {
				val = url.PathEscape(v)
			} else {
				val = url.QueryEscape(v)
			}
		default:
			continue
		}
		switch p.In {
		case "path":
			path = strings.ReplaceAll(path, "{"+p.Name+"}", val)
		case "query":
			query = append(query, url.QueryEscape(p.Name)+"="+val)
		case "header":
			r.Header = append(r.Header, [2]string{p.Name, val})
		}
	}
	if bad != nil && (bad.In == "header" || bad.In == "query") && !hasParam(op, *bad) {
		if bad.In == "header" {
			r.Header = append(r.Header, [2]string{bad.Name, raw})
		} else {
			query = append(query, url.QueryEscape(bad.Name)+"="+raw)
		}
	}
	r.Target = b.Prefix + path
	if len(query) > 0 {
		r.Target += "?" + strings.Join(query, "&")
	}
	if op.Body != nil {
		base := example(op.Body, 0)
		if body != nil {
			r.Body = body(base)
		} else {
			r.Body, _ = json.Marshal(base)
		}
		r.Header = append(r.Header, [2]string{"Content-Type", "application/json"})
	}
	return r
}

func hasParam(op *Operation, p Param) bool {
	for _, q := range op.Params {
		if q.In == p.In && strings.EqualFold(q.Name, p.Name) {
			return true
		}
	}
	return false
}

func setHeader(r *Request, name, value string) {
	for i, h := range r.Header {
		if strings.EqualFold(h[0], name) {
			r.Header[i][1] = value
			return
		}
	}
	r.Header = append(r.Header, [2]string{name, value})
}

func (b Base) value(op *Operation, p Param) string {
	if strings.EqualFold(p.Name, "Idempotency-Key") && b.NewKey != nil {
		return b.NewKey()
	}
	if b.Param != nil {
		if v, ok := b.Param(op, p); ok {
			return v
		}
	}
	switch v := example(p.Schema, 0).(type) {
	case string:
		return v
	case nil:
		return "x"
	default:
		out, _ := json.Marshal(v)
		return string(out)
	}
}

// A field is a place in a JSON body: a property path, "[]" for array items.
type field struct {
	path   []string
	schema *Schema
}

func (f field) name() string { return strings.Join(f.path, ".") }

// fields lists the leaves and containers of a body schema, two levels deep.
func fields(s *Schema, prefix []string, depth int) []field {
	if s == nil || depth > 2 {
		return nil
	}
	var out []field
	for _, name := range s.PropertyNames() {
		ps := s.Properties[name]
		path := append(append([]string{}, prefix...), name)
		out = append(out, field{path: path, schema: ps})
		switch {
		case ps.Type == "object" || len(ps.Properties) > 0:
			out = append(out, fields(ps, path, depth+1)...)
		case ps.Type == "array" && ps.Items != nil && ps.Items.Type == "string":
			out = append(out, field{path: append(append([]string{}, path...), "[]"), schema: ps.Items})
		}
	}
	return out
}

var (
	dateNames = map[string]bool{"date": true, "from": true, "to": true, "start": true, "end": true,
		"cycle_start": true, "cycle_end": true, "as_of": true}
	uuidExample = "2f1c9a53-6b7e-4c1d-9a8e-3d5b7c9e1f20"
)

func isDate(name string, s *Schema) bool {
	if s == nil || (s.Type != "" && s.Type != "string") {
		return false
	}
	base := name[strings.LastIndex(name, ".")+1:]
	return s.Format == "date" || s.Format == "date-time" || dateNames[base] ||
		strings.HasSuffix(base, "_date") || strings.HasSuffix(base, "_at") || strings.HasSuffix(base, "_from") ||
		strings.HasSuffix(base, "_to") || strings.HasSuffix(base, "_until")
}

// isUUID: the document's format says so; a name ending in _id may be any
// text (a device id, a processor's id).
func isUUID(_ string, s *Schema) bool { return s != nil && s.Format == "uuid" }

func dates(s *Schema) []string {
	if s != nil && s.Format == "date-time" {
		return []string{"0000-01-01T00:00:00Z", "9999-12-31T00:00:00Z", "10000-01-01T00:00:00Z"}
	}
	return []string{"0000-01-01", "9999-12-31", "10000-01-01"}
}

var malformedIDs = []string{"{" + uuidExample + "}", strings.ReplaceAll(uuidExample, "-", ""), "urn:uuid:" + uuidExample, "not-a-uuid"}

// paramValues are the bad values for a path, query or header parameter.
func paramValues(p Param) []badValue {
	s := p.Schema
	if s == nil {
		s = &Schema{Type: "string"}
	}
	enc := url.PathEscape
	if p.In == "query" {
		enc = url.QueryEscape
	}
	if p.In == "header" {
		enc = func(v string) string { return v }
	}
	var out []badValue
	text := s.Type == "" || s.Type == "string"
	out = append(out,
		badValue{NUL, "a%00b", enc("a\x00b")},
		badValue{InvalidUTF8, "a%ED%A0%80b", enc("a\xed\xa0\x80b")})
	if s.MaxLength != nil && *s.MaxLength+1 <= LongURL {
		out = append(out, badValue{OverMax, fmt.Sprintf("%d chars", *s.MaxLength+1), strings.Repeat("x", *s.MaxLength+1)})
	} else if text && s.MaxLength == nil {
		out = append(out, badValue{Long, "64KB", strings.Repeat("x", LongURL)})
	}
	switch s.Type {
	case "integer", "number", "boolean":
		out = append(out, badValue{WrongType, "abc", "abc"})
	}
	if s.Type == "integer" || s.Type == "number" {
		out = append(out, badValue{NumberRange, "huge", "99999999999999999999"})
		if s.Type == "number" {
			out = append(out, badValue{NumberRange, "1e309", "1e309"})
		}
		if s.Minimum != nil && *s.Minimum >= 0 {
			out = append(out, badValue{NumberRange, "-1", "-1"})
		}
	}
	if isDate(p.Name, s) {
		for _, d := range dates(s) {
			out = append(out, badValue{DateRange, d, enc(d)})
		}
	}
	if isUUID(p.Name, s) {
		for _, id := range malformedIDs {
			out = append(out, badValue{MalformedID, id, enc(id)})
		}
	}
	if p.In == "query" {
		out = append(out, badValue{BadEscape, "%zz", "%zz"})
	}
	return out
}

// jsonValues are the bad values (raw JSON) for a body field.
func jsonValues(s *Schema, name string) []badValue {
	var out []badValue
	str := s.Type == "string" || s.Type == ""
	if str {
		out = append(out,
			badValue{NUL, `"a\u0000b"`, `"a\u0000b"`},
			badValue{InvalidUTF8, `"a<ED A0 80>b"`, "\"a\xed\xa0\x80b\""},
			badValue{Surrogate, `"a\ud800b"`, `"a\ud800b"`})
		if s.MaxLength != nil {
			out = append(out, badValue{OverMax, fmt.Sprintf("%d chars", *s.MaxLength+1), `"` + strings.Repeat("x", *s.MaxLength+1) + `"`})
		} else {
			out = append(out, badValue{Long, "1MB", `"` + strings.Repeat("x", LongBody) + `"`})
		}
	}
	switch s.Type {
	case "string", "":
		out = append(out, badValue{WrongType, "number", "12345"})
	case "integer", "number":
		out = append(out, badValue{WrongType, "string", `"12"`},
			badValue{NumberRange, "huge", "1e400"}, badValue{NumberRange, "huge-int", "99999999999999999999"})
		if s.Minimum != nil && *s.Minimum >= 0 {
			out = append(out, badValue{NumberRange, "-1", "-1"})
		}
	case "boolean":
		out = append(out, badValue{WrongType, "string", `"yes"`})
	case "array":
		out = append(out, badValue{WrongType, "object", `{}`})
	case "object":
		out = append(out, badValue{WrongType, "array", `[]`})
	}
	if str && isDate(name, s) {
		for _, d := range dates(s) {
			out = append(out, badValue{DateRange, d, `"` + d + `"`})
		}
	}
	if str && isUUID(name, s) {
		for _, id := range malformedIDs {
			out = append(out, badValue{MalformedID, id, `"` + id + `"`})
		}
	}
	return out
}

// example builds a valid value of s: the document's example or first enum
// value when it has one, else the smallest value of its type and format;
// objects hold their required properties.
func example(s *Schema, depth int) any {
	if s == nil {
		return "x"
	}
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	if s.Example != nil && s.Type != "object" && s.Type != "array" {
		return s.Example
	}
	switch s.Type {
	case "integer", "number":
		n := 1.0
		if s.Minimum != nil && *s.Minimum > n {
			n = *s.Minimum
		}
		if s.Maximum != nil && *s.Maximum < n {
			n = *s.Maximum
		}
		return n
	case "boolean":
		return false
	case "array":
		items := []any{}
		if s.MinItems != nil && depth < 6 {
			for i := 0; i < *s.MinItems; i++ {
				items = append(items, example(s.Items, depth+1))
			}
		}
		return items
	case "object":
		m := map[string]any{}
		if depth < 6 {
			req := append([]string{}, s.Required...)
			sort.Strings(req)
			for _, name := range req {
				m[name] = example(s.Properties[name], depth+1)
			}
		}
		return m
	}
	switch s.Format {
	case "uuid":
		return uuidExample
	case "date":
		return "2030-01-15"
	case "date-time":
		return "2030-01-15T10:00:00Z"
	case "email":
		return "negative@example.com"
	case "uri", "url":
		return "https://example.com/hook"
	}
	n := 1
	if s.MinLength != nil && *s.MinLength > n {
		n = *s.MinLength
	}
	return strings.Repeat("x", n)
}

// setField writes placeholder at path in a copy of base, then swaps in the
// raw JSON text (which may be invalid JSON text on purpose).
func setField(base any, path []string, raw string) []byte {
	root, _ := base.(map[string]any)
	if root == nil {
		root = map[string]any{}
	}
	cur := root
	for i, key := range path {
		last := i == len(path)-1
		if i == len(path)-2 && path[len(path)-1] == "[]" {
			cur[key] = []any{placeholder}
			break
		}
		if last {
			cur[key] = placeholder
			break
		}
		next, ok := cur[key].(map[string]any)
		if !ok {
			next = map[string]any{}
		}
		cur[key] = next
		cur = next
	}
	out, _ := json.Marshal(root)
	quoted, _ := json.Marshal(placeholder)
	return bytes.Replace(out, quoted, []byte(raw), 1)
}

// duplicateKey gives the base body's first key twice (or a key of its own
// when the base is empty): {"k":v,"k":v,...}.
func duplicateKey(base any) []byte {
	out, _ := json.Marshal(base)
	m, _ := base.(map[string]any)
	if len(m) == 0 {
		return []byte(`{"negative":1,"negative":2}`)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	k, _ := json.Marshal(keys[0])
	v, _ := json.Marshal(m[keys[0]])
	return append(append(append([]byte("{"), k...), append([]byte(":"), v...)...), append([]byte(","), out[1:]...)...)
}

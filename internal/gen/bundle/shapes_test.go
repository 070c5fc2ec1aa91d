package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/gen/openapi"
)

var update = flag.Bool("update", false, "rewrite testdata/resolved_shapes.json from the bundled document")

const shapesGolden = "testdata/resolved_shapes.json"

// TestResolvedShapes compares what every operation accepts and answers, with
// every reference resolved, against the committed golden file. Moving a
// schema between spec/api.yaml, spec/parts and spec/ent.gen.json, or renaming
// a component, must leave it equal: only a deliberate change to the wire
// shape may touch the golden (`go test ./internal/gen/bundle -update`).
func TestResolvedShapes(t *testing.T) {
	var doc map[string]any
	require.NoError(t, json.Unmarshal(openapi.JSON, &doc))
	got, err := json.MarshalIndent(resolvedShapes(doc), "", "  ")
	require.NoError(t, err)
	got = append(got, '\n')
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(shapesGolden), 0o755))
		require.NoError(t, os.WriteFile(shapesGolden, got, 0o644))
	}
	want, err := os.ReadFile(shapesGolden)
	require.NoError(t, err)
	require.Equal(t, string(want), string(got), "a resolved request, response or parameter shape changed")
}

// shapeKeys are the schema keywords that decide what a value on the wire may
// look like (and what ogen generates from it). Descriptions, examples, titles
// and component names are left out, so documentation edits and moving a schema
// into another file do not count as changes.
var shapeKeys = map[string]bool{
	"type": true, "format": true, "enum": true, "const": true, "default": true,
	"nullable": true, "readOnly": true, "writeOnly": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"minLength": true, "maxLength": true, "pattern": true,
	"minItems": true, "maxItems": true, "uniqueItems": true,
	"minProperties": true, "maxProperties": true,
}

// resolvedShapes maps "METHOD /path" (and "webhook METHOD name") to the
// operation's parameters, request body and responses with references resolved.
func resolvedShapes(doc map[string]any) map[string]any {
	r := &resolver{doc: doc}
	out := map[string]any{}
	for section, prefix := range map[string]string{"paths": "", "webhooks": "webhook "} {
		items, _ := doc[section].(map[string]any)
		for path, raw := range items {
			item, _ := r.deref(raw).(map[string]any)
			shared, _ := item["parameters"].([]any)
			for method, rawOp := range item {
				op, ok := rawOp.(map[string]any)
				if !ok || method == "parameters" {
					continue
				}
				own, _ := op["parameters"].([]any)
				out[prefix+strings.ToUpper(method)+" "+path] = r.operation(op, append(slices.Clone(shared), own...))
			}
		}
	}
	return out
}

type resolver struct {
	doc   map[string]any
	stack []string // references being expanded, to cut recursive schemas
}

func (r *resolver) operation(op map[string]any, params []any) map[string]any {
	shape := map[string]any{}
	if len(params) > 0 {
		ps := map[string]any{}
		for _, raw := range params {
			p, _ := r.deref(raw).(map[string]any)
			ps[fmt.Sprint(p["in"], " ", p["name"])] = r.parameter(p)
		}
		shape["parameters"] = ps
	}
	if raw, ok := op["requestBody"]; ok {
		body, _ := r.deref(raw).(map[string]any)
		shape["requestBody"] = map[string]any{
			"required": body["required"] == true,
			"content":  r.content(body["content"]),
		}
	}
	if raw, ok := op["responses"].(map[string]any); ok {
		rs := map[string]any{}
		for status, rawResp := range raw {
			resp, _ := r.deref(rawResp).(map[string]any)
			s := map[string]any{}
			if c, ok := resp["content"]; ok {
				s["content"] = r.content(c)
			}
			if hs, ok := resp["headers"].(map[string]any); ok {
				headers := map[string]any{}
				for name, rawH := range hs {
					h, _ := r.deref(rawH).(map[string]any)
					headers[strings.ToLower(name)] = r.parameter(h)
				}
				s["headers"] = headers
			}
			rs[status] = s
		}
		shape["responses"] = rs
	}
	return shape
}

// parameter is the shape of a parameter or header: where it goes, whether it
// is required, how it is serialized and its schema.
func (r *resolver) parameter(p map[string]any) map[string]any {
	s := map[string]any{"required": p["required"] == true}
	for _, k := range []string{"style", "explode", "allowEmptyValue"} {
		if v, ok := p[k]; ok {
			s[k] = v
		}
	}
	if schema, ok := p["schema"]; ok {
		s["schema"] = r.schema(schema)
	}
	if c, ok := p["content"]; ok {
		s["content"] = r.content(c)
	}
	return s
}

func (r *resolver) content(raw any) map[string]any {
	media, _ := raw.(map[string]any)
	out := map[string]any{}
	for typ, rawM := range media {
		m, _ := rawM.(map[string]any)
		out[typ] = r.schema(m["schema"])
	}
	return out
}

// schema returns the shape of a schema: its shape keywords, with properties,
// items and compositions resolved. A schema that refers to itself, directly
// or not, ends in {"recursive": n}, n levels up.
func (r *resolver) schema(raw any) any {
	s, ok := raw.(map[string]any)
	if !ok {
		return raw // true, false or absent
	}
	out := map[string]any{}
	if ref, ok := s["$ref"].(string); ok {
		if i := slices.Index(r.stack, ref); i >= 0 {
			return map[string]any{"recursive": len(r.stack) - i}
		}
		r.stack = append(r.stack, ref)
		target, _ := r.schema(r.lookup(ref)).(map[string]any)
		r.stack = r.stack[:len(r.stack)-1]
		for k, v := range target {
			out[k] = v
		}
	}
	for k, v := range s {
		switch {
		case shapeKeys[k]:
			out[k] = v
		case k == "required":
			names, _ := v.([]any)
			sorted := make([]string, 0, len(names))
			for _, n := range names {
				sorted = append(sorted, fmt.Sprint(n))
			}
			slices.Sort(sorted)
			out[k] = sorted
		case k == "properties":
			props, _ := v.(map[string]any)
			ps := map[string]any{}
			for name, p := range props {
				ps[name] = r.schema(p)
			}
			out[k] = ps
		case k == "items" || k == "additionalProperties" || k == "not":
			out[k] = r.schema(v)
		case k == "oneOf" || k == "anyOf" || k == "allOf" || k == "prefixItems":
			list, _ := v.([]any)
			xs := make([]any, 0, len(list))
			for _, x := range list {
				xs = append(xs, r.schema(x))
			}
			out[k] = xs
		}
	}
	return out
}

// deref follows a reference to a parameter, response, request body or header.
func (r *resolver) deref(raw any) any {
	for range 10 {
		m, ok := raw.(map[string]any)
		if !ok {
			return raw
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return raw
		}
		raw = r.lookup(ref)
	}
	return raw
}

// lookup resolves a local JSON pointer ("#/components/schemas/X"). The bundled
// document is self-contained, so any other reference is a test failure.
func (r *resolver) lookup(ref string) any {
	ptr, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		panic("reference outside the bundled document: " + ref)
	}
	var cur any = r.doc
	for _, tok := range strings.Split(ptr, "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, _ := cur.(map[string]any)
		next, ok := m[tok]
		if !ok {
			panic("unresolved reference: " + ref)
		}
		cur = next
	}
	return cur
}

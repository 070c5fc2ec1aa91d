package negative

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Operation is one operation of the OpenAPI document, with its references
// resolved.
type Operation struct {
	ID     string
	Method string
	// Path is the document's path template, relative to the server's base.
	Path   string
	Params []Param
	// Body is the JSON request body's schema, nil when the operation takes
	// no JSON body.
	Body *Schema
	// Security lists the alternatives the operation accepts: "ApiKeyAuth",
	// "BearerAuth", or "" for anonymous.
	Security []string
}

// Param is a path, query or header parameter.
type Param struct {
	Name     string
	In       string
	Required bool
	Schema   *Schema
}

// Schema is the part of a JSON Schema the generator reads.
type Schema struct {
	Type       string
	Format     string
	Enum       []any
	Example    any
	MinLength  *int
	MaxLength  *int
	Minimum    *float64
	Maximum    *float64
	MinItems   *int
	Items      *Schema
	Properties map[string]*Schema
	Required   []string
	Nullable   bool
}

// PropertyNames returns the schema's property names in sorted order.
func (s *Schema) PropertyNames() []string {
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Parse reads the operations of a bundled OpenAPI 3 document (JSON), sorted
// by operation id.
func Parse(doc []byte) ([]Operation, error) {
	var root map[string]any
	if err := json.Unmarshal(doc, &root); err != nil {
		return nil, fmt.Errorf("openapi: %w", err)
	}
	r := resolver{root: root}
	var global []any
	if g, ok := root["security"].([]any); ok {
		global = g
	}
	paths, _ := root["paths"].(map[string]any)
	var ops []Operation
	for path, pv := range paths {
		item, _ := pv.(map[string]any)
		common, _ := item["parameters"].([]any)
		for _, m := range []string{"get", "put", "post", "patch", "delete"} {
			ov, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			op := Operation{Method: strings.ToUpper(m), Path: path}
			op.ID, _ = ov["operationId"].(string)
			own, _ := ov["parameters"].([]any)
			seen := map[string]int{}
			for _, raw := range append(append([]any{}, common...), own...) {
				pm := r.deref(raw)
				p := Param{}
				p.Name, _ = pm["name"].(string)
				p.In, _ = pm["in"].(string)
				p.Required, _ = pm["required"].(bool)
				p.Schema = r.schema(pm["schema"], 0)
				key := p.In + ":" + strings.ToLower(p.Name)
				if i, dup := seen[key]; dup {
					op.Params[i] = p
					continue
				}
				seen[key] = len(op.Params)
				op.Params = append(op.Params, p)
			}
			if rb := r.deref(ov["requestBody"]); rb != nil {
				content, _ := rb["content"].(map[string]any)
				if mt, ok := content["application/json"].(map[string]any); ok {
					op.Body = r.schema(mt["schema"], 0)
				}
			}
			sec, ok := ov["security"].([]any)
			if !ok {
				sec = global
			}
			for _, alt := range sec {
				am, _ := alt.(map[string]any)
				if len(am) == 0 {
					op.Security = append(op.Security, "")
				}
				for name := range am {
					op.Security = append(op.Security, name)
				}
			}
			ops = append(ops, op)
		}
	}
	sort.Slice(ops, func(i, j int) bool { return ops[i].ID < ops[j].ID })
	return ops, nil
}

type resolver struct{ root map[string]any }

// deref follows a local $ref ("#/a/b") to its object.
func (r resolver) deref(v any) map[string]any {
	m, _ := v.(map[string]any)
	for i := 0; m != nil && i < 16; i++ {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		var cur any = r.root
		for _, part := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
			cm, _ := cur.(map[string]any)
			cur = cm[part]
		}
		m, _ = cur.(map[string]any)
	}
	return m
}

func (r resolver) schema(v any, depth int) *Schema {
	m := r.deref(v)
	if m == nil || depth > 8 {
		return nil
	}
	s := &Schema{Properties: map[string]*Schema{}}
	for _, key := range []string{"allOf", "oneOf", "anyOf"} {
		alts, _ := m[key].([]any)
		for _, a := range alts {
			sub := r.schema(a, depth+1)
			if sub == nil {
				continue
			}
			if sub.Type == "null" {
				s.Nullable = true
				continue
			}
			merge(s, sub)
			if key != "allOf" {
				break // the first non-null alternative stands for the rest
			}
		}
	}
	switch t := m["type"].(type) {
	case string:
		s.Type = t
	case []any:
		for _, x := range t {
			if xs, _ := x.(string); xs == "null" {
				s.Nullable = true
			} else if xs != "" {
				s.Type = xs
			}
		}
	}
	if n, _ := m["nullable"].(bool); n {
		s.Nullable = true
	}
	if f, ok := m["format"].(string); ok {
		s.Format = f
	}
	if e, ok := m["enum"].([]any); ok {
		s.Enum = e
	}
	if c, ok := m["const"]; ok {
		s.Enum = []any{c}
	}
	if ex, ok := m["example"]; ok {
		s.Example = ex
	} else if exs, ok := m["examples"].([]any); ok && len(exs) > 0 {
		s.Example = exs[0]
	}
	s.MinLength, s.MaxLength = intOf(m["minLength"], s.MinLength), intOf(m["maxLength"], s.MaxLength)
	s.MinItems = intOf(m["minItems"], s.MinItems)
	s.Minimum, s.Maximum = floatOf(m["minimum"], s.Minimum), floatOf(m["maximum"], s.Maximum)
	if it, ok := m["items"]; ok {
		s.Items = r.schema(it, depth+1)
	}
	props, _ := m["properties"].(map[string]any)
	for name, pv := range props {
		if ps := r.schema(pv, depth+1); ps != nil {
			s.Properties[name] = ps
		}
	}
	req, _ := m["required"].([]any)
	for _, x := range req {
		if n, ok := x.(string); ok {
			s.Required = append(s.Required, n)
		}
	}
	if s.Type == "" && len(s.Properties) > 0 {
		s.Type = "object"
	}
	return s
}

func merge(dst, src *Schema) {
	if dst.Type == "" {
		dst.Type = src.Type
	}
	if dst.Format == "" {
		dst.Format = src.Format
	}
	if dst.Enum == nil {
		dst.Enum = src.Enum
	}
	if dst.Example == nil {
		dst.Example = src.Example
	}
	if dst.MaxLength == nil {
		dst.MaxLength = src.MaxLength
	}
	if dst.MinLength == nil {
		dst.MinLength = src.MinLength
	}
	if dst.Minimum == nil {
		dst.Minimum = src.Minimum
	}
	if dst.Maximum == nil {
		dst.Maximum = src.Maximum
	}
	if dst.MinItems == nil {
		dst.MinItems = src.MinItems
	}
	if dst.Items == nil {
		dst.Items = src.Items
	}
	for k, v := range src.Properties {
		dst.Properties[k] = v
	}
	dst.Required = append(dst.Required, src.Required...)
	dst.Nullable = dst.Nullable || src.Nullable
}

func intOf(v any, def *int) *int {
	if f, ok := v.(float64); ok {
		n := int(f)
		return &n
	}
	return def
}

func floatOf(v any, def *float64) *float64 {
	if f, ok := v.(float64); ok {
		return &f
	}
	return def
}

// SchemaOf reads a standalone JSON Schema (an MCP tool's inputSchema), its
// local references resolved against itself.
func SchemaOf(raw map[string]any) *Schema {
	return resolver{root: raw}.schema(raw, 0)
}

package httpx

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/venueplatform/venue/internal/gen/openapi"
)

// apiPrefix is the path prefix of the REST operations (the generated
// server's WithPathPrefix).
const apiPrefix = "/api/v1"

// gateParam is what the gate checks of one parameter: its text, and its
// string format (uuid, date, date-time; "" for none of these).
type gateParam struct {
	format string
}

// gateOp is what the gate checks of one operation.
type gateOp struct {
	segments []string // the path template below apiPrefix, split at "/"
	path     map[string]*gateParam
	query    map[string]*gateParam
	header   map[string]*gateParam
	jsonBody bool
	// body maps the JSON paths of body properties with a checked format
	// (array indexes as "[]": "instance_ids[]") to that format.
	body map[string]string
}

// gateTable is the gate's table of every operation, built once from the
// bundled document.
var gateTable = sync.OnceValues(func() (map[string]*gateOp, error) {
	return buildGateTable(openapi.JSON)
})

// gateSkipHeaders are header parameters another convention validates with
// its own answer: the gate leaves them to it.
var gateSkipHeaders = map[string]bool{
	"Idempotency-Key": true, // package idempotency: 400 INVALID_IDEMPOTENCY_KEY
}

// checkedFormats are the string formats the gate checks beyond text.
var checkedFormats = map[string]bool{"uuid": true, "date": true, "date-time": true}

type oasDoc struct {
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Parameters map[string]*oasParam  `json:"parameters"`
		Schemas    map[string]*oasSchema `json:"schemas"`
	} `json:"components"`
}

type oasParam struct {
	Ref    string     `json:"$ref"`
	Name   string     `json:"name"`
	In     string     `json:"in"`
	Schema *oasSchema `json:"schema"`
}

type oasOperation struct {
	OperationID string      `json:"operationId"`
	Parameters  []*oasParam `json:"parameters"`
	RequestBody *struct {
		Content map[string]struct {
			Schema *oasSchema `json:"schema"`
		} `json:"content"`
	} `json:"requestBody"`
}

type oasSchema struct {
	Ref        string                `json:"$ref"`
	Format     string                `json:"format"`
	Properties map[string]*oasSchema `json:"properties"`
	Items      *oasSchema            `json:"items"`
	AllOf      []*oasSchema          `json:"allOf"`
	OneOf      []*oasSchema          `json:"oneOf"`
	AnyOf      []*oasSchema          `json:"anyOf"`
}

var httpMethods = map[string]bool{"get": true, "put": true, "post": true, "delete": true,
	"options": true, "head": true, "patch": true, "trace": true}

// buildGateTable reads doc (an OpenAPI 3 document whose references are
// local) into the gate's table, keyed by operation id.
func buildGateTable(doc []byte) (map[string]*gateOp, error) {
	var d oasDoc
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, fmt.Errorf("decode document: %w", err)
	}
	out := map[string]*gateOp{}
	for tmpl, item := range d.Paths {
		var shared []*oasParam
		if raw, ok := item["parameters"]; ok {
			if err := json.Unmarshal(raw, &shared); err != nil {
				return nil, fmt.Errorf("%s parameters: %w", tmpl, err)
			}
		}
		for method, raw := range item {
			if !httpMethods[method] {
				continue
			}
			var o oasOperation
			if err := json.Unmarshal(raw, &o); err != nil {
				return nil, fmt.Errorf("%s %s: %w", method, tmpl, err)
			}
			if o.OperationID == "" {
				continue
			}
			op := &gateOp{
				segments: strings.Split(strings.TrimPrefix(tmpl, "/"), "/"),
				path:     map[string]*gateParam{},
				query:    map[string]*gateParam{},
				header:   map[string]*gateParam{},
			}
			for _, p := range append(append([]*oasParam(nil), shared...), o.Parameters...) {
				p, err := d.param(p)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", o.OperationID, err)
				}
				gp := &gateParam{}
				if s := d.schema(p.Schema, 0); s != nil && checkedFormats[s.Format] {
					gp.format = s.Format
				}
				switch p.In {
				case "path":
					op.path[p.Name] = gp
				case "query":
					op.query[p.Name] = gp
				case "header":
					if !gateSkipHeaders[p.Name] {
						op.header[p.Name] = gp
					}
				}
			}
			if o.RequestBody != nil {
				for ct, c := range o.RequestBody.Content {
					if !isJSON(ct) {
						continue
					}
					op.jsonBody = true
					op.body = map[string]string{}
					d.bodyFormats(c.Schema, "", op.body, map[*oasSchema]bool{}, 0)
				}
			}
			out[o.OperationID] = op
		}
	}
	return out, nil
}

// param resolves a parameter reference.
func (d *oasDoc) param(p *oasParam) (*oasParam, error) {
	if p == nil {
		return nil, fmt.Errorf("empty parameter")
	}
	if p.Ref == "" {
		return p, nil
	}
	name, ok := strings.CutPrefix(p.Ref, "#/components/parameters/")
	if q := d.Components.Parameters[name]; ok && q != nil {
		return q, nil
	}
	return nil, fmt.Errorf("unresolved parameter %s", p.Ref)
}

// schema follows s's references (nil when one does not resolve).
func (d *oasDoc) schema(s *oasSchema, depth int) *oasSchema {
	for s != nil && s.Ref != "" && depth < 32 {
		name, ok := strings.CutPrefix(s.Ref, "#/components/schemas/")
		if !ok {
			return nil
		}
		s = d.Components.Schemas[name]
		depth++
	}
	return s
}

// bodyFormats records in out the checked formats of s's properties below
// path, through arrays and allOf/oneOf/anyOf; a schema met again on the way
// down (a recursive one) is not followed twice.
func (d *oasDoc) bodyFormats(s *oasSchema, path string, out map[string]string, seen map[*oasSchema]bool, depth int) {
	if s != nil && s.Ref != "" {
		r := d.schema(s, 0)
		if r == nil || seen[r] || depth > 16 {
			return
		}
		seen[r] = true
		defer delete(seen, r)
		s = r
	}
	if s == nil {
		return
	}
	if checkedFormats[s.Format] && path != "" {
		out[path] = s.Format
	}
	for name, p := range s.Properties {
		sub := name
		if path != "" {
			sub = path + "." + name
		}
		d.bodyFormats(p, sub, out, seen, depth+1)
	}
	if s.Items != nil {
		d.bodyFormats(s.Items, path+"[]", out, seen, depth+1)
	}
	for _, group := range [][]*oasSchema{s.AllOf, s.OneOf, s.AnyOf} {
		for _, sub := range group {
			d.bodyFormats(sub, path, out, seen, depth+1)
		}
	}
}

// DeclaresHeader reports whether the operation (its id) declares header
// parameter name (any case) in the bundled document.
func DeclaresHeader(operationID, name string) bool {
	table, err := gateTable()
	if err != nil {
		return false
	}
	op, ok := table[operationID]
	if !ok {
		return false
	}
	for h := range op.header {
		if strings.EqualFold(h, name) {
			return true
		}
	}
	return false
}

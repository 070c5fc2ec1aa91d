package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/venueplatform/venue/internal/gen/mcpschema/toolschema"
	"github.com/venueplatform/venue/internal/input"
	"github.com/venueplatform/venue/internal/money"
)

// formatError is a format's refusal in this package's own words.
type formatError string

func (e formatError) Error() string { return string(e) }

// formats replace the validator's own checks of the formats the tool
// schemas use, so that a refusal is in our words and the input gate's
// rules hold: a date is a real YYYY-MM-DD date and a date-time an RFC 3339
// time, both in the years input.Date allows; a uuid is canonical
// (input.UUID); a currency an active ISO 4217 code.
var formats = []*jsonschema.Format{
	{Name: "date", Validate: func(v any) error {
		s, ok := v.(string)
		if !ok {
			return nil
		}
		d, err := time.Parse(dateLayout, s)
		if err != nil {
			return formatError("must be a real date written YYYY-MM-DD")
		}
		if e := input.Date(d); e != nil {
			return formatError(e.Reason)
		}
		return nil
	}},
	{Name: "date-time", Validate: func(v any) error {
		s, ok := v.(string)
		if !ok {
			return nil
		}
		t, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return formatError("must be an RFC 3339 date and time, such as 2030-01-31T09:00:00Z")
		}
		if e := input.Date(t); e != nil {
			return formatError(e.Reason)
		}
		return nil
	}},
	{Name: "uuid", Validate: func(v any) error {
		s, ok := v.(string)
		if !ok {
			return nil
		}
		if _, e := input.UUID(s); e != nil {
			return formatError(e.Reason)
		}
		return nil
	}},
	{Name: "iso4217", Validate: func(v any) error {
		s, ok := v.(string)
		if !ok || money.ValidCurrency(s) {
			return nil
		}
		return formatError("must be an active ISO 4217 currency code")
	}},
}

// toolSchemas are the published tools/list result and each tool's compiled
// input schema.
type toolSchemas struct {
	list    json.RawMessage
	byName  map[string]*jsonschema.Schema
	ordered []string
}

// loadSchemas compiles the generated tool list. Formats are asserted with
// the checks of formats.
func loadSchemas() (*toolSchemas, error) {
	var doc struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(toolschema.ToolsJSON, &doc); err != nil {
		return nil, fmt.Errorf("mcp: tool list: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	for _, f := range formats {
		c.RegisterFormat(f)
	}
	out := &toolSchemas{list: compact(toolschema.ToolsJSON), byName: map[string]*jsonschema.Schema{}}
	for _, t := range doc.Tools {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(t.InputSchema))
		if err != nil {
			return nil, fmt.Errorf("mcp: schema of %s: %w", t.Name, err)
		}
		url := "mcp:///tools/" + t.Name + ".json"
		if err := c.AddResource(url, inst); err != nil {
			return nil, fmt.Errorf("mcp: schema of %s: %w", t.Name, err)
		}
		s, err := c.Compile(url)
		if err != nil {
			return nil, fmt.Errorf("mcp: schema of %s: %w", t.Name, err)
		}
		out.byName[t.Name] = s
		out.ordered = append(out.ordered, t.Name)
	}
	return out, nil
}

// maxViolations bounds the violations one answer lists, so that its size
// does not grow with the arguments (a thousand unknown properties).
const maxViolations = 10

// validate checks raw arguments, which passed the input gate, against the
// tool's schema and returns the violations, leaves of the validation error
// tree, in a stable order and in this package's words (schemaMessage); the
// validator's own texts are never shown.
func (ts *toolSchemas) validate(tool string, raw json.RawMessage) []violation {
	s := ts.byName[tool]
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []violation{{Path: "", Message: input.ReasonJSON}}
	}
	err = s.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []violation{{Path: "", Message: "does not match the input schema"}}
	}
	var out []violation
	collect(ve, &out)
	slices.SortFunc(out, func(a, b violation) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	out = slices.Compact(out)
	if len(out) > maxViolations {
		out = out[:maxViolations]
	}
	return out
}

func collect(e *jsonschema.ValidationError, out *[]violation) {
	if len(e.Causes) == 0 {
		*out = append(*out, schemaViolations(e.InstanceLocation, e.ErrorKind)...)
		return
	}
	for _, c := range e.Causes {
		collect(c, out)
	}
}

// schemaViolations words one failed keyword. Only the schema's own values
// (bounds, allowed values, formats) appear in a message, never the
// caller's; a property the caller named (an unknown one) appears once, in
// the path, cut by input.Echo.
func schemaViolations(at []string, ek jsonschema.ErrorKind) []violation {
	path := pointer(at)
	one := func(msg string) []violation { return []violation{{Path: path, Message: msg}} }
	switch k := ek.(type) {
	case *kind.Type:
		return one("must be " + typeNames(k.Want))
	case *kind.Required:
		vs := make([]violation, len(k.Missing))
		for i, m := range k.Missing {
			vs[i] = violation{Path: pointer(append(slices.Clip(at), m)), Message: "is required"}
		}
		return vs
	case *kind.AdditionalProperties:
		vs := make([]violation, 0, min(len(k.Properties), maxViolations))
		for _, p := range k.Properties {
			if len(vs) == maxViolations {
				break
			}
			vs = append(vs, violation{Path: pointer(append(slices.Clip(at), p)), Message: "is not a known property"})
		}
		return vs
	case *kind.Enum:
		if len(k.Want) == 1 {
			return one("must be " + literal(k.Want[0]))
		}
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = literal(w)
		}
		return one("must be one of " + strings.Join(want, ", "))
	case *kind.Const:
		return one("must be " + literal(k.Want))
	case *kind.Format:
		var fe formatError
		if errors.As(k.Err, &fe) {
			return one(string(fe))
		}
		return one("must be a valid " + k.Want)
	case *kind.Pattern:
		return one("must match the pattern " + k.Want)
	case *kind.MinLength:
		return one(fmt.Sprintf("must hold at least %d characters", k.Want))
	case *kind.MaxLength:
		return one(fmt.Sprintf("must hold at most %d characters", k.Want))
	case *kind.Minimum:
		return one("must be at least " + k.Want.RatString())
	case *kind.Maximum:
		return one("must be at most " + k.Want.RatString())
	case *kind.ExclusiveMinimum:
		return one("must be greater than " + k.Want.RatString())
	case *kind.ExclusiveMaximum:
		return one("must be less than " + k.Want.RatString())
	case *kind.MultipleOf:
		return one("must be a multiple of " + k.Want.RatString())
	case *kind.MinItems:
		return one(fmt.Sprintf("must hold at least %d items", k.Want))
	case *kind.MaxItems:
		return one(fmt.Sprintf("must hold at most %d items", k.Want))
	case *kind.UniqueItems:
		return one("must not hold the same item twice")
	case *kind.MinProperties:
		return one(fmt.Sprintf("must hold at least %d properties", k.Want))
	case *kind.MaxProperties:
		return one(fmt.Sprintf("must hold at most %d properties", k.Want))
	case *kind.FalseSchema:
		return one("is not allowed")
	default:
		return one("does not match the input schema")
	}
}

// typeNames words a schema's types: "a string", "an integer or null".
func typeNames(types []string) string {
	out := make([]string, len(types))
	for i, t := range types {
		switch t {
		case "null":
			out[i] = "null"
		case "integer", "object", "array":
			out[i] = "an " + t
		case "boolean":
			out[i] = "true or false"
		default:
			out[i] = "a " + t
		}
	}
	return strings.Join(out, " or ")
}

// literal renders a value of the schema (an enum member or const) as JSON.
func literal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "the value of the schema"
	}
	return string(b)
}

// maxPathBytes bounds a violation's path: each token the caller chose is
// cut by input.Echo, and the whole pointer at this many bytes.
const maxPathBytes = 256

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// pointer renders a JSON Pointer (RFC 6901), bounded for an answer.
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(pointerEscaper.Replace(input.Echo(t)))
		if b.Len() > maxPathBytes {
			// Cut on a rune boundary (the tokens are valid text).
			return strings.ToValidUTF8(b.String()[:maxPathBytes], "") + "…"
		}
	}
	return b.String()
}

package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/venueplatform/venue/internal/gen/mcpschema/toolschema"
	"github.com/venueplatform/venue/internal/money"
)

// iso4217 is the custom format of currency codes in the tool schemas.
var iso4217 = &jsonschema.Format{
	Name: "iso4217",
	Validate: func(v any) error {
		s, ok := v.(string)
		if !ok || money.ValidCurrency(s) {
			return nil
		}
		return errors.New("not an active ISO 4217 currency code")
	},
}

var printer = message.NewPrinter(language.English)

// toolSchemas are the published tools/list result and each tool's compiled
// input schema.
type toolSchemas struct {
	list    json.RawMessage
	byName  map[string]*jsonschema.Schema
	ordered []string
}

// loadSchemas compiles the generated tool list. Formats are asserted: a
// date must be a real date, a uuid a UUID, a currency an ISO 4217 code.
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
	c.RegisterFormat(iso4217)
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

// validate checks raw arguments against the tool's schema and returns the
// violations, leaves of the validation error tree, in a stable order.
func (ts *toolSchemas) validate(tool string, raw json.RawMessage) []violation {
	s := ts.byName[tool]
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return []violation{{Path: "", Message: "arguments are not JSON"}}
	}
	err = s.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []violation{{Path: "", Message: "arguments do not match the input schema"}}
	}
	var out []violation
	collect(ve, &out)
	slices.SortFunc(out, func(a, b violation) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	return slices.Compact(out)
}

func collect(e *jsonschema.ValidationError, out *[]violation) {
	if len(e.Causes) == 0 {
		*out = append(*out, violation{Path: pointer(e.InstanceLocation), Message: e.ErrorKind.LocalizedString(printer)})
		return
	}
	for _, c := range e.Causes {
		collect(c, out)
	}
}

// pointer renders a JSON Pointer (RFC 6901).
func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}

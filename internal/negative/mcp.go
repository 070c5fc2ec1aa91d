package negative

import (
	"bytes"
	"encoding/json"
	"strings"
)

// ToolCase is one tools/call of the MCP table: a tool, one string
// argument, and one bad value in it.
type ToolCase struct {
	Tool, Arg string
	Class     Class
	Body      []byte // the JSON-RPC request
}

// ToolCases returns, for a tool's input schema, a tools/call per string
// argument (top level) and per bad value: NUL, invalid UTF-8 (raw bytes), a
// lone surrogate, and an overlong value (maxLength+1, or 64 KB).
func ToolCases(tool string, input map[string]any) []ToolCase {
	s := SchemaOf(input)
	if s == nil {
		return nil
	}
	var out []ToolCase
	for _, name := range s.PropertyNames() {
		ps := s.Properties[name]
		if ps.Type != "string" && ps.Type != "" {
			continue
		}
		long := strings.Repeat("x", LongURL)
		class := Long
		if ps.MaxLength != nil {
			long, class = strings.Repeat("x", *ps.MaxLength+1), OverMax
		}
		for _, v := range []badValue{
			{NUL, "nul", `"a\u0000b"`},
			{InvalidUTF8, "ED A0 80", "\"a\xed\xa0\x80b\""},
			{Surrogate, `\ud800`, `"a\ud800b"`},
			{class, "long", `"` + long + `"`},
		} {
			args := setField(example(s, 0), []string{name}, v.raw)
			var b bytes.Buffer
			b.WriteString(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":`)
			n, _ := json.Marshal(tool)
			b.Write(n)
			b.WriteString(`,"arguments":`)
			b.Write(args)
			b.WriteString(`}}`)
			out = append(out, ToolCase{Tool: tool, Arg: name, Class: v.class, Body: b.Bytes()})
		}
	}
	return out
}

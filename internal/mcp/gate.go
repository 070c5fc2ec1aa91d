package mcp

import (
	"encoding/json"
	"strings"

	"github.com/venueplatform/venue/internal/input"
)

// gateParams puts a method's params through the input gate (input.JSON)
// before anything else reads them: every string, raw or escaped, keys
// included, must be valid UTF-8 without NUL, and no key may be given twice.
// For tools/call (inArguments) a refusal inside arguments names its path in
// the arguments, as schema violations do; anywhere else (the tool name,
// _meta, a resource URI) its path in params.
func gateParams(params json.RawMessage, inArguments bool) *rpcError {
	if len(params) == 0 {
		return nil
	}
	e := input.JSON(params)
	if e == nil {
		return nil
	}
	if inArguments {
		if rest, ok := underArguments(e.Field); ok {
			return errInvalidParams("arguments hold a value the input gate refuses",
				violation{Path: fieldPointer(rest), Message: e.Reason})
		}
	}
	return errInvalidParams("params hold a value the input gate refuses",
		violation{Path: fieldPointer(e.Field), Message: e.Reason})
}

// underArguments reports whether a field path of input.JSON lies in
// params.arguments and returns its path relative to the arguments.
func underArguments(field string) (string, bool) {
	rest, ok := strings.CutPrefix(field, "arguments")
	if !ok {
		return "", false
	}
	switch {
	case rest == "":
		return "", true
	case rest[0] == '.':
		return rest[1:], true
	case rest[0] == '[':
		return rest, true
	}
	return "", false
}

// fieldPointer turns a path of input.JSON ("lines[2].note") into a JSON
// Pointer ("/lines/2/note"), bounded like every violation path. A key that
// itself holds a dot or a bracket reads as more than one token: the path
// only has to lead a caller to the value.
func fieldPointer(field string) string {
	var tokens []string
	for _, part := range strings.Split(field, ".") {
		if part == "" {
			continue
		}
		key, idx, _ := strings.Cut(part, "[")
		if key != "" {
			tokens = append(tokens, key)
		}
		for idx != "" {
			var n string
			n, idx, _ = strings.Cut(idx, "]")
			tokens = append(tokens, n)
			idx = strings.TrimPrefix(idx, "[")
		}
	}
	return pointer(tokens)
}

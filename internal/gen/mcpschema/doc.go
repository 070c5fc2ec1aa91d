// Command mcpschema writes the MCP tool list, with every tool's input JSON
// Schema, from the Go definitions in package mcptools:
//
//	go run ./internal/gen/mcpschema
//
// It writes toolschema/tools.gen.json (the exact result of tools/list) and
// toolschema/toolschema.gen.go (which embeds it) under -dir. The output is
// deterministic: properties keep the order of the struct fields and the file
// ends with a newline, so CI can regenerate and diff.
package main

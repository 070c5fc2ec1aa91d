// Package mcptools is the one Go definition of every MCP tool: its name,
// description, required scopes, result ceiling and input struct. The input
// structs carry json tags (the wire names) and jsonschema tags (the
// constraints); `go run ./internal/gen/mcpschema` reflects them into the JSON
// Schemas that tools/list publishes and the endpoint validates against, and the
// endpoint decodes validated arguments into the same structs. Nothing here is
// typed twice.
//
// Formats are part of the schemas and are asserted, not just announced, by
// the endpoint with the rules of package input: date (a real calendar date in
// the years 1900-2200), date-time (RFC 3339, same years) with a pattern that
// demands UTC (Z), uuid (canonical form only), and iso4217 (an active ISO 4217
// currency code; a custom format the endpoint's validator registers, paired
// with a pattern clients can check themselves).
package mcptools

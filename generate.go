// Package venue is the root of the venue platform module. `go generate ./...`
// here regenerates every derived file, deterministically: the ent packages and
// entity component schemas, the ogen server, the bundled OpenAPI document and
// the MCP tool schemas.
package venue

//go:generate go run ./internal/gen/entc

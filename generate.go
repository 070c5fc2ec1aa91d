// Package venue is the root of the venue platform module. `go generate ./...`
// here regenerates every derived file, deterministically, in order: the ent
// packages, the entity component schemas (spec/ent.gen.json: the entities
// marked APIShape, as the API answers them) and their mappers from ent rows to
// the API's types (internal/gen/apient), the bundled
// OpenAPI document (spec/api.yaml plus the fragments in spec/parts/), the
// ogen server and client from that document, and the MCP tool schemas. New SQL migrations are written separately, on purpose, by
// `go run ./internal/gen/migrate -name <change>`; a test fails while the
// schema and the migrations disagree.
package venue

//go:generate go run ./internal/gen/entc
//go:generate go run ./internal/gen/bundle
//go:generate go tool ogen --loglevel error --config internal/gen/ogen.yml --target internal/gen/api --package api --clean internal/gen/openapi/openapi.json
//go:generate go run ./internal/gen/mcpschema

// Package arch holds the layering rules of the module as a test
// (arch_test.go): a table places every package in one layer, and the test
// fails on an import that points up, on domain code that imports an HTTP
// convention or the generated API, on a test helper imported outside tests,
// and on a package the table does not place. Layers, top to bottom; an
// import points to its own layer or below:
//
//	faces        cmd/..., handlers (REST), mcp, server, jobs, bench, generators
//	             and the generated REST code (gen/api, gen/apient)
//	conventions  what only faces use, the protocols' business: credentials
//	             (auth), Idempotency-Key, venue headers, rate limits, HTTP
//	             plumbing, the MCP tool catalogue, the bundled documents
//	domain       one package per business noun, its reads and writes for
//	             every face (schedule, booking, members, catalogue, accounts,
//	             webhooks, ...); nouns may use one another (Go keeps them
//	             acyclic) and the shared services below
//	services     domain machinery every noun shares and no noun owns: audit,
//	             events, notify, identity/*, the webhook delivery primitives;
//	             a service never imports a noun
//	wall         who calls and what they may see (viewer, rule, system,
//	             scope, ent/schema's policies) and the typed vocabulary every
//	             domain package speaks (apperr, money, pagination, concurrency)
//	storage      ent (generated), db, pglocal, model, migrations, secretbox,
//	             config: what everything above stands on
//
// A domain package takes a context carrying the viewer and typed arguments;
// whatever a face learned from a request (credentials, idempotency keys,
// headers) arrives as the viewer or as a value, never as an import.
//
// A new capability (payments, appointments, point of sale) is one domain
// package named after its noun, placed in the table of arch_test.go.
package arch

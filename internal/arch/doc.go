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
// # The map
//
// Every package by layer, as the table of arch_test.go places it (paths
// relative to the module, "x/..." a tree); TestDocMap holds this list and the
// table equal, so the map read here is the one the test enforces:
//
//	faces        . cmd/... internal/bench internal/crashrig internal/gen/api
//	             internal/gen/apient
//	             internal/gen/bundle internal/gen/entc internal/gen/mcpschema
//	             internal/gen/migrate internal/handlers internal/jobs
//	             internal/mcp internal/payments/crashtest
//	             internal/payments/stripetest internal/server
//	             internal/webhooks/crashtest internal/billing/billingclock
//	             internal/billing/crashtest
//	conventions  internal/auth internal/gen/mcpschema/toolschema
//	             internal/gen/openapi internal/httpx internal/idempotency
//	             internal/limits internal/mcptools internal/ratelimit
//	             internal/venuectx
//	domain       internal/accounts internal/apikey internal/appointments
//	             internal/booking
//	             internal/catalogue internal/codemail internal/demo
//	             internal/frontdesk internal/importer internal/inquiries
//	             internal/me internal/members internal/payments/...
//	             internal/platform internal/schedule internal/seed internal/venue
//	             internal/webhooks internal/webhooks/manage
//	             internal/webhooks/store internal/billing/fees
//	             internal/pos internal/reports internal/billing
//	             internal/feedback internal/promos
//	services     internal/audit internal/events internal/identity/...
//	             internal/notify internal/webhooks/deliver
//	             internal/webhooks/dispatch internal/webhooks/retry
//	             internal/webhooks/signature internal/media
//	wall         ent/runtime ent/schema internal/apperr internal/concurrency
//	             internal/input internal/money internal/pagination
//	             internal/rule internal/scope internal/system internal/viewer
//	storage      ent/... internal/config internal/db internal/model
//	             internal/pglocal internal/secretbox migrations
//	test helpers ent/enttest internal/arch internal/logtest internal/negative
//	             internal/pgtest internal/smtptest
//
// A domain package takes a context carrying the viewer and typed arguments;
// whatever a face learned from a request (credentials, idempotency keys,
// headers) arrives as the viewer or as a value, never as an import.
//
// A new capability (payments, appointments, point of sale) is one domain
// package named after its noun, placed in the table of arch_test.go.
package arch

// Package mcp is the MCP endpoint, POST /api/mcp: JSON-RPC 2.0 over HTTP,
// stateless, MCP protocol 2025-03-26, exposing a venue's data as 8 read-only
// resources and 7 tools (contract: mcp-interface.md; decisions:
// operations.md, "MCP decisions the seed leaves open"). README.md beside this
// file says how to connect a client.
//
// # Transport
//
// One request object or a batch array. Every answer is HTTP 200 with
// Content-Type application/json and carries the request's id; a request of
// notifications only gets 202 with no body. GET and DELETE (and every other
// HTTP method) get 405 with Allow: POST: there is no SSE stream and no session.
// Accept, Content-Type and MCP-Protocol-Version are read leniently.
//
// Batches: an array gets an array of the responses to its requests, in order
// (notifications get none); an empty array is one -32600; initialize inside a
// batch is -32600 for that element; at most MaxBatch elements run, the rest
// are answered -32600 each with their own id. Every element passes the gates
// on its own, so each costs one request of the key's rate-limit window.
//
// "id": null appears only when no id can be read: a body that is not JSON
// (-32700), an empty batch, an element that is not an object or whose id is
// neither a number nor a string (-32600), or a body over MaxBodyBytes.
//
// Methods: initialize (echoes 2025-03-26 or 2024-11-05 when asked for,
// otherwise answers 2025-03-26; capabilities tools and resources),
// notifications/* (accepted, no work), ping, tools/list, tools/call,
// resources/list (the two fixed resources), resources/templates/list (the six
// templates) and resources/read. Any other method is -32601 at once, before
// the key is looked at: clients probe server/discover first.
//
// # Gates
//
// Each answered element runs, in order: key (-32001, auth.Authenticator),
// kill switch, plan and API flag (-32004 with data.reason kill_switch, plan or
// feature_flag), rate limit (-32003 with data.retry_after_seconds; package
// ratelimit, the same per-key window as REST), the input gate over the
// params (below), then for tools/call and
// resources/read: unknown tool (-32601) or resource URI (-32005), scope
// (-32002 with data.required_scopes; all scopes of a tool are required),
// params (-32602 with data.violations, each {path, message}, path a JSON
// Pointer), and finally the query (-32005 for an unknown id; another venue's
// id gives exactly the same answer). The venue comes only from the key. The
// key gates' reads are plain reads outside a transaction and are scanned by
// pgx directly (db.DirectReads), not through database/sql.
//
// create_flash_sale also needs a key that records the staff member who
// issued it; an older key without one is -32002 with data.reason
// key_reissue_required and a detail saying to reissue it. Pass types of
// another venue are -32005, like unknown ones; pass types that are not
// recurring are -32602.
//
// # The input gate
//
// Before anything reads them, every method's params pass package input's
// gate (input.JSON over the raw params): every string, key or value, raw
// or escaped, is valid UTF-8 without NUL (a lone surrogate escape is not
// UTF-8), and no key is given twice. A refusal is -32602 with one
// violation whose path is a JSON Pointer into the arguments (tools/call)
// or else into the params ("/name", "/uri", "/_meta/..."), and whose
// message is the gate's reason; nothing is queried. So the tool name, a
// resource URI and every argument are text PostgreSQL takes before the
// tool is even looked up. A resource's percent-decoded path parameter is
// checked again (input.Text, input.UUID, input.Date).
//
// A refused tool name is still audited: the entry's target (and its
// details' tool) is input.Echo of the name, so a NUL or an invalid byte is
// stored as U+FFFD and a long name cut at 32 bytes; every name a tool has
// is unchanged by it.
//
// Refusals are in this package's words: no Go or library text (no
// time.Parse or schema-validator message) reaches an answer; the log keeps
// the real cause of an internal error. A caller's value is echoed at most
// once and cut by input.Echo (an unknown tool or method name, an unknown
// resource URI, an unknown property in a violation's path), violation
// paths are bounded, and an answer lists at most 10 violations, so the
// answer's size does not grow with the request.
//
// # Tools and validation
//
// The tools are defined once, in package mcptools; internal/gen/mcpschema
// generates the tools/list result with their JSON Schemas, which this package
// compiles (santhosh-tekuri/jsonschema) and validates arguments against
// before any query, after the input gate. Formats are asserted by checks of
// this package that hold the gate's rules: date (a real YYYY-MM-DD date)
// and date-time (RFC 3339) in the years input.Date allows, uuid in its
// canonical form only (input.UUID), and iso4217. Each failed keyword (type,
// required, enum, const, pattern, minLength/maxLength, minimum/maximum and
// their exclusive forms, format, additionalProperties, minItems/maxItems,
// uniqueItems) has its own phrase naming only the schema's bounds or
// values, never the caller's value; a missing or unknown property is named
// by the violation's path. What
// a schema cannot say (starts_at before ends_at, a period that runs backwards)
// is -32602 too, still before any query. Results are one text content item
// holding JSON plus the same value as structuredContent, written once into a
// pooled buffer; the schedule's JSON (the largest and most read result) is
// written by hand, byte for byte as encoding/json writes it (present_json.go,
// held to it by tests and fuzzing), as REST's generated encoder avoids
// reflection. Reads share their
// queries with REST: schedule.List and schedule.Get, catalogue.PassTypes, and the
// packages memberquery and frontdesk. Ceilings are part of the
// queries: search_schedule 100 classes, search_members 25 members.
//
// # Audit
//
// Every tools/call leaves one audit entry (action mcp.tools/call, target the
// tool): the key, the issuing staff user, a SHA-256 of the canonical
// arguments, the outcome (success; denied for -32001 to -32004; failure
// otherwise, with error_code) and the duration. A write commits its entry in
// the same transaction as its change. Every other entry stands alone and is
// queued on an audit.Writer, which writes batches in one statement; Close,
// called by the server's graceful shutdown, writes what is still queued. A
// call without a valid key belongs to no venue and is only logged.
package mcp

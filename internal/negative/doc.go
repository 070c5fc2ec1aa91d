// Package negative is the negative-test suite of the service, generated
// from the bundled OpenAPI document (openapi.JSON), and the small library
// that generates it. Its tests run the real server (server.New over a real
// PostgreSQL of package pgtest, with the demo venue, an API key holding
// every scope, an owner and a member signed in) and send it requests that
// are well formed except for one bad value.
//
// # The table
//
// Parse reads every operation of the document; Base.Cases crosses each
// one's parameters (path, query, header, plus the venue headers
// X-Organization-ID and X-Organization-Slug every operation reads) and the
// fields of its JSON body (two levels deep, and the items of string arrays)
// with the bad values that apply to them, and with every caller the
// operation's security allows (owner and member bearer tokens, the API key)
// plus anonymous. An operation added to the document is covered without new
// test code. Send writes each request as raw HTTP/1.1, so values no client
// library sends (NUL in a header, invalid UTF-8 in a path) arrive as they are.
//
// The classes, and what each must be answered with (Judge):
//
//	nul             "a\x00b" (%00 in a URL, a raw byte in a header, \u0000 in JSON)  refused
//	invalid-utf8    the bytes ED A0 80 (%ED%A0%80 in a URL, raw in JSON and headers) refused
//	lone-surrogate  the JSON escape \ud800 (bodies)                                   refused
//	over-max        maxLength+1 characters, where the document declares a maximum     refused
//	long            1 MB in a body, 64 KB in a URL or header, where it declares none  2xx or refused
//	wrong-type      number for string, string for number or boolean, {} for array...  refused
//	date-range      0000-01-01, 9999-12-31, 10000-01-01 (dates are 1900-2200)        refused
//	number-range    huge numbers (1e400, 99999999999999999999), -1 where minimum >= 0 refused
//	malformed-id    {uuid}, no dashes, urn:uuid:..., not-a-uuid (format uuid)         refused
//	bad-escape      %zz in a query value                                              refused
//	duplicate-key   a JSON key given twice                                            refused
//	content-type    text/plain; application/json; charset=utf-16                     refused
//	oversized-body  a body 1 KB over the server's cap (whitespace around valid JSON)  refused
//
// "Refused" is a 4xx answer whose body is the error envelope
// {"error":{"code","message","details"}} and smaller than 4 KB. A long value
// where no maximum is declared is legitimate (a long search string), so it
// may also be answered 2xx, as long as the answer does not echo it. net/http
// itself refuses some requests before the service sees them (a control byte
// in a header, a 1 MB request line); such answers, recognised by their
// missing X-Request-Id, are counted apart as transport refusals, which is
// why URL and header values are 64 KB rather than 1 MB long. Every answer,
// whatever its status, must hold no library or runtime text (Leaks: pq:,
// ERROR:, SQLSTATE, pgx, ent:, sql:, parsing time, cannot parse, invalid
// character, json:, runtime error, goroutine, strconv., file positions).
//
// No row may change: Take fingerprints every table (row count and an md5
// of its rows in order) before and after each operation's batch. Left out
// are the tables and columns a refused request may legitimately write
// (Volatile, VolatileColumns): rate_limits (charged before values are
// read; the test also empties it before each request so that no answer
// is a 429), idempotency_keys (claimed as the operation is about to run),
// audit_logs (every MCP tools/call is audited, refusals too), and the
// last_used_at and updated_at of api_keys and sessions (a credential that
// authenticated records its use).
//
// The MCP part calls tools/list and sends each string argument of each
// tool NUL, invalid UTF-8, a lone surrogate and an overlong value through
// tools/call; no answer may be -32603 or carry library text, and no row
// may change.
//
// # Running it
//
//	go test ./internal/negative                        # a sample: every operation once per class
//	go test ./internal/negative -args -negative.full   # the whole table
//
// The sample (Sample) takes, per operation and class, one case chosen by a
// hash of the two, preferring a caller with a credential the operation
// accepts; it runs in a few seconds. Both print a summary line (cases, 5xx,
// envelope violations, internal-text leaks, batches with changed rows) and
// the answers by class and status.
//
// # Figures
//
// 94 operations, 7 MCP tools. At 5a164ba (the REST input gate, charset and
// edge checks in), and at be6acd0 before them:
//
//	                     cases  5xx  envelope  leaks  changed  net/http
//	sampled, 5a164ba       718    0         0      0        0        51
//	full, 5a164ba         7621    0         0      0        0       591
//	sampled, be6acd0       718   19        22      0        4        51
//	full, be6acd0         7621   96       167      0        5       591
//
// MCP (both): 44 tools/call, 0 5xx, 0 -32603, 0 leaks, 0 changed rows.
// "changed" counts operations whose batch changed a row; "net/http" the
// answers net/http gave itself (not failures).
package negative

// Command venuectl is the platform's admin CLI (shared contract
// operations.md): migrations, venues, staff, API keys, the kill switch,
// imports, synthetic data, the audit trail and the OpenAPI document.
//
// Every command is built by a constructor (newXxxCmd) over one shared app
// value; main only wires them. Without --database-url (DATABASE_URL) the
// managed local PostgreSQL in --data-dir (VENUE_DATA_DIR, default ./.venue)
// is used, started if it is not running and stopped on exit if this process
// started it. Pending migrations are applied before every command except
// openapi and completion. With --json, standard output carries exactly one
// JSON document in the shape of operations.md; errors go to standard error
// with exit status 1.
//
// Venue-scoped commands act as viewer.Operator{Name: "venuectl"} of the
// venue named by --venue, so the ordinary tenancy rules apply, and the
// changes they make (staff, keys, imports, venue updates) are recorded in
// the venue's audit trail.
package main

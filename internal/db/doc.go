// Package db owns the application's connection to PostgreSQL: Open builds the pgx connection
// pool every command shares, NewClient opens the ent client on it, and Migrate and Pending
// apply and report the versioned schema migrations embedded by package migrations, recorded
// in table venue_schema_migrations. The direct read path (DirectReads, ScanRows) lets hot
// reads that ent built, under its policies, scan on pgx without database/sql.
//
// NewClient is the one place a client is opened, and it is here, in the storage layer, on
// purpose, although it imports two packages above storage:
//   - ent/runtime, so every program that reaches the database has the policies and hooks of
//     ent/schema wired in: no client exists without the venue wall;
//   - events, whose driver (events.NewDriver) lets a transaction of events.WithTx carry River
//     jobs, so an event is enqueued with the change that causes it.
//
// Neither reaches back into db (events and ent/runtime import no storage package but ent), so
// there is no cycle; the two edges are named with their reasons among the allowed upward
// imports of internal/arch. Putting the constructor anywhere else would make a domain or
// service package the opener of the storage client, or leave a second package whose only job
// is to wire these three together (the entdb package this one absorbed).
package db

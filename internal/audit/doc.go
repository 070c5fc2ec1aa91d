// Package audit writes and reads a venue's audit trail (AuditLog rows).
// Entries are append-only: the schema rejects updates and deletes.
//
// Record is the named system call site "audit.record": a read-only viewer
// (an API key with read scopes only) may not write rows, yet every call it
// makes must leave an entry. The entry is still bound to the viewer's venue by
// the create hook, and a context without a venue viewer is refused.
package audit

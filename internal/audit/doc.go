// Package audit writes and reads a venue's audit trail (AuditLog rows).
// Entries are append-only: the schema rejects updates and deletes.
//
// Record is the named system call site "audit.record": a read-only viewer
// (an API key with read scopes only) may not write rows, yet every call it
// makes must leave an entry. The entry is still bound to the viewer's venue by
// the create hook, and a context without a venue viewer is refused.
//
// Record writes at once, on the caller's client: an entry that belongs to a
// change passes the change's transaction and commits or rolls back with it.
// Writer serves callers whose entry stands alone (every read-only MCP
// tools/call): it checks the entry the same way, queues it and writes the
// queue in multi-row INSERTs at the same site, so a busy endpoint pays one
// statement per batch; Close (called by the server's graceful shutdown)
// writes what is still queued.
package audit

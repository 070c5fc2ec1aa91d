// Package ratelimit limits requests per key with GCRA (the generic cell rate
// algorithm) held in PostgreSQL, so a limit holds across every server instance
// without another service.
//
// Each key has one row in the table rate_limits (migration
// 20261122021816_rate_limits.sql) with its theoretical arrival time (TAT). One
// statement, INSERT ... ON CONFLICT DO UPDATE ... RETURNING, reads, decides and
// writes it atomically: PostgreSQL's row lock on the conflicting row serialises
// concurrent requests of one key, and different keys never wait for each other.
// Times come from the database clock (now()), so instances with skewed clocks
// still agree.
//
// The default is the contract's per-key window: 100 requests per minute, with a
// burst of the whole window. REST and MCP share a key's window by limiting the
// same key string, APIKey(id).
package ratelimit

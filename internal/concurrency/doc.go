// Package concurrency owns optimistic concurrency over `updated_at` read
// tokens: reads return a row's updated_at (Format), writes send it back as
// `expected_updated_at` (Parse), and the write applies only while the row
// still carries that value (Save), else 409 STALE_TARGET.
//
// A token is RFC 3339 in UTC with six fractional digits, e.g.
// 2026-11-22T10:00:00.123456Z. PostgreSQL keeps microseconds, so tokens
// are cut to the microsecond before they are formatted or compared: a token
// taken from a value ent returns after a save (which still has nanoseconds)
// equals one taken from a later read. Parse accepts any RFC 3339 form (any
// offset, any number of fractional digits) and compares at the microsecond.
//
// The check is part of the write itself (UPDATE ... WHERE id = ? AND
// updated_at = ?), so no read-then-write race remains; every ent update bumps
// updated_at (BaseMixin's UpdateDefault). Two writes of one row within the same
// microsecond would leave the token unchanged; that is not guarded against.
package concurrency

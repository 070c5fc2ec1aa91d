// Package pagination owns the two list shapes of the REST API.
//
// Page-based lists take `page` (default 1) and `limit` (a default and a
// maximum per endpoint, PageRule) and answer meta {page, limit, total,
// has_more}. A page or limit out of range is a 400 VALIDATION_ERROR naming the
// parameter; a page past the end is an empty page, not an error.
//
// Cursor-based lists take `limit` (default 20, at most 100: CursorLists) and
// `after`, an opaque cursor the previous page returned as meta.next_cursor.
// A cursor holds the sort key of the last row it follows, as JSON, with an
// HMAC-SHA256 over a version byte, the list's name and that JSON, all in
// unpadded base64url. Cursors are signed, not encrypted: a sort key must hold
// nothing its caller may not see. A tampered, truncated, re-encoded or
// foreign cursor (signed for another list, or with another secret) is a 400
// VALIDATION_ERROR with details.parameter "after". The list name may carry
// whatever else a cursor must be bound to, such as a filter or the caller.
//
// The secret comes from configuration: the server reads VENUE_CURSOR_SECRET
// (LoadSecret; at least 32 bytes) and otherwise generates a random one at
// start, so cursors then last only as long as the process and do not work
// across instances: production deployments set the variable.
package pagination

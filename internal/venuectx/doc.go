// Package venuectx owns the venue context headers of the REST API:
// X-Organization-ID (a UUID, preferred) and X-Organization-Slug. It parses
// them (a malformed value is a 400 VALIDATION_ERROR naming the header) and
// resolves them to the venue a request acts in.
//
// The wall holds for names that match nothing: an unknown slug resolves to
// NoVenue, an id no row carries, so every venue-filtered query answers no rows
// and never another venue's. An unknown X-Organization-ID needs no lookup for
// the same reason: filtering by it finds nothing.
//
// When both headers are sent, X-Organization-ID wins and the slug is ignored.
// A slug is matched case-insensitively (slugs are stored in lower case).
//
// Guard keeps the header from being ignored where an operation acts in the
// caller's own venue without declaring it (staff and /me operations): a
// venue the user works at is acted in for that call, a client-only venue is
// 403 WORKSPACE_NOT_SELECTABLE, any other 404 NOT_FOUND.
package venuectx

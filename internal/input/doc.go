// Package input is the one gate every face puts a caller's values through
// before anything else runs: text is valid UTF-8 without NUL characters,
// dates lie in the years the database and the business can hold, ids are
// canonical UUIDs, and a JSON document (a REST body, MCP tool arguments)
// holds only such text, with no key given twice.
//
// A violation is an *Error whose message is this package's own words: it
// never carries library text, and never the offending value itself; Echo
// gives a face a short, printable prefix of a value when it wants to show
// one. The faces map an *Error to their protocol's answer (REST 400
// VALIDATION_ERROR naming the parameter, or 404 for a path id or slug;
// MCP -32602 with violations), so that nothing is queried with it.
package input

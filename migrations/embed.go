// Package migrations holds the versioned SQL migrations of the database schema, applied in
// lexical order of their file names by package db (internal/db). The files are Atlas-format:
// statements separated by semicolons and newlines, with -- comments. Only *.sql files are
// embedded; atlas.sum beside them is Atlas's integrity file.
package migrations

import "embed"

// FS holds the migration files (*.sql) at its root.
//
//go:embed *.sql
var FS embed.FS

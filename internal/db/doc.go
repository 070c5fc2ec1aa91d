// Package db owns the application's connection to PostgreSQL: Open builds the pgx connection
// pool every command shares, and Migrate and Pending apply and report the versioned schema
// migrations embedded by package migrations, recorded in table venue_schema_migrations.
package db

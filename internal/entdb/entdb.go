// Package entdb opens the ent client on a pgx pool. It imports ent/runtime, so
// every program that reaches the database through it has the policies and
// hooks of ent/schema wired in.
package entdb

import (
	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/venueplatform/venue/ent"
	_ "github.com/venueplatform/venue/ent/runtime" // policies and hooks
)

// NewClient returns an ent client over pool. Closing the client does not close
// the pool.
func NewClient(pool *pgxpool.Pool) *ent.Client {
	db := stdlib.OpenDBFromPool(pool)
	return ent.NewClient(ent.Driver(entsql.OpenDB(dialect.Postgres, db)))
}

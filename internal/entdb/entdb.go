// Package entdb opens the ent client on a pgx pool. It imports ent/runtime, so
// every program that reaches the database through it has the policies and
// hooks of ent/schema wired in.
package entdb

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/venueplatform/venue/ent"
	_ "github.com/venueplatform/venue/ent/runtime" // policies and hooks
	venuedb "github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/events"
)

// NewClient returns an ent client over pool. Closing the client does not close
// the pool.
func NewClient(pool *pgxpool.Pool) *ent.Client {
	db := stdlib.OpenDBFromPool(pool)
	// events.NewDriver: transactions of events.WithTx can carry River jobs;
	// venuedb.WithDirectReads: reads marked by venuedb.DirectReads skip database/sql.
	return ent.NewClient(ent.Driver(venuedb.WithDirectReads(events.NewDriver(db), pool)))
}

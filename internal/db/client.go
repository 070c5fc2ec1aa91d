package db

import (
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/venueplatform/venue/ent"
	_ "github.com/venueplatform/venue/ent/runtime" // policies and hooks
	"github.com/venueplatform/venue/internal/events"
)

// NewClient returns an ent client over pool. Closing the client does not close
// the pool.
func NewClient(pool *pgxpool.Pool) *ent.Client {
	sqldb := stdlib.OpenDBFromPool(pool)
	// events.NewDriver: transactions of events.WithTx can carry River jobs;
	// WithDirectReads: reads marked by DirectReads skip database/sql.
	return ent.NewClient(ent.Driver(WithDirectReads(events.NewDriver(sqldb), pool)))
}

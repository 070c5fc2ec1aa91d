package main

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/demo"
	"github.com/venueplatform/venue/internal/server"
)

// ensureDemo creates the demo venue on an empty database.
func ensureDemo(ctx context.Context, pool *pgxpool.Pool, client *ent.Client) (*server.DemoVenue, error) {
	res, err := demo.Ensure(ctx, pool, client, time.Now())
	if err != nil {
		return nil, err
	}
	return &server.DemoVenue{Slug: res.Slug, Key: res.Key, Created: res.Created, OwnerEmail: res.OwnerEmail}, nil
}

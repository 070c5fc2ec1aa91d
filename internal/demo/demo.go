package demo

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/importer"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// The demo venue.
const (
	Slug       = "copenhagen-flow"
	Name       = "Copenhagen Flow"
	OwnerEmail = "owner@copenhagen-flow.example"
	Currency   = "DKK"
	Timezone   = "Europe/Copenhagen"
	KeyName    = "Demo read key"
)

// lockKey serialises Ensure across processes ("venuedem" in ASCII).
const lockKey int64 = 0x76656e756564656d

// Result says what Ensure did.
type Result struct {
	// Created is false when a venue already existed and nothing was done.
	Created bool
	// Slug, VenueID, OwnerEmail and Key describe the demo venue when it was
	// created; Key is the demo API key's secret, shown once.
	Slug       string
	VenueID    uuid.UUID
	OwnerEmail string
	Key        string
	// Counts is the importer's count of items per section.
	Counts map[string]int
}

// Ensure creates the demo venue when the database has no venue.
func Ensure(ctx context.Context, pool *pgxpool.Pool, client *ent.Client, now time.Time) (*Result, error) {
	ctx = system.RawSQL(ctx, "demo.lock")
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", lockKey); err != nil {
		return nil, fmt.Errorf("demo: lock: %w", err)
	}
	defer func() {
		if _, err := conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", lockKey); err != nil {
			_ = conn.Conn().Close(context.WithoutCancel(ctx)) // ending the session releases the lock
		}
	}()

	venues, err := venue.List(ctx, client)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	if len(venues) > 0 {
		return &Result{}, nil
	}
	tx, err := client.Tx(ctx)
	if err != nil {
		return nil, fmt.Errorf("demo: begin: %w", err)
	}
	res, err := create(ctx, tx.Client(), now)
	if err != nil {
		_ = tx.Rollback()
		return nil, fmt.Errorf("demo: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("demo: commit: %w", err)
	}
	return res, nil
}

func create(ctx context.Context, c *ent.Client, now time.Time) (*Result, error) {
	v, err := venue.Create(ctx, c, venue.CreateParams{
		Name: Name, Slug: Slug, Plan: "pro", Currency: Currency, Timezone: Timezone, APIEnabled: true,
	})
	if err != nil {
		return nil, err
	}
	vctx := system.Elevate(ctx, "demo.operator", viewer.Operator{Org: v.ID, Name: "demo"})
	doc, err := Document(now)
	if err != nil {
		return nil, err
	}
	imported, err := importer.Import(vctx, c, doc, importer.Options{})
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	if _, err := members.Enroll(vctx, c, members.EnrollParams{
		Email: OwnerEmail, FirstName: "Maja", LastName: "Lindqvist", Role: "owner",
		Permissions: scope.Permissions, JoinedAt: now.AddDate(-2, 0, 0),
	}); err != nil {
		return nil, fmt.Errorf("owner: %w", err)
	}
	key, err := apikey.Create(vctx, c, apikey.CreateParams{Name: KeyName, Scopes: scope.Reads(), CreatedBy: OwnerEmail})
	if err != nil {
		return nil, fmt.Errorf("api key: %w", err)
	}
	return &Result{
		Created: true, Slug: v.Slug, VenueID: v.ID, OwnerEmail: OwnerEmail,
		Key: key.Secret, Counts: imported.Counts,
	}, nil
}

// ErrNoZone means the demo's time zone is not installed.
var ErrNoZone = errors.New("demo: time zone " + Timezone + " is not available")

package seed

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/internal/system"
)

// Params describes a seeding run.
type Params struct {
	// Venues is the number of venues, Members the members of each, Days the
	// days of schedule from today.
	Venues, Members, Days int
	// Seed makes the data deterministic.
	Seed uint64
	// Progress, when set, is called as rows are written: done of total.
	Progress func(done, total int)
	// Now anchors the schedule; zero means the current time.
	Now time.Time
}

// Result is the outcome of Run, as `venuectl seed --json` prints it.
type Result struct {
	// Venues lists the slugs of the seed's venues, skipped ones included.
	Venues []string `json:"venues"`
	// Counts is the rows written per table.
	Counts map[string]int `json:"counts"`
	// Skipped lists venues that already existed and were left as they were.
	Skipped []string `json:"skipped,omitempty"`
}

// Limits of one run.
const (
	MaxVenues  = 1000
	MaxMembers = 1_000_000
	MaxDays    = 366
)

// Slug returns the slug of venue i (1-based) of a seed.
func Slug(seed uint64, i int) string { return fmt.Sprintf("seed-%d-venue-%d", seed, i) }

// Run seeds p.Venues venues, each in its own transaction.
func Run(ctx context.Context, pool *pgxpool.Pool, p Params) (*Result, error) {
	switch {
	case p.Venues < 1 || p.Venues > MaxVenues:
		return nil, fmt.Errorf("seed: venues must be between 1 and %d", MaxVenues)
	case p.Members < 0 || p.Members > MaxMembers:
		return nil, fmt.Errorf("seed: members must be between 0 and %d", MaxMembers)
	case p.Days < 1 || p.Days > MaxDays:
		return nil, fmt.Errorf("seed: days must be between 1 and %d", MaxDays)
	}
	now := p.Now
	if now.IsZero() {
		now = time.Now()
	}
	res := &Result{Venues: []string{}, Counts: map[string]int{}}
	var todo []int
	for i := 1; i <= p.Venues; i++ {
		slug := Slug(p.Seed, i)
		res.Venues = append(res.Venues, slug)
		var exists bool
		if err := pool.QueryRow(system.RawSQL(ctx, "seed.copy"), "SELECT EXISTS (SELECT 1 FROM organizations WHERE slug = $1)", slug).Scan(&exists); err != nil {
			return nil, fmt.Errorf("seed: %w", err)
		}
		if exists {
			res.Skipped = append(res.Skipped, slug)
			continue
		}
		todo = append(todo, i)
	}
	// Progress counts estimated rows; each venue's real rows are scaled to
	// its estimate, so the total is known before the first venue is made.
	est := estimateRows(p)
	total := len(todo) * est
	for k, i := range todo {
		g := newGenerator(p, i, now)
		tables := g.generate()
		rows := 0
		for _, t := range tables {
			rows += len(t.rows)
		}
		copied := 0
		tick := func(n int) {
			copied += n
			if p.Progress != nil {
				p.Progress(min(k*est+copied*est/max(rows, 1), total), total)
			}
		}
		err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
			return copyAll(ctx, tx, tables, tick)
		})
		var pgErr interface{ SQLState() string }
		if errors.As(err, &pgErr) && pgErr.SQLState() == "23505" {
			// A unique slug or email: a concurrent run of the same seed, or
			// people of a venue of this seed that was deleted.
			return nil, fmt.Errorf("seed: venue %s: rows of this seed already exist (%w); use another --seed", g.slug, err)
		}
		if err != nil {
			return nil, fmt.Errorf("seed: venue %s: %w", g.slug, err)
		}
		for _, t := range tables {
			res.Counts[t.name] += len(t.rows)
		}
	}
	if p.Progress != nil && total > 0 {
		p.Progress(total, total)
	}
	return res, nil
}

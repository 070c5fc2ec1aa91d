package seed

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/venueplatform/venue/internal/system"
)

// table is the rows of one table, ready for COPY.
type table struct {
	name    string
	columns []string
	rows    [][]any
}

func (t *table) add(row ...any) { t.rows = append(t.rows, row) }

// source feeds rows to COPY and reports progress every step rows.
type source struct {
	rows [][]any
	i    int
	tick func(n int)
}

const progressStep = 2000

// Next implements pgx.CopyFromSource.
func (s *source) Next() bool {
	if s.i > 0 && s.i%progressStep == 0 {
		s.tick(progressStep)
	}
	s.i++
	return s.i <= len(s.rows)
}

// Values implements pgx.CopyFromSource.
func (s *source) Values() ([]any, error) { return s.rows[s.i-1], nil }

// Err implements pgx.CopyFromSource.
func (s *source) Err() error { return nil }

// copyAll writes the tables in order with COPY.
func copyAll(ctx context.Context, tx pgx.Tx, tables []*table, tick func(n int)) error {
	for _, t := range tables {
		if len(t.rows) == 0 {
			continue
		}
		src := &source{rows: t.rows, tick: tick}
		n, err := tx.CopyFrom(system.RawSQL(ctx, "seed.copy"), pgx.Identifier{t.name}, t.columns, src)
		if err != nil {
			return fmt.Errorf("copy %s: %w", t.name, err)
		}
		tick(int(n) % progressStep)
		if int(n) != len(t.rows) {
			return fmt.Errorf("copy %s: wrote %d of %d rows", t.name, n, len(t.rows))
		}
	}
	return nil
}

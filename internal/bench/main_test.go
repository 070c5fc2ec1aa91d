package bench

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/venueplatform/venue/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// statements records the SQL text of every query a pool runs.
type statements struct {
	mu   sync.Mutex
	list []string
}

// TraceQueryStart implements pgx.QueryTracer.
func (s *statements) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	s.mu.Lock()
	s.list = append(s.list, strings.Join(strings.Fields(d.SQL), " "))
	s.mu.Unlock()
	return ctx
}

// TraceQueryEnd implements pgx.QueryTracer.
func (s *statements) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// take returns the statements recorded since the last take.
func (s *statements) take() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.list
	s.list = nil
	return out
}

// tracedPool opens a pool on url whose statements s records.
func tracedPool(t testing.TB, url string, s *statements) *pgxpool.Pool {
	t.Helper()
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnConfig.Tracer = s
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

package server_test

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/demo"
	"github.com/venueplatform/venue/internal/logtest"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/ratelimit"
	"github.com/venueplatform/venue/internal/server"
)

// TestShutdownWritesQueuedMCPAuditEntries: the audit entries of MCP tool
// calls still queued when the server stops are written by its graceful
// shutdown, one per call.
func TestShutdownWritesQueuedMCPAuditEntries(t *testing.T) {
	url := pgtest.New(t)
	demoOn := true
	keys := make(chan string, 1)
	ready := make(chan string, 1)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, server.Config{
			Addr: "127.0.0.1:0", DatabaseURL: url, Migrate: true, Demo: &demoOn,
			EnsureDemo: func(ctx context.Context, pool *pgxpool.Pool, client *ent.Client) (*server.DemoVenue, error) {
				res, err := demo.Ensure(ctx, pool, client, time.Now())
				if err != nil {
					return nil, err
				}
				keys <- res.Key
				return &server.DemoVenue{Slug: res.Slug, Key: res.Key, Created: res.Created}, nil
			},
			MCP: func(d server.Deps) http.Handler {
				// Nothing is written before the shutdown: the interval outlasts the test.
				w := audit.NewWriter(d.Client, audit.WriterOptions{Interval: time.Hour, MaxBatch: 1000, Log: d.Log})
				return mcp.NewHandler(d.Client, auth.New(d.Client), ratelimit.New(d.Pool, 0, 0), d.Log, mcp.WithAuditWriter(w))
			},
			Ready: func(addr string) { ready <- addr },
		}, &logtest.Buffer{}, slog.New(slog.DiscardHandler))
	}()
	var base string
	select {
	case addr := <-ready:
		base = "http://" + addr
	case err := <-done:
		t.Fatalf("server exited: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("server did not start")
	}
	key := <-keys

	const n = 30
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_schedule","arguments":{"date":"` +
		time.Now().Format("2006-01-02") + `"}}}`
	for range n {
		req, err := http.NewRequest(http.MethodPost, base+"/api/mcp", strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", key)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode)
	}
	pool, err := pgxpool.New(context.Background(), url)
	require.NoError(t, err)
	defer pool.Close()
	count := func() int {
		var c int
		require.NoError(t, pool.QueryRow(context.Background(),
			`SELECT count(*) FROM audit_logs WHERE action = $1 AND outcome = 'success'`, mcp.AuditAction).Scan(&c))
		return c
	}
	require.Zero(t, count(), "the entries are still queued")

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(30 * time.Second):
		t.Fatal("server did not stop")
	}
	require.Equal(t, n, count())
}

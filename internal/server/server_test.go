package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/demo"
	"github.com/venueplatform/venue/internal/logtest"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/ratelimit"
	"github.com/venueplatform/venue/internal/server"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// start runs the server on a fresh database with the demo on, and returns its
// base URL, the banner and a stop function that returns Run's error.
func start(t *testing.T) (base string, banner *logtest.Buffer, logs *logtest.Buffer, stop func() error) {
	t.Helper()
	demoOn := true
	ready := make(chan string, 1)
	banner, logs = &logtest.Buffer{}, &logtest.Buffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- server.Run(ctx, server.Config{
			Addr: "127.0.0.1:0", DatabaseURL: pgtest.New(t), Migrate: true, Demo: &demoOn,
			EnsureDemo: func(ctx context.Context, pool *pgxpool.Pool, client *ent.Client) (*server.DemoVenue, error) {
				res, err := demo.Ensure(ctx, pool, client, time.Now())
				if err != nil {
					return nil, err
				}
				return &server.DemoVenue{Slug: res.Slug, Key: res.Key, Created: res.Created}, nil
			},
			MCP: func(d server.Deps) http.Handler {
				return mcp.NewHandler(d.Client, auth.New(d.Client), ratelimit.New(d.Pool, 0, 0), d.Log)
			},
			Ready: func(addr string) { ready <- addr },
		}, banner, slog.New(slog.NewJSONHandler(logs, nil)))
	}()
	select {
	case addr := <-ready:
		base = "http://" + addr
	case err := <-done:
		t.Fatalf("server exited: %v", err)
	case <-time.After(60 * time.Second):
		t.Fatal("server did not start")
	}
	return base, banner, logs, func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(20 * time.Second):
			return context.DeadlineExceeded
		}
	}
}

func get(t *testing.T, url, key string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return res.StatusCode, body
}

func TestServeDemoProbesAndShutdown(t *testing.T) {
	base, banner, logs, stop := start(t)

	status, _ := get(t, base+"/healthz", "")
	require.Equal(t, http.StatusOK, status)
	status, _ = get(t, base+"/readyz", "")
	require.Equal(t, http.StatusOK, status)

	status, body := get(t, base+"/api/v1/openapi.json", "")
	require.Equal(t, http.StatusOK, status)
	var doc map[string]any
	require.NoError(t, json.Unmarshal(body, &doc))
	require.Equal(t, "3.1.0", doc["openapi"])
	require.Contains(t, doc["paths"], "/venues/{slug}/schedule")

	status, body = get(t, base+"/nowhere", "")
	require.Equal(t, http.StatusNotFound, status)
	require.Contains(t, string(body), `"code":"NOT_FOUND"`)

	// The banner prints the demo slug, a key and curl lines that work.
	key := regexp.MustCompile(`vk_[A-Za-z0-9]+_[A-Za-z0-9]+`).FindString(banner.String())
	require.NotEmpty(t, key, banner.String())
	urls := regexp.MustCompile(`curl -s '([^']+/api/v1/[^']+)'`).FindAllStringSubmatch(banner.String(), -1)
	require.NotEmpty(t, urls)
	for _, u := range urls {
		status, body := get(t, u[1], key)
		require.Equal(t, http.StatusOK, status, u[1])
		var env struct {
			Data  json.RawMessage `json:"data"`
			Error any             `json:"error"`
		}
		require.NoError(t, json.Unmarshal(body, &env))
		require.Nil(t, env.Error)
		require.Greater(t, len(env.Data), 20, "the demo venue has data: %s", body)
	}

	// The MCP lines answer with results, not errors.
	bodies := regexp.MustCompile(`-d '(\{"jsonrpc"[^']+)'`).FindAllStringSubmatch(banner.String(), -1)
	require.Len(t, bodies, 2)
	for _, b := range bodies {
		req, err := http.NewRequest(http.MethodPost, base+"/api/mcp", strings.NewReader(b[1]))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", key)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var rpc struct {
			Result json.RawMessage `json:"result"`
			Error  any             `json:"error"`
		}
		require.NoError(t, json.NewDecoder(res.Body).Decode(&rpc))
		res.Body.Close()
		require.Nil(t, rpc.Error, b[1])
		require.Greater(t, len(rpc.Result), 50, "%s", rpc.Result)
	}

	require.NoError(t, stop(), "graceful shutdown exits cleanly")
	_, err := http.Get(base + "/healthz")
	require.Error(t, err, "the listener is closed")
	require.Contains(t, logs.String(), `"request_id":"req_`)
}

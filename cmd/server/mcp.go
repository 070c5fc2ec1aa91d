package main

import (
	"net/http"

	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/ratelimit"
	"github.com/venueplatform/venue/internal/server"
)

// mcpHandler mounts the MCP endpoint. Its rate limiter uses the same
// per-key buckets as REST (ratelimit.APIKey), so one window covers both.
func mcpHandler(d server.Deps) http.Handler {
	return mcp.NewHandler(d.Client, auth.New(d.Client), ratelimit.New(d.Pool, 0, 0), d.Log)
}

package main

import (
	"net/http"

	"github.com/venueplatform/venue/internal/server"
)

// mcpHandler mounts the MCP endpoint.
func mcpHandler(server.Deps) http.Handler { return nil }

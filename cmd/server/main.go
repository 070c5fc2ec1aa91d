// Command server runs the venue platform: REST under /api/v1, MCP at
// /api/mcp. Without a database URL it runs on a managed local PostgreSQL in
// the data folder and creates a demo venue (operations.md).
package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/server"
)

func main() {
	log := slog.New(slog.NewJSONHandler(os.Stderr, nil))
	cfg, err := parseConfig(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := server.Run(ctx, cfg, os.Stdout, log); err != nil {
		log.Error("server failed", "error", err.Error())
		stop()
		os.Exit(1)
	}
}

// parseConfig reads the configuration once (package config: flags, then the
// environment, then defaults) and hands it to the server.
func parseConfig(args []string) (server.Config, error) {
	c, err := config.Load(args, os.LookupEnv, os.Stderr)
	if err != nil {
		return server.Config{}, err
	}
	return server.Config{Addr: c.Server.Addr, DatabaseURL: c.Server.DatabaseURL, DataDir: c.Server.DataDir,
		Migrate: c.Server.Migrate, Demo: c.Server.Demo, MCP: mcpHandler, EnsureDemo: ensureDemo, Settings: &c}, nil
}

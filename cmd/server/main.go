// Command server runs the venue platform: REST under /api/v1, MCP at
// /api/mcp. Without a database URL it runs on a managed local PostgreSQL in
// the data folder and creates a demo venue (operations.md).
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strconv"
	"syscall"

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

// parseConfig reads flags, falling back to the environment, then defaults.
func parseConfig(args []string) (server.Config, error) {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	addr := fs.String("addr", env("ADDR", "127.0.0.1:8080"), "listen address (ADDR)")
	dbURL := fs.String("database-url", os.Getenv("DATABASE_URL"), "PostgreSQL URL (DATABASE_URL); unset runs a managed local PostgreSQL")
	dataDir := fs.String("data-dir", env("VENUE_DATA_DIR", "./.venue"), "data folder of the managed database (VENUE_DATA_DIR)")
	migrate := fs.String("migrate", env("VENUE_MIGRATE", "true"), "apply pending migrations at start (VENUE_MIGRATE)")
	demo := fs.String("demo", os.Getenv("VENUE_DEMO"), "create the demo venue when the database has no venue (VENUE_DEMO; default true with the managed database)")
	if err := fs.Parse(args); err != nil {
		return server.Config{}, err
	}
	cfg := server.Config{Addr: *addr, DatabaseURL: *dbURL, DataDir: *dataDir, MCP: mcpHandler, EnsureDemo: ensureDemo}
	m, err := strconv.ParseBool(*migrate)
	if err != nil {
		return cfg, fmt.Errorf("--migrate: %w", err)
	}
	cfg.Migrate = m
	if *demo != "" {
		d, err := strconv.ParseBool(*demo)
		if err != nil {
			return cfg, fmt.Errorf("--demo: %w", err)
		}
		cfg.Demo = &d
	}
	return cfg, nil
}

func env(key, def string) string {
	if v, ok := os.LookupEnv(key); ok && v != "" {
		return v
	}
	return def
}

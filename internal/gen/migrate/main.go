// Command migrate writes the next versioned SQL migration into migrations/:
// the difference between what the migrations already there build and what
// ent/schema describes. It starts a throwaway PostgreSQL as the dev database.
//
//	go run ./internal/gen/migrate -name add_gift_cards
//
// Hand-written migration files (extensions, data fixes) may sit beside the
// generated ones; the checksum file is refreshed before diffing.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"log"
	"os"
	"time"

	atlasmigrate "ariga.io/atlas/sql/migrate"
	"entgo.io/ent/dialect"
	"entgo.io/ent/dialect/sql/schema"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/venueplatform/venue/ent/migrate"
	"github.com/venueplatform/venue/internal/pglocal"
	"github.com/venueplatform/venue/migrations"
)

func main() {
	log.SetFlags(0)
	name := flag.String("name", "", "name of the migration (required)")
	dirPath := flag.String("dir", "migrations", "migrations folder")
	flag.Parse()
	if *name == "" {
		log.Fatal("migrate: -name is required")
	}
	if err := run(*dirPath, *name); err != nil {
		log.Fatalf("migrate: %v", err)
	}
}

func run(dirPath, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tmp, err := os.MkdirTemp("", "venue-migrate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	cluster, err := pglocal.Start(ctx, pglocal.Options{DataDir: tmp, Throwaway: true})
	if err != nil {
		return fmt.Errorf("dev database: %w", err)
	}
	defer cluster.Stop(context.Background())
	// Atlas opens the dev database through database/sql by the URL scheme.
	sql.Register("postgres", stdlib.GetDefaultDriver())

	dir, err := atlasmigrate.NewLocalDir(dirPath)
	if err != nil {
		return err
	}
	sum, err := dir.Checksum()
	if err != nil {
		return err
	}
	if err := atlasmigrate.WriteSumFile(dir, sum); err != nil {
		return err
	}
	return migrate.NamedDiff(ctx, cluster.URL("venue"), name,
		schema.WithDir(dir),
		schema.WithMigrationMode(schema.ModeReplay),
		schema.WithDialect(dialect.Postgres),
		schema.WithFormatter(atlasmigrate.DefaultFormatter),
		schema.WithDropColumn(true),
		schema.WithDropIndex(true),
		schema.WithDiffHook(migrations.KeepHandWritten),
	)
}

package db_test

import (
	"context"
	"encoding/json"
	"testing"

	"entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	_ "github.com/venueplatform/venue/ent/runtime" // policies and hooks
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/seed"
	"github.com/venueplatform/venue/internal/viewer"
)

// TestDirectReadsScanLikeDatabaseSQL reads the same rows through the
// database/sql path and through the direct path and requires equal entities:
// every column kind the schedule read and its edges use (UUIDs, nullable
// UUIDs, strings, enums, integers, booleans, floats, time stamps, NULLs).
func TestDirectReadsScanLikeDatabaseSQL(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	pool, err := db.Open(ctx, pgtest.New(t))
	require.NoError(t, err)
	t.Cleanup(pool.Close)
	res, err := seed.Run(ctx, pool, seed.Params{Venues: 2, Members: 30, Days: 3, Seed: 3})
	require.NoError(t, err)
	client := ent.NewClient(ent.Driver(db.WithDirectReads(entsql.OpenDB(dialect.Postgres, stdlib.OpenDBFromPool(pool)), pool)))

	var ids []uuid.UUID
	for _, slug := range res.Venues {
		var id uuid.UUID
		require.NoError(t, pool.QueryRow(ctx, `SELECT id FROM organizations WHERE slug = $1`, slug).Scan(&id))
		ids = append(ids, id)
	}
	var org ent.Organization
	for _, id := range ids {
		vctx := viewer.NewContext(ctx, viewer.Public{Org: id})
		read := func(ctx context.Context) []*ent.ClassInstance {
			cs, err := client.ClassInstance.Query().
				WithClassType().WithInstructor().WithLocation().WithRoom().WithOrganization().
				Order(ent.Asc(classinstance.FieldStartTime), ent.Asc(classinstance.FieldID)).
				All(ctx)
			require.NoError(t, err)
			return cs
		}
		want := read(vctx)
		got := read(db.DirectReads(vctx))
		require.NotEmpty(t, want)
		require.JSONEq(t, marshal(t, want), marshal(t, got))
		require.NotNil(t, got[0].Edges.Organization)
		org = *got[0].Edges.Organization
		require.Equal(t, id, org.ID, "the tenancy policy still filters direct reads")

		// Selected columns and nullable edge keys, as the schedule reads them.
		sel := func(ctx context.Context) []*ent.ClassInstance {
			cs, err := client.ClassInstance.Query().
				Select(classinstance.FieldID, classinstance.FieldRoomID, classinstance.FieldWorkshopEntryKind,
					classinstance.FieldCapacity, classinstance.FieldEndTime).
				Order(ent.Asc(classinstance.FieldID)).
				All(ctx)
			require.NoError(t, err)
			return cs
		}
		require.JSONEq(t, marshal(t, sel(vctx)), marshal(t, sel(db.DirectReads(vctx))))
	}

	vctx := db.DirectReads(viewer.NewContext(ctx, viewer.Public{Org: ids[0]}))
	n, err := client.ClassInstance.Query().Count(vctx)
	require.NoError(t, err)
	require.Positive(t, n, "aggregates scan on the direct path")

	rows, err := client.QueryContext(vctx, `SELECT count(*) FROM class_instances`)
	require.NoError(t, err, "database/sql calls pass through the wrapper")
	require.True(t, rows.Next())
	require.NoError(t, rows.Close())
	_, err = client.ExecContext(ctx, `SELECT 1`)
	require.NoError(t, err)

	// ScanRows: the rows go to the scanner, ent sees none; one statement
	// only; a transaction's client has no direct path.
	var scanned int
	err = db.ScanRows(vctx, func(ctx context.Context) error {
		cs, err := client.ClassInstance.Query().All(ctx)
		require.Empty(t, cs)
		return err
	}, func(r pgx.Rows) error {
		for r.Next() {
			scanned++
		}
		return r.Err()
	})
	require.NoError(t, err)
	require.Equal(t, n, scanned)
	err = db.ScanRows(vctx, func(ctx context.Context) error {
		if _, err := client.ClassInstance.Query().All(ctx); err != nil {
			return err
		}
		_, err := client.ClassType.Query().All(ctx)
		return err
	}, func(r pgx.Rows) error { return nil })
	require.Error(t, err, "one statement per scan")
	tx, err := client.Tx(ctx)
	require.NoError(t, err)
	err = db.ScanRows(viewer.NewContext(ctx, viewer.Public{Org: ids[0]}), func(ctx context.Context) error {
		_, err := tx.ClassInstance.Query().All(ctx)
		return err
	}, func(r pgx.Rows) error { return nil })
	require.ErrorIs(t, err, db.ErrNotDirect)
	require.NoError(t, tx.Rollback())

	cctx, cancel := context.WithCancel(vctx)
	cancel()
	_, err = client.ClassInstance.Query().All(cctx)
	require.Error(t, err, "a failed query reaches the caller")
}

// marshal renders entities with their edges; ent entities carry functions
// (their client's logger) and cannot be compared directly.
func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

package audit_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/logtest"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// twoVenues returns a client and a read-only API key viewer of each of two
// venues.
func twoVenues(t *testing.T) (*ent.Client, viewer.APIKey, viewer.APIKey) {
	t.Helper()
	ctx := context.Background()
	client := db.NewClient(pgtest.NewPool(t))
	a, err := venue.Create(ctx, client, venue.CreateParams{Name: "A", Slug: "a"})
	require.NoError(t, err)
	b, err := venue.Create(ctx, client, venue.CreateParams{Name: "B", Slug: "b"})
	require.NoError(t, err)
	user := uuid.New()
	return client,
		viewer.APIKey{Org: a.ID, KeyID: uuid.New(), Scopes: []string{"read:schedule"}, CreatedBy: &user},
		viewer.APIKey{Org: b.ID, KeyID: uuid.New(), Scopes: []string{"read:schedule"}}
}

func entry(i int) audit.Entry {
	return audit.Entry{Action: "mcp.tools/call", Target: "search_schedule", Outcome: audit.OutcomeFailure,
		Details: map[string]any{"n": i, "arguments_sha256": "ab"}, Duration: 7 * time.Millisecond}
}

// entries returns the venue's entries, oldest first.
func entries(t *testing.T, client *ent.Client, org uuid.UUID) []*ent.AuditLog {
	t.Helper()
	list, err := audit.List(viewer.NewContext(context.Background(), viewer.Operator{Org: org}), client, 1000)
	require.NoError(t, err)
	for i, j := 0, len(list)-1; i < j; i, j = i+1, j-1 {
		list[i], list[j] = list[j], list[i]
	}
	return list
}

// TestWriterQueuedEntriesWrittenAtClose: entries still queued when the
// writer closes are written before Close returns, each in its own venue and
// with the content Record writes.
func TestWriterQueuedEntriesWrittenAtClose(t *testing.T) {
	client, ka, kb := twoVenues(t)
	ctx := context.Background()
	// An interval longer than the test: nothing is written before Close.
	w := audit.NewWriter(client, audit.WriterOptions{Interval: time.Hour, MaxBatch: 1000})
	const n = 60
	for i := range n {
		k := ka
		if i%3 == 0 {
			k = kb
		}
		require.NoError(t, w.Record(viewer.NewContext(ctx, k), entry(i)))
	}
	require.Empty(t, entries(t, client, ka.Org), "still queued")
	require.NoError(t, w.Close(ctx))
	a, b := entries(t, client, ka.Org), entries(t, client, kb.Org)
	require.Len(t, a, n-n/3)
	require.Len(t, b, n/3)

	// Each row is what Record writes for the same entry and viewer.
	rec, err := audit.Record(viewer.NewContext(ctx, ka), client, entry(1))
	require.NoError(t, err)
	want := entries(t, client, ka.Org)[n-n/3]
	require.Equal(t, rec.ID, want.ID)
	got := a[0]
	require.Equal(t, ka.Org, got.OrganizationID)
	require.Equal(t, want.Actor, got.Actor)
	require.Equal(t, auditlog.ActorKindAPIKey, got.ActorKind)
	require.Equal(t, want.APIKeyID, got.APIKeyID)
	require.Equal(t, want.UserID, got.UserID)
	require.Equal(t, want.Action, got.Action)
	require.Equal(t, want.Target, got.Target)
	require.Equal(t, want.Outcome, got.Outcome)
	require.Equal(t, want.DurationMs, got.DurationMs)
	require.Equal(t, want.Details, got.Details)
	require.EqualValues(t, 1, got.Details["n"], "oldest first: recorded order is kept")
	require.Equal(t, "api_key:"+kb.KeyID.String(), b[0].Actor)

	// A Record after Close writes at once; Close again is harmless.
	require.NoError(t, w.Record(viewer.NewContext(ctx, kb), entry(99)))
	require.Len(t, entries(t, client, kb.Org), n/3+1)
	require.NoError(t, w.Close(ctx))
}

func TestWriterFlush(t *testing.T) {
	client, ka, _ := twoVenues(t)
	ctx := context.Background()
	w := audit.NewWriter(client, audit.WriterOptions{Interval: time.Hour, MaxBatch: 7})
	t.Cleanup(func() { _ = w.Close(ctx) })
	for i := range 20 {
		require.NoError(t, w.Record(viewer.NewContext(ctx, ka), entry(i)))
	}
	require.NoError(t, w.Flush(ctx))
	require.Len(t, entries(t, client, ka.Org), 20)
}

// TestWriterBackpressure: with a queue of one, concurrent callers wait for
// room instead of dropping entries.
func TestWriterBackpressure(t *testing.T) {
	client, ka, _ := twoVenues(t)
	ctx := context.Background()
	w := audit.NewWriter(client, audit.WriterOptions{Queue: 1, MaxBatch: 3, Interval: time.Millisecond})
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() { require.NoError(t, w.Record(viewer.NewContext(ctx, ka), entry(i))) })
	}
	wg.Wait()
	require.NoError(t, w.Close(ctx))
	require.Len(t, entries(t, client, ka.Org), 40)
}

// TestWriterBadEntryCostsNoOther: an entry the database refuses (its venue
// does not exist) is logged, and the rest of its batch is written.
func TestWriterBadEntryCostsNoOther(t *testing.T) {
	client, ka, _ := twoVenues(t)
	ctx := context.Background()
	logs := &logtest.Buffer{}
	w := audit.NewWriter(client, audit.WriterOptions{Interval: time.Hour, Log: slog.New(slog.NewTextHandler(logs, nil))})
	ghost := viewer.APIKey{Org: uuid.New(), KeyID: uuid.New()}
	for i := range 5 {
		k := ka
		if i == 2 {
			k = ghost
		}
		require.NoError(t, w.Record(viewer.NewContext(ctx, k), entry(i)))
	}
	require.NoError(t, w.Close(ctx))
	require.Len(t, entries(t, client, ka.Org), 4)
	require.Contains(t, logs.String(), "audit: entry not written")
	require.Contains(t, logs.String(), fmt.Sprint(ghost.Org))

	// Checks happen at Record, as with Record.
	require.ErrorIs(t, w.Record(ctx, entry(0)), audit.ErrNoVenue)
}

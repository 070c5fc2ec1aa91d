package media_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/media"
)

// TestSweepStaged: an upload whose ticket expired goes with its ticket; a
// live upload stays; a staged file without a ticket and a write cut short
// go once older than UploadFor, not before; published files are never
// touched.
func TestSweepStaged(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	now := time.Date(2026, time.March, 29, 1, 0, 0, 0, time.UTC)
	s := &media.Service{Store: media.Local{Dir: dir}, Now: func() time.Time { return now }}
	put := func(key string) {
		require.NoError(t, s.Store.Put(ctx, key, bytes.NewReader([]byte("x")), 10))
	}
	exists := func(key string) bool {
		_, err := os.Stat(filepath.Join(dir, filepath.FromSlash(key)))
		return err == nil
	}
	age := func(key string, d time.Duration) {
		require.NoError(t, os.Chtimes(filepath.Join(dir, filepath.FromSlash(key)), now.Add(-d), now.Add(-d)))
	}

	old, err := s.NewTicket(ctx, uuid.New(), "service:a")
	require.NoError(t, err)
	require.NoError(t, s.Receive(ctx, old.Token, bytes.NewReader([]byte("old"))))
	now = now.Add(media.UploadFor - time.Minute)
	live, err := s.NewTicket(ctx, uuid.New(), "service:b")
	require.NoError(t, err)
	require.NoError(t, s.Receive(ctx, live.Token, bytes.NewReader([]byte("live"))))
	now = now.Add(2 * time.Minute) // old expired a minute ago; live has 14 minutes left

	orphan := "uploads/" + uuid.NewString() // its ticket is gone
	put(orphan)
	young := "uploads/" + uuid.NewString()
	put(young)
	cut := "uploads/.put-123"
	put(cut)
	put("services/published.png")
	age(orphan, media.UploadFor+time.Minute)
	age(cut, media.UploadFor+time.Minute)
	age(young, time.Minute)
	age("services/published.png", 48*time.Hour)

	n, err := s.SweepStaged(ctx)
	require.NoError(t, err)
	require.Equal(t, 4, n, "the expired upload and its ticket, the orphan and the cut write")
	require.False(t, exists(old.Path()))
	require.False(t, exists("uploads/"+old.Token+".ticket"))
	require.False(t, exists(orphan))
	require.False(t, exists(cut))
	require.True(t, exists(live.Path()), "a live upload stays")
	require.True(t, exists("uploads/"+live.Token+".ticket"))
	require.True(t, exists(young), "a file younger than an upload's lifetime stays")
	require.True(t, exists("services/published.png"))

	// Once its ticket expires, the live upload can never be finalized: it goes.
	now = now.Add(media.UploadFor)
	_, err = s.Check(ctx, uuid.Nil, "service:b", live.Path())
	require.ErrorIs(t, err, media.ErrNoUpload)
	n, err = s.SweepStaged(ctx)
	require.NoError(t, err)
	require.Equal(t, 3, n, "the live upload and its ticket, and the ticketless file now old")
	require.False(t, exists(live.Path()))
	require.False(t, exists(young))
	n, err = s.SweepStaged(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "nothing twice")
}

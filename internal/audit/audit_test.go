package audit_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestRecordAndList(t *testing.T) {
	ctx := context.Background()
	client := db.NewClient(pgtest.NewPool(t))
	a, err := venue.Create(ctx, client, venue.CreateParams{Name: "A", Slug: "a"})
	require.NoError(t, err)
	b, err := venue.Create(ctx, client, venue.CreateParams{Name: "B", Slug: "b"})
	require.NoError(t, err)

	// A read-only API key leaves entries too.
	key := viewer.APIKey{Org: a.ID, KeyID: uuid.New(), Scopes: []string{"read:members"}}
	kctx := viewer.NewContext(ctx, key)
	e, err := audit.Record(kctx, client, audit.Entry{Action: "tools/call get_members", Target: "members",
		Details: map[string]any{"limit": 10}, Duration: 15 * time.Millisecond})
	require.NoError(t, err)
	require.Equal(t, "api_key:"+key.KeyID.String(), e.Actor)
	require.Equal(t, "api_key", string(e.ActorKind))
	require.Equal(t, key.KeyID, *e.APIKeyID)
	require.Equal(t, int64(15), *e.DurationMs)

	actx := viewer.NewContext(ctx, viewer.Operator{Org: a.ID, Name: "venuectl"})
	_, err = audit.Record(actx, client, audit.Entry{Action: "apikey.revoke", Outcome: audit.OutcomeDenied})
	require.NoError(t, err)

	list, err := audit.List(actx, client, 10)
	require.NoError(t, err)
	require.Len(t, list, 2)
	require.Equal(t, "apikey.revoke", list[0].Action, "newest first")
	require.Equal(t, "operator:venuectl", list[0].Actor)

	bctx := viewer.NewContext(ctx, viewer.Operator{Org: b.ID})
	list, err = audit.List(bctx, client, 10)
	require.NoError(t, err)
	require.Empty(t, list)

	_, err = audit.Record(ctx, client, audit.Entry{Action: "x"})
	require.ErrorIs(t, err, audit.ErrNoVenue)
}

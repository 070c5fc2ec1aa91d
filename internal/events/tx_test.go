package events_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestRecordNeedsTheTransaction(t *testing.T) {
	ctx := context.Background()
	client := db.NewClient(pgtest.NewPool(t))
	a, err := venue.Create(ctx, client, venue.CreateParams{Name: "A", Slug: "a"})
	require.NoError(t, err)
	vctx := viewer.NewContext(ctx, viewer.Operator{Org: a.ID, Name: "test"})

	// Outside WithTx: refused, nothing written.
	_, err = events.Record(vctx, client, events.MemberCreated, nil)
	require.ErrorIs(t, err, events.ErrNoTx)

	// Inside WithTx but with the root client: refused too.
	err = events.WithTx(vctx, client, func(ctx context.Context, tx *ent.Tx) error {
		require.True(t, events.InTx(ctx))
		_, err := events.Record(ctx, client, events.MemberCreated, nil)
		return err
	})
	require.ErrorIs(t, err, events.ErrNoTx)

	// A rolled-back change leaves no event; fn's error comes back as is.
	boom := errors.New("boom")
	err = events.WithTx(vctx, client, func(ctx context.Context, tx *ent.Tx) error {
		_, err := events.Record(ctx, tx.Client(), events.MemberCreated, map[string]any{"member_id": "m1"})
		require.NoError(t, err)
		return boom
	})
	require.Same(t, boom, err)

	// Unknown types are refused.
	err = events.WithTx(vctx, client, func(ctx context.Context, tx *ent.Tx) error {
		_, err := events.Record(ctx, tx.Client(), "member.deleted", nil)
		return err
	})
	require.Error(t, err)

	// A committed one stays; a nested WithTx with tx.Client() joins the transaction.
	err = events.WithTx(vctx, client, func(ctx context.Context, tx *ent.Tx) error {
		return events.WithTx(ctx, tx.Client(), func(ctx context.Context, inner *ent.Tx) error {
			require.Same(t, tx, inner)
			_, err := events.Record(ctx, inner.Client(), events.MemberCreated, map[string]any{"member_id": "m2"})
			return err
		})
	})
	require.NoError(t, err)
	list, err := client.Event.Query().All(vctx)
	require.NoError(t, err)
	require.Len(t, list, 1)
	require.Equal(t, "m2", list[0].Payload["member_id"])
}

package notify_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/smtptest"
)

// TestEmailEndToEnd: a message enqueued with its change reaches a real SMTP listener through
// River and the SMTP adapter, and the row records the Message-ID the server accepted.
func TestEmailEndToEnd(t *testing.T) {
	pool := pgtest.NewPool(t)
	ctx := context.Background()
	_, err := jobs.Migrate(ctx, pool)
	require.NoError(t, err)
	s := newStudio(t, pool, "e2e")
	srv := smtptest.New(t)
	log := slog.New(slog.DiscardHandler)
	adapters := notify.Config{SMTP: notify.SMTPConfig{Host: "127.0.0.1", Port: srv.Port(), From: "desk@e2e.example", TLS: notify.TLSOff}}.
		Adapters(log, nil, nil)
	workers := river.NewWorkers()
	require.NoError(t, notify.Register(pool, adapters, log)(workers))
	rc, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger: log, FetchPollInterval: 20 * time.Millisecond, FetchCooldown: 5 * time.Millisecond,
		Queues: map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 2}}, Workers: workers,
	})
	require.NoError(t, err)
	require.NoError(t, rc.Start(ctx))
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, rc.Stop(sctx))
	})

	var id uuid.UUID
	err = events.WithTx(s.ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		res, err := notify.EnqueueForBookings(ctx, tx.Client(), []uuid.UUID{s.bookings[0].ID}, notify.Email,
			notify.Message{Kind: "checkin.contact", Subject: "See you soon", Body: "Doors open at 6:45."})
		if err == nil {
			id = res.QueuedIDs[0]
		}
		return err
	})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		return s.client.NotificationDelivery.GetX(s.ctx, id).Status == notificationdelivery.StatusSent
	}, 20*time.Second, 20*time.Millisecond)
	got := srv.Messages()
	require.Len(t, got, 1)
	require.Equal(t, "e2e-ma@example.com", got[0].To)
	require.Contains(t, got[0].Data, "Subject: See you soon")
	require.Equal(t, "<"+id.String()+"@e2e.example>", *s.client.NotificationDelivery.GetX(s.ctx, id).ProviderMessageID)
}

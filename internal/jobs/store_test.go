package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/webhooks/dispatch"
	"github.com/venueplatform/venue/internal/webhooks/signature"
)

// testSchema stands in for the entities the application will have: subscriptions,
// deliveries and their attempts.
const testSchema = `
CREATE TABLE test_subscription (
	id uuid PRIMARY KEY,
	url text NOT NULL,
	secret text NOT NULL,
	disabled_reason text
);
CREATE TABLE test_delivery (
	id uuid PRIMARY KEY,
	subscription_id uuid NOT NULL REFERENCES test_subscription,
	message_id text NOT NULL,
	body bytea NOT NULL,
	state text NOT NULL DEFAULT 'pending'
);
CREATE TABLE test_attempt (
	seq bigserial PRIMARY KEY,
	delivery_id uuid NOT NULL REFERENCES test_delivery,
	number int NOT NULL,
	status int NOT NULL,
	class text NOT NULL,
	outcome text NOT NULL,
	error text NOT NULL,
	correlation_id text NOT NULL,
	started_at timestamptz NOT NULL,
	next_attempt_at timestamptz
);`

// pgStore is a dispatch.Store on the test tables, as the application's will be on its
// entities.
type pgStore struct{ pool *pgxpool.Pool }

var _ dispatch.Store = pgStore{}

func (s pgStore) Load(ctx context.Context, id uuid.UUID) (dispatch.Delivery, error) {
	d := dispatch.Delivery{ID: id}
	var secret, state string
	var disabled *string
	err := s.pool.QueryRow(ctx, `
		SELECT d.subscription_id, d.message_id, d.body, d.state, s.url, s.secret, s.disabled_reason
		FROM test_delivery d JOIN test_subscription s ON s.id = d.subscription_id
		WHERE d.id = $1`, id).
		Scan(&d.SubscriptionID, &d.MessageID, &d.Body, &state, &d.URL, &secret, &disabled)
	if errors.Is(err, pgx.ErrNoRows) {
		return d, fmt.Errorf("load %s: %w", id, dispatch.ErrNotFound)
	}
	if err != nil {
		return d, err
	}
	d.Secrets = []string{secret}
	d.Delivered = state == string(dispatch.OutcomeDelivered)
	d.SubscriptionDisabled = disabled != nil
	return d, nil
}

func (s pgStore) RecordAttempt(ctx context.Context, id uuid.UUID, a dispatch.Attempt) error {
	var next *time.Time
	if !a.NextAttemptAt.IsZero() {
		next = &a.NextAttemptAt
	}
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `
		INSERT INTO test_attempt (delivery_id, number, status, class, outcome, error, correlation_id, started_at, next_attempt_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
		id, a.Number, a.Result.Status, string(a.Result.Class), string(a.Outcome), a.Result.Error,
		a.Result.CorrelationID, a.Result.StartedAt, next); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE test_delivery SET state = $2 WHERE id = $1`, id, string(a.Outcome)); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

func (s pgStore) Disable(ctx context.Context, subscriptionID uuid.UUID, reason string) error {
	_, err := s.pool.Exec(ctx, `UPDATE test_subscription SET disabled_reason = $2 WHERE id = $1`, subscriptionID, reason)
	return err
}

// subscribe creates a subscription to url and returns its id and secret.
func subscribe(t *testing.T, pool *pgxpool.Pool, url string) (uuid.UUID, string) {
	t.Helper()
	secret, err := signature.NewSecret()
	require.NoError(t, err)
	id := uuid.New()
	_, err = pool.Exec(context.Background(), `INSERT INTO test_subscription (id, url, secret) VALUES ($1, $2, $3)`, id, url, secret)
	require.NoError(t, err)
	return id, secret
}

// insertDelivery writes a delivery row in tx, as the change causing the event would, and
// returns its id and message id.
func insertDelivery(t *testing.T, tx pgx.Tx, subscriptionID uuid.UUID, body string) (uuid.UUID, string) {
	t.Helper()
	id := uuid.New()
	msgID := "msg_" + id.String()
	_, err := tx.Exec(context.Background(), `INSERT INTO test_delivery (id, subscription_id, message_id, body) VALUES ($1, $2, $3, $4)`,
		id, subscriptionID, msgID, []byte(body))
	require.NoError(t, err)
	return id, msgID
}

// recordedAttempt is a row of test_attempt.
type recordedAttempt struct {
	Number        int
	Status        int
	Class         string
	Outcome       string
	CorrelationID string
}

// attempts returns the recorded attempts of a delivery in the order they were recorded.
func attempts(t *testing.T, pool *pgxpool.Pool, deliveryID uuid.UUID) []recordedAttempt {
	t.Helper()
	rows, err := pool.Query(context.Background(), `
		SELECT number, status, class, outcome, correlation_id FROM test_attempt
		WHERE delivery_id = $1 ORDER BY seq`, deliveryID)
	require.NoError(t, err)
	out, err := pgx.CollectRows(rows, pgx.RowToStructByPos[recordedAttempt])
	require.NoError(t, err)
	return out
}

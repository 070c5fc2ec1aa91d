package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/webhookattempt"
	"github.com/venueplatform/venue/ent/webhookdelivery"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/secretbox"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/webhooks/dispatch"
)

// Store is the dispatch.Store on the ent client.
type Store struct {
	client *ent.Client
	box    *secretbox.Box
	now    func() time.Time
}

var _ dispatch.Store = (*Store)(nil)

// New returns a Store over client that opens only unsealed secrets; WithBox
// gives it the configured keys.
func New(client *ent.Client) *Store {
	return &Store{client: client, now: time.Now}
}

// WithBox returns s opening secrets with box.
func (s *Store) WithBox(box *secretbox.Box) *Store {
	s.box = box
	return s
}

func deliverCtx(ctx context.Context) context.Context {
	// System call site: the worker holds only the delivery id (see the package doc).
	return system.Allow(ctx, "webhooks.deliver")
}

// Envelope is the body of every delivery: the contract's event envelope.
type Envelope struct {
	ID             string         `json:"id"`
	Type           string         `json:"type"`
	CreatedAt      string         `json:"created_at"`
	OrganizationID string         `json:"organization_id"`
	Data           map[string]any `json:"data"`
}

// EnvelopeOf returns the envelope of e; its bytes are the same at every attempt and replay.
func EnvelopeOf(e *ent.Event, messageID string) Envelope {
	data := e.Payload
	if data == nil {
		data = map[string]any{}
	}
	return Envelope{
		ID: messageID, Type: e.Type, OrganizationID: e.OrganizationID.String(), Data: data,
		CreatedAt: e.CreatedAt.UTC().Format("2006-01-02T15:04:05.000Z"),
	}
}

// Load implements dispatch.Store.
func (s *Store) Load(ctx context.Context, id uuid.UUID) (dispatch.Delivery, error) {
	ctx = deliverCtx(ctx)
	d, err := s.client.WebhookDelivery.Query().Where(webhookdelivery.ID(id)).
		WithSubscription().WithEvent().Only(ctx)
	if ent.IsNotFound(err) {
		return dispatch.Delivery{}, fmt.Errorf("delivery %s: %w", id, dispatch.ErrNotFound)
	}
	if err != nil {
		return dispatch.Delivery{}, err
	}
	sub, ev := d.Edges.Subscription, d.Edges.Event
	body, err := json.Marshal(EnvelopeOf(ev, d.MessageID))
	if err != nil {
		return dispatch.Delivery{}, fmt.Errorf("envelope: %w", err)
	}
	secrets, err := Secrets(s.box, sub, s.now())
	if err != nil {
		// A missing sealing key: the job retries on its schedule while the configuration
		// is fixed (the error names no secret).
		return dispatch.Delivery{}, fmt.Errorf("open secret of subscription %s: %w", sub.ID, err)
	}
	return dispatch.Delivery{
		ID: d.ID, SubscriptionID: sub.ID, MessageID: d.MessageID, URL: sub.URL,
		Secrets: secrets, Body: body,
		Delivered:            d.Status == webhookdelivery.StatusDelivered,
		SubscriptionDisabled: !sub.Enabled,
	}, nil
}

// Secrets returns the secrets that sign for sub at now, opened with box: the current one,
// and the previous one while its rotation overlap lasts.
func Secrets(box *secretbox.Box, sub *ent.WebhookSubscription, now time.Time) ([]string, error) {
	cur, _, err := box.Open(sub.Secret, sub.ID.String())
	if err != nil {
		return nil, err
	}
	out := []string{cur}
	if sub.PreviousSecret != nil && sub.PreviousSecretExpiresAt != nil && now.Before(*sub.PreviousSecretExpiresAt) {
		prev, _, err := box.Open(*sub.PreviousSecret, sub.ID.String())
		if err != nil {
			return nil, err
		}
		out = append(out, prev)
	}
	return out, nil
}

// statusOf maps an attempt's outcome to the delivery's status.
func statusOf(o dispatch.Outcome) webhookdelivery.Status {
	switch o {
	case dispatch.OutcomeDelivered:
		return webhookdelivery.StatusDelivered
	case dispatch.OutcomeRetrying:
		return webhookdelivery.StatusRetrying
	case dispatch.OutcomeDisabled:
		return webhookdelivery.StatusDisabled
	default:
		return webhookdelivery.StatusFailed
	}
}

// RecordAttempt implements dispatch.Store: the attempt row and the delivery's state in one
// transaction.
func (s *Store) RecordAttempt(ctx context.Context, id uuid.UUID, a dispatch.Attempt) error {
	ctx = deliverCtx(ctx)
	tx, err := s.client.Tx(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	// The delivery's row lock orders concurrent runs of its job (River runs a job at least
	// once), so attempt numbers are taken one after the other.
	d, err := tx.WebhookDelivery.Query().Where(webhookdelivery.ID(id)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return fmt.Errorf("delivery %s: %w", id, dispatch.ErrNotFound)
	}
	if err != nil {
		return err
	}
	// The number follows the attempts recorded, not the job's run count: a run cut short by
	// a crash (River counts it, rescues the job and runs it again) sent nothing that was
	// recorded, and the history must not show a gap for it.
	recorded, err := tx.WebhookAttempt.Query().Where(webhookattempt.DeliveryID(id)).Count(ctx)
	if err != nil {
		return fmt.Errorf("attempts: %w", err)
	}
	number := recorded + 1
	r := a.Result
	started := r.StartedAt
	if started.IsZero() {
		started = s.now()
	}
	create := tx.WebhookAttempt.Create().SetOrganizationID(d.OrganizationID).SetDeliveryID(id).
		SetNumber(number).SetStartedAt(started).SetDurationMs(r.Duration.Milliseconds()).
		SetOutcome(string(a.Outcome)).SetErrorClass(string(r.Class)).
		SetError(truncate(r.Error, 500)).SetResponseSnippet(truncate(r.ResponseSnippet, 1000)).
		SetCorrelationID(truncate(r.CorrelationID, 100))
	if r.Status != 0 {
		create.SetStatusCode(r.Status)
	}
	if err := create.Exec(ctx); err != nil {
		return fmt.Errorf("attempt: %w", err)
	}
	up := tx.WebhookDelivery.UpdateOneID(id).SetStatus(statusOf(a.Outcome)).
		SetAttempts(number)
	if r.Status != 0 {
		up.SetLastStatusCode(r.Status)
	}
	if a.Outcome == dispatch.OutcomeRetrying && !a.NextAttemptAt.IsZero() {
		up.SetNextAttemptAt(a.NextAttemptAt)
	} else {
		up.ClearNextAttemptAt()
	}
	if a.Outcome == dispatch.OutcomeDelivered {
		up.SetDeliveredAt(started.Add(r.Duration))
	}
	if err := up.Exec(ctx); err != nil {
		return fmt.Errorf("delivery: %w", err)
	}
	return tx.Commit()
}

// Disable implements dispatch.Store: the subscription stops receiving, with reason, and its
// deliveries still waiting for an attempt become disabled (their jobs cancel when they run).
func (s *Store) Disable(ctx context.Context, subscriptionID uuid.UUID, reason string) error {
	return DisableSubscription(deliverCtx(ctx), s.client, subscriptionID, reason, s.now())
}

// DisableSubscription disables a subscription of the context's venue (or, at a system call
// site, any) with reason, and marks its pending and retrying deliveries disabled. Inside an
// events.WithTx of client it joins that transaction.
func DisableSubscription(ctx context.Context, client *ent.Client, id uuid.UUID, reason string, now time.Time) error {
	return events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		if err := tx.WebhookSubscription.UpdateOneID(id).SetEnabled(false).
			SetDisabledReason(truncate(reason, 200)).SetDisabledAt(now).Exec(ctx); err != nil {
			return err
		}
		return tx.WebhookDelivery.Update().
			Where(webhookdelivery.SubscriptionID(id),
				webhookdelivery.StatusIn(webhookdelivery.StatusPending, webhookdelivery.StatusRetrying)).
			SetStatus(webhookdelivery.StatusDisabled).ClearNextAttemptAt().Exec(ctx)
	})
}

// truncate cuts s to at most n bytes at a rune boundary (ent's MaxLen counts bytes).
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

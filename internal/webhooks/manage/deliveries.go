package manage

import (
	"context"
	"net/http"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/webhookattempt"
	"github.com/venueplatform/venue/ent/webhookdelivery"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/webhooks/dispatch"
)

// PingType is the event type of a ping: sent to one subscription on request, never
// selectable.
const PingType = "webhook.ping"

// maxAttemptsListed bounds an attempt list (a delivery makes at most retry.Default's).
const maxAttemptsListed = 100

// DeliveryFilter narrows a delivery history.
type DeliveryFilter struct {
	Status    string
	EventType string
	Limit     int
	After     string
}

// Deliveries returns one page of a subscription's deliveries, newest first.
func (s *Service) Deliveries(ctx context.Context, signer *pagination.Signer, id uuid.UUID, f DeliveryFilter) ([]*ent.WebhookDelivery, pagination.CursorMeta, error) {
	if _, err := authorize(ctx); err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	if _, err := s.get(ctx, s.client, id); err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	list := "webhooks.deliveries:" + id.String()
	var k pagination.TimeID
	has, err := signer.After(list, f.After, &k)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	q := s.client.WebhookDelivery.Query().Where(webhookdelivery.SubscriptionID(id)).
		Order(ent.Desc(webhookdelivery.FieldCreatedAt), ent.Desc(webhookdelivery.FieldID)).Limit(f.Limit + 1)
	if f.Status != "" {
		q.Where(webhookdelivery.StatusEQ(webhookdelivery.Status(f.Status)))
	}
	if f.EventType != "" {
		q.Where(webhookdelivery.EventType(f.EventType))
	}
	if has {
		q.Where(webhookdelivery.Or(webhookdelivery.CreatedAtLT(k.At),
			webhookdelivery.And(webhookdelivery.CreatedAt(k.At), webhookdelivery.IDLT(k.ID))))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	return pagination.Next(signer, list, rows, f.Limit, func(d *ent.WebhookDelivery) any {
		return pagination.TimeID{At: d.CreatedAt, ID: d.ID}
	})
}

// delivery returns a delivery of the subscription id.
func (s *Service) delivery(ctx context.Context, c *ent.Client, id, deliveryID uuid.UUID) (*ent.WebhookDelivery, error) {
	d, err := c.WebhookDelivery.Query().
		Where(webhookdelivery.ID(deliveryID), webhookdelivery.SubscriptionID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("webhook delivery")
	}
	return d, err
}

// Attempts returns a delivery's attempts in order.
func (s *Service) Attempts(ctx context.Context, id, deliveryID uuid.UUID) ([]*ent.WebhookAttempt, error) {
	if _, err := authorize(ctx); err != nil {
		return nil, err
	}
	if _, err := s.delivery(ctx, s.client, id, deliveryID); err != nil {
		return nil, err
	}
	return s.client.WebhookAttempt.Query().Where(webhookattempt.DeliveryID(deliveryID)).
		Order(ent.Asc(webhookattempt.FieldNumber), ent.Asc(webhookattempt.FieldStartedAt)).
		Limit(maxAttemptsListed).All(ctx)
}

func disabledErr() error {
	return &apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeDisabled,
		Message: "the webhook subscription is disabled; enable it first"}
}

// Replay starts a new delivery of a delivery's event to its subscription, with the same
// message id, and its job, in one transaction.
func (s *Service) Replay(ctx context.Context, id, deliveryID uuid.UUID) (*ent.WebhookDelivery, error) {
	if _, err := authorize(ctx); err != nil {
		return nil, err
	}
	var out *ent.WebhookDelivery
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		sub, err := s.get(ctx, tx.Client(), id)
		if err != nil {
			return err
		}
		orig, err := s.delivery(ctx, tx.Client(), id, deliveryID)
		if err != nil {
			return err
		}
		if !sub.Enabled {
			return disabledErr()
		}
		out, err = tx.WebhookDelivery.Create().SetSubscriptionID(id).SetEventID(orig.EventID).
			SetEventType(orig.EventType).SetMessageID(orig.MessageID).SetReplayOf(orig.ID).Save(ctx)
		if err != nil {
			return err
		}
		if err := events.EnqueueJobs(ctx, river.InsertManyParams{Args: dispatch.DeliverArgs{DeliveryID: out.ID}}); err != nil {
			return err
		}
		return s.audit(ctx, tx, "webhook.replay", sub, map[string]any{
			"delivery_id": orig.ID.String(), "replay_id": out.ID.String(), "message_id": orig.MessageID})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Ping records a webhook.ping event and delivers it to the subscription only.
func (s *Service) Ping(ctx context.Context, id uuid.UUID) (*ent.WebhookDelivery, error) {
	if _, err := authorize(ctx); err != nil {
		return nil, err
	}
	var out *ent.WebhookDelivery
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		sub, err := s.get(ctx, tx.Client(), id)
		if err != nil {
			return err
		}
		if !sub.Enabled {
			return disabledErr()
		}
		ev, err := tx.Event.Create().SetType(PingType).
			SetPayload(map[string]any{"subscription_id": id.String()}).Save(ctx)
		if err != nil {
			return err
		}
		out, err = tx.WebhookDelivery.Create().SetSubscriptionID(id).SetEventID(ev.ID).
			SetEventType(PingType).SetMessageID(events.MessageID(ev.ID)).Save(ctx)
		if err != nil {
			return err
		}
		return events.EnqueueJobs(ctx, river.InsertManyParams{Args: dispatch.DeliverArgs{DeliveryID: out.ID}})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

package handlers

import (
	"context"

	"github.com/venueplatform/venue/ent"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/gen/apient"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/webhooks/manage"
)

// ListWebhookDeliveries implements listWebhookDeliveries.
func (h *Handler) ListWebhookDeliveries(ctx context.Context, p api.ListWebhookDeliveriesParams) (*api.WebhookDeliveryListResponse, error) {
	limit, err := pagination.CursorLists.ParseLimit(pagination.Value(p.Limit.Value, p.Limit.Set))
	if err != nil {
		return nil, err
	}
	signer, err := h.webhookCursorSigner()
	if err != nil {
		return nil, err
	}
	rows, meta, err := h.webhooks().Deliveries(ctx, signer, p.ID, manage.DeliveryFilter{
		Status: string(p.Status.Value), EventType: p.EventType.Value, Limit: limit, After: p.After.Value,
	})
	if err != nil {
		return nil, err
	}
	out := &api.WebhookDeliveryListResponse{Data: make([]api.WebhookDelivery, 0, len(rows)),
		Meta: api.WebhookDeliveryListMeta{Limit: meta.Limit, HasMore: meta.HasMore, NextCursor: webhookNilString(meta.NextCursor)}}
	for _, d := range rows {
		out.Data = append(out.Data, webhookDelivery(d))
	}
	return out, nil
}

// ListWebhookDeliveryAttempts implements listWebhookDeliveryAttempts.
func (h *Handler) ListWebhookDeliveryAttempts(ctx context.Context, p api.ListWebhookDeliveryAttemptsParams) (*api.WebhookAttemptListResponse, error) {
	atts, err := h.webhooks().Attempts(ctx, p.ID, p.DeliveryID)
	if err != nil {
		return nil, err
	}
	return &api.WebhookAttemptListResponse{Data: apient.Map(atts, apient.WebhookAttempt),
		Meta: api.WebhookSubscriptionListMeta{Total: len(atts)}}, nil
}

// ReplayWebhookDelivery implements replayWebhookDelivery.
func (h *Handler) ReplayWebhookDelivery(ctx context.Context, p api.ReplayWebhookDeliveryParams) (*api.WebhookDeliveryResponse, error) {
	return webhookDeliveryResponse(h.webhooks().Replay(ctx, p.ID, p.DeliveryID))
}

// PingWebhookSubscription implements pingWebhookSubscription.
func (h *Handler) PingWebhookSubscription(ctx context.Context, p api.PingWebhookSubscriptionParams) (*api.WebhookDeliveryResponse, error) {
	return webhookDeliveryResponse(h.webhooks().Ping(ctx, p.ID))
}

func webhookDeliveryResponse(d *ent.WebhookDelivery, err error) (*api.WebhookDeliveryResponse, error) {
	if err != nil {
		return nil, err
	}
	return &api.WebhookDeliveryResponse{Data: webhookDelivery(d)}, nil
}

func webhookDelivery(d *ent.WebhookDelivery) api.WebhookDelivery {
	out := api.WebhookDelivery{
		ID: d.ID, SubscriptionID: d.SubscriptionID, EventID: d.EventID, EventType: d.EventType,
		MessageID: d.MessageID, Status: api.WebhookDeliveryStatus(d.Status), Attempts: d.Attempts,
		NextAttemptAt: nilTime(d.NextAttemptAt), LastStatusCode: webhookNilInt(d.LastStatusCode),
		DeliveredAt: nilTime(d.DeliveredAt), ReplayOf: api.NilUUID{Null: true}, CreatedAt: d.CreatedAt.UTC(),
	}
	if d.ReplayOf != nil {
		out.ReplayOf = api.NewNilUUID(*d.ReplayOf)
	}
	return out
}

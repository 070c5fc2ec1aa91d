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
		out.Data = append(out.Data, apient.WebhookDelivery(d))
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
	return &api.WebhookDeliveryResponse{Data: apient.WebhookDelivery(d)}, nil
}

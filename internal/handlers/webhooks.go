package handlers

import (
	"context"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/gen/apient"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/webhooks/manage"
)

// Webhook subscriptions (/admin/webhooks): thin mappings onto package manage, which checks
// the caller (a staff session with settings.business) and does the work.

func (h *Handler) webhooks() *manage.Service {
	return manage.New(h.client, h.set.WebhookSender, h.set.SecretBox)
}

// ListWebhookSubscriptions implements listWebhookSubscriptions.
func (h *Handler) ListWebhookSubscriptions(ctx context.Context) (*api.WebhookSubscriptionListResponse, error) {
	subs, err := h.webhooks().List(ctx)
	if err != nil {
		return nil, err
	}
	out := &api.WebhookSubscriptionListResponse{Data: make([]api.WebhookSubscription, 0, len(subs)),
		Meta: api.WebhookSubscriptionListMeta{Total: len(subs)}}
	for _, s := range subs {
		out.Data = append(out.Data, apient.WebhookSubscription(s))
	}
	return out, nil
}

// CreateWebhookSubscription implements createWebhookSubscription.
func (h *Handler) CreateWebhookSubscription(ctx context.Context, req *api.WebhookCreateRequest, _ api.CreateWebhookSubscriptionParams) (*api.WebhookSecretResponse, error) {
	sub, secret, err := h.webhooks().Create(ctx, manage.CreateParams{
		URL: req.URL, EventTypes: req.EventTypes, Description: req.Description.Value,
	})
	if err != nil {
		return nil, err
	}
	return &api.WebhookSecretResponse{Data: api.WebhookSecretIssued{Subscription: apient.WebhookSubscription(sub), Secret: secret}}, nil
}

// GetWebhookSubscription implements getWebhookSubscription.
func (h *Handler) GetWebhookSubscription(ctx context.Context, p api.GetWebhookSubscriptionParams) (*api.WebhookSubscriptionResponse, error) {
	return webhookSubscriptionResponse(h.webhooks().Get(ctx, p.ID))
}

// UpdateWebhookSubscription implements updateWebhookSubscription.
func (h *Handler) UpdateWebhookSubscription(ctx context.Context, req *api.WebhookUpdateRequest, p api.UpdateWebhookSubscriptionParams) (*api.WebhookSubscriptionResponse, error) {
	up := manage.UpdateParams{EventTypes: req.EventTypes}
	if req.URL.Set {
		up.URL = &req.URL.Value
	}
	if req.Description.Set {
		up.Description = &req.Description.Value
	}
	if req.Enabled.Set {
		up.Enabled = &req.Enabled.Value
	}
	return webhookSubscriptionResponse(h.webhooks().Update(ctx, p.ID, up))
}

// RotateWebhookSecret implements rotateWebhookSecret.
func (h *Handler) RotateWebhookSecret(ctx context.Context, req api.OptWebhookRotateRequest, p api.RotateWebhookSecretParams) (*api.WebhookSecretResponse, error) {
	overlap := manage.DefaultOverlap
	if req.Set && req.Value.OverlapMinutes.Set {
		overlap = time.Duration(req.Value.OverlapMinutes.Value) * time.Minute
	}
	sub, secret, err := h.webhooks().Rotate(ctx, p.ID, overlap)
	if err != nil {
		return nil, err
	}
	return &api.WebhookSecretResponse{Data: api.WebhookSecretIssued{Subscription: apient.WebhookSubscription(sub), Secret: secret}}, nil
}

// DisableWebhookSubscription implements disableWebhookSubscription.
func (h *Handler) DisableWebhookSubscription(ctx context.Context, req api.OptWebhookDisableRequest, p api.DisableWebhookSubscriptionParams) (*api.WebhookSubscriptionResponse, error) {
	return webhookSubscriptionResponse(h.webhooks().Disable(ctx, p.ID, req.Value.Reason.Value))
}

func webhookSubscriptionResponse(s *ent.WebhookSubscription, err error) (*api.WebhookSubscriptionResponse, error) {
	if err != nil {
		return nil, err
	}
	return &api.WebhookSubscriptionResponse{Data: apient.WebhookSubscription(s)}, nil
}

func webhookNilString(p *string) api.NilString {
	if p == nil {
		return api.NilString{Null: true}
	}
	return api.NewNilString(*p)
}

// webhookCursorSigner returns the signer or an internal error.
func (h *Handler) webhookCursorSigner() (*pagination.Signer, error) {
	s, err := h.cursorSigner()
	if err != nil {
		return nil, apperr.Internal(err)
	}
	return s, nil
}

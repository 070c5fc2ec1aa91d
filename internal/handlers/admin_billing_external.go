package handlers

import (
	"context"

	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// SetAdminBillingCollection implements api.Handler.
func (h *Handler) SetAdminBillingCollection(ctx context.Context, req *api.BillingCollectionRequest, p api.SetAdminBillingCollectionParams) (*api.BillingCollectionResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	sub, err := h.billing().SetCollection(ctx, p.ID, subscription.Collection(req.Collection), req.Reason.Value)
	if err != nil {
		return nil, err
	}
	return &api.BillingCollectionResponse{Data: api.BillingCollectionResponseData{PassID: sub.PassID, SubscriptionID: sub.ID,
		Collection: api.BillingCollectionResponseDataCollection(sub.Collection)}}, nil
}

// SettleAdminPassExternally implements api.Handler.
func (h *Handler) SettleAdminPassExternally(ctx context.Context, req *api.ExternalSettlementRequest, p api.SettleAdminPassExternallyParams) (*api.InvoiceDetailResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	row, err := h.billing().SettleCycleExternally(ctx, p.ID, string(req.Method), req.Note.Value)
	if err != nil {
		return nil, err
	}
	return &api.InvoiceDetailResponse{Data: h.invoiceDetail(row, h.cardsOn(ctx))}, nil
}

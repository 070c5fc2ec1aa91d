package handlers

import (
	"context"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func lateFeePolicyOf(p *ent.LateFeePolicy) api.LateFeePolicy {
	return api.LateFeePolicy{Currency: p.Currency, AmountMinor: p.AmountMinor, GraceDays: p.GraceDays, UpdatedAt: p.UpdatedAt.UTC()}
}

func pendingLateFeeOf(f *ent.LateFee) api.PendingLateFee {
	return api.PendingLateFee{ID: f.ID, InvoiceID: f.InvoiceID, AmountMinor: f.AmountMinor, Currency: f.Currency,
		Status: api.PendingLateFeeStatus(f.Status), AppliedAt: f.AppliedAt.UTC()}
}

// ListAdminLateFeePolicies implements api.Handler.
func (h *Handler) ListAdminLateFeePolicies(ctx context.Context) (*api.LateFeePolicyListResponse, error) {
	if err := billing.Authorize(ctx, billing.PermBillingManage); err != nil {
		return nil, err
	}
	rows, err := h.billing().LateFeePolicies(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.LateFeePolicy, 0, len(rows))
	for _, r := range rows {
		out = append(out, lateFeePolicyOf(r))
	}
	return &api.LateFeePolicyListResponse{Data: out}, nil
}

// SetAdminLateFeePolicy implements api.Handler.
func (h *Handler) SetAdminLateFeePolicy(ctx context.Context, req *api.LateFeePolicyRequest, p api.SetAdminLateFeePolicyParams) (*api.LateFeePolicyResponse, error) {
	if err := billing.Authorize(ctx, billing.PermBillingManage); err != nil {
		return nil, err
	}
	row, err := h.billing().SetLateFeePolicy(ctx, p.Currency, req.AmountMinor, req.GraceDays)
	if err != nil {
		return nil, err
	}
	return &api.LateFeePolicyResponse{Data: lateFeePolicyOf(row)}, nil
}

// DeleteAdminLateFeePolicy implements api.Handler.
func (h *Handler) DeleteAdminLateFeePolicy(ctx context.Context, p api.DeleteAdminLateFeePolicyParams) (*api.LateFeeDeletedResponse, error) {
	if err := billing.Authorize(ctx, billing.PermBillingManage); err != nil {
		return nil, err
	}
	if err := h.billing().DeleteLateFeePolicy(ctx, p.Currency); err != nil {
		return nil, err
	}
	return &api.LateFeeDeletedResponse{Data: api.LateFeeDeletedResponseData{Currency: p.Currency, Deleted: true}}, nil
}

// WaiveAdminLateFee implements api.Handler.
func (h *Handler) WaiveAdminLateFee(ctx context.Context, req api.OptWaiveLateFeeRequest, p api.WaiveAdminLateFeeParams) (*api.LateFeeResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	fee, err := h.billing().WaiveLateFee(ctx, p.ID, req.Value.Reason.Value)
	if err != nil {
		return nil, err
	}
	return &api.LateFeeResponse{Data: pendingLateFeeOf(fee)}, nil
}

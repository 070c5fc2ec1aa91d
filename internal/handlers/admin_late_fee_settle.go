package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// SettleAdminLateFee implements api.Handler.
func (h *Handler) SettleAdminLateFee(ctx context.Context, p api.SettleAdminLateFeeParams) (*api.LateFeeSettleResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	res, err := h.billing().SettleLateFee(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	out := api.LateFeeSettle{LateFee: pendingLateFeeOf(res.Fee), ChargeStatus: api.LateFeeSettleChargeStatus(res.ChargeStatus),
		PaymentID: nilUUIDOf(res.Fee.PaymentID)}
	return &api.LateFeeSettleResponse{Data: out}, nil
}

package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/notify"
)

// SettleAdminLateFee implements api.Handler. The member is told only when
// the body says notify_client (staff are silent by default), which needs
// notifications.send; the wish is kept with the charge, and the receipt
// follows the fee paid, now or when a processing charge settles later.
func (h *Handler) SettleAdminLateFee(ctx context.Context, req api.OptLateFeeSettleRequest, p api.SettleAdminLateFeeParams) (*api.LateFeeSettleResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	tell := req.Set && req.Value.NotifyClient.Or(false)
	if tell {
		if err := notify.Authorize(ctx); err != nil {
			return nil, err
		}
	}
	res, err := h.billing().SettleLateFee(ctx, p.ID, billing.SettleLateFeeRequest{Key: p.IdempotencyKey, Notify: tell})
	if err != nil {
		return nil, err
	}
	out := api.LateFeeSettle{LateFee: pendingLateFeeOf(res.Fee), ChargeStatus: api.LateFeeSettleChargeStatus(res.ChargeStatus),
		PaymentID: nilUUIDOf(res.Fee.PaymentID)}
	return &api.LateFeeSettleResponse{Data: out}, nil
}

package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/notify"
)

// SettleAdminLateFee implements api.Handler. The member is told only when
// the body says notify_client (staff are silent by default), which needs
// notifications.send; the receipt follows a paid fee, not a processing one.
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
	if tell && res.ChargeStatus == billing.SettleLateFeePaid {
		// The fee is paid and committed: a failed notice is logged, not
		// answered as a failure of the settle (the key would replay it).
		if _, err := h.billing().TellLateFeeSettled(ctx, res.Fee.ID, p.IdempotencyKey); err != nil {
			h.log.ErrorContext(ctx, "late fee receipt not queued", "late_fee_id", res.Fee.ID, "error", err)
		}
	}
	out := api.LateFeeSettle{LateFee: pendingLateFeeOf(res.Fee), ChargeStatus: api.LateFeeSettleChargeStatus(res.ChargeStatus),
		PaymentID: nilUUIDOf(res.Fee.PaymentID)}
	return &api.LateFeeSettleResponse{Data: out}, nil
}

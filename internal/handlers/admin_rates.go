package handlers

import (
	"context"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
)

func rateLockOf(lk *ent.RateLock) api.AdminRateLock {
	return api.AdminRateLock{ID: lk.ID, PassID: lk.PassID, Amount: money.ToMajor(lk.AmountMinor, lk.Currency),
		AmountMinor: lk.AmountMinor, BaseAmountMinor: lk.BaseAmountMinor, Currency: lk.Currency, LockedUntil: lk.LockedUntil,
		Reason: lk.Reason, Status: api.AdminRateLockStatus(lk.Status), Applied: lk.Applied, CreatedAt: lk.CreatedAt.UTC(),
		EndedAt: nilTimeOf(lk.EndedAt)}
}

// SetAdminRateLock implements api.Handler.
func (h *Handler) SetAdminRateLock(ctx context.Context, req *api.AdminRateLockRequest, _ api.SetAdminRateLockParams) (*api.AdminRateLockResponse, error) {
	if err := billing.AuthorizeOrKey(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	p := billing.RateLockParams{PassID: req.PassID, Amount: req.Amount, LockedUntil: req.LockedUntil, Reason: req.Reason,
		Notify: req.Notify.Value}
	if p.Notify {
		// Telling a client takes a staff session allowed to send (never an API key).
		if err := billing.Authorize(ctx, notify.PermissionSend); err != nil {
			return nil, err
		}
		for _, ch := range req.Channels {
			p.Channels = append(p.Channels, string(ch))
		}
	}
	lk, err := h.billing().SetRateLock(ctx, p)
	if err != nil {
		return nil, err
	}
	return &api.AdminRateLockResponse{Data: rateLockOf(lk)}, nil
}

// RemoveAdminRateLock implements api.Handler.
func (h *Handler) RemoveAdminRateLock(ctx context.Context, p api.RemoveAdminRateLockParams) (*api.AdminRateLockResponse, error) {
	if err := billing.AuthorizeOrKey(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	lk, err := h.billing().RemoveRateLock(ctx, p.PassId)
	if err != nil {
		return nil, err
	}
	return &api.AdminRateLockResponse{Data: rateLockOf(lk)}, nil
}

// GetAdminRateContext implements api.Handler.
func (h *Handler) GetAdminRateContext(ctx context.Context, p api.GetAdminRateContextParams) (*api.AdminRateContextResponse, error) {
	if err := billing.AuthorizeOrKey(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	rc, err := h.billing().PassRateContext(ctx, p.PassId)
	if err != nil {
		return nil, err
	}
	out := api.AdminRateContextResponseData{PassID: p.PassId}
	out.Context.SetToNull()
	if rc != nil {
		c := api.AdminRateContext{}
		c.RateLock.SetToNull()
		c.LoyaltyPrice.SetToNull()
		if rc.RateLock != nil {
			c.RateLock.SetTo(rateLockOf(rc.RateLock))
		}
		if rc.LoyaltyPrice != nil {
			c.LoyaltyPrice.SetTo(loyaltyPriceOf(rc.LoyaltyPrice))
		}
		out.Context.SetTo(c)
	}
	return &api.AdminRateContextResponse{Data: out}, nil
}

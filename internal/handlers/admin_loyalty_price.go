package handlers

import (
	"context"
	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
)

func loyaltyPriceOf(g *ent.LoyaltyPrice) api.AdminLoyaltyPrice {
	return api.AdminLoyaltyPrice{ID: g.ID, UserID: g.UserID, MemberID: g.MemberID, PassTypeID: g.PassTypeID,
		PassID: nilUUIDOf(g.PassID), Amount: money.ToMajor(g.AmountMinor, g.Currency), AmountMinor: g.AmountMinor,
		Currency: g.Currency, Reason: g.Reason, Status: api.AdminLoyaltyPriceStatus(g.Status), CreatedAt: g.CreatedAt.UTC(),
		RevokedAt: nilTimeOf(g.RevokedAt)}
}

// GrantAdminLoyaltyPrice implements api.Handler. The key's form (a UUID,
// else 400 IDEMPOTENCY_KEY_INVALID) is the idempotency policy's
// (internal/server/billing_loyalty.go), as for the revoke.
func (h *Handler) GrantAdminLoyaltyPrice(ctx context.Context, req *api.AdminLoyaltyPriceGrantRequest, p api.GrantAdminLoyaltyPriceParams) (*api.AdminLoyaltyPriceResponse, error) {
	if err := billing.AuthorizeOrKey(ctx, billing.PermLoyaltyPriceGrant); err != nil {
		return nil, err
	}
	in := billing.LoyaltyGrantParams{UserID: req.UserID, PassTypeID: req.PassTypeID, PassID: optUUID(req.PassID), Reason: req.Reason}
	if v, ok := req.Amount.Get(); ok {
		in.Amount = &v
	}
	if v, ok := req.AmountMinor.Get(); ok {
		in.AmountMinor = &v
	}
	g, err := h.billing().GrantLoyaltyPrice(ctx, in)
	if err != nil {
		return nil, err
	}
	return &api.AdminLoyaltyPriceResponse{Data: loyaltyPriceOf(g)}, nil
}

// RevokeAdminLoyaltyPrice implements api.Handler.
func (h *Handler) RevokeAdminLoyaltyPrice(ctx context.Context, req *api.AdminLoyaltyPriceRevokeRequest, p api.RevokeAdminLoyaltyPriceParams) (*api.AdminLoyaltyPriceListResponse, error) {
	if err := billing.AuthorizeOrKey(ctx, billing.PermLoyaltyPriceGrant); err != nil {
		return nil, err
	}
	gs, err := h.billing().RevokeLoyaltyPrice(ctx, billing.LoyaltyRevokeParams{UserID: req.UserID, PassID: optUUID(req.PassID), Reason: req.Reason})
	if err != nil {
		return nil, err
	}
	out := make([]api.AdminLoyaltyPrice, 0, len(gs))
	for _, g := range gs {
		out = append(out, loyaltyPriceOf(g))
	}
	return &api.AdminLoyaltyPriceListResponse{Data: out}, nil
}

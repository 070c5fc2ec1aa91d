package handlers

import (
	"context"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// RedeemPosPartnerCode implements api.Handler.
func (h *Handler) RedeemPosPartnerCode(ctx context.Context, req *api.PosPartnerCodeRedeemRequest, _ api.RedeemPosPartnerCodeParams) (*api.PosPartnerCodeRedemptionResponse, error) {
	r, err := h.pos().RedeemPartnerCode(ctx, req.MemberID, req.Code, req.Reason)
	if err != nil {
		return nil, err
	}
	out := api.PosPartnerCodeRedemption{Outcome: api.PosPartnerCodeRedemptionOutcome(r.Outcome), CodeLabel: r.CodeLabel,
		PassTypeIds: r.PassTypeIDs}
	out.PassID.SetToNull()
	if r.PassID != nil {
		out.PassID.SetTo(*r.PassID)
	}
	return &api.PosPartnerCodeRedemptionResponse{Data: out}, nil
}

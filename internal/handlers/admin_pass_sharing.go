package handlers

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// The contract's "share" capability is passes.manage.

func passShareOf(r *ent.PassShare, users map[uuid.UUID]uuid.UUID) api.AdminPassShare {
	out := api.AdminPassShare{ID: r.ID, PassID: r.PassID, Status: api.AdminPassShareStatus(r.Status), CreatedAt: r.CreatedAt.UTC(),
		Email: nilStringPtr(r.Email), ClaimedAt: nilTimeOf(r.ClaimedAt), EndedAt: nilTimeOf(r.EndedAt)}
	out.RecipientMemberID.SetToNull()
	out.RecipientUserID.SetToNull()
	if r.MemberID != nil {
		out.RecipientMemberID.SetTo(*r.MemberID)
		if uid, ok := users[*r.MemberID]; ok {
			out.RecipientUserID.SetTo(uid)
		}
	}
	out.MonthlyCap.SetToNull()
	if r.MonthlyCap != nil {
		out.MonthlyCap.SetTo(*r.MonthlyCap)
	}
	return out
}

// passShareResponse presents one share, with its recipient's user id.
func (h *Handler) passShareResponse(ctx context.Context, r *ent.PassShare) (*api.AdminPassShareResponse, error) {
	users := map[uuid.UUID]uuid.UUID{}
	if r.MemberID != nil {
		all, err := h.billing().PassShares(ctx, r.PassID)
		if err != nil {
			return nil, err
		}
		users = all.Recipient
	}
	return &api.AdminPassShareResponse{Data: passShareOf(r, users)}, nil
}

// GetAdminPassShares implements api.Handler.
func (h *Handler) GetAdminPassShares(ctx context.Context, p api.GetAdminPassSharesParams) (*api.AdminPassSharesResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	sh, err := h.billing().PassShares(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	out := api.AdminPassSharesResponseData{PassID: sh.Pass.ID, OwnerMemberID: sh.Pass.MemberID, ShareSlots: sh.Slots, UsedSlots: sh.Used,
		Shares: make([]api.AdminPassShare, 0, len(sh.Shares)), Invites: make([]api.AdminPassShare, 0, len(sh.Invites))}
	for _, r := range sh.Shares {
		out.Shares = append(out.Shares, passShareOf(r, sh.Recipient))
	}
	for _, r := range sh.Invites {
		out.Invites = append(out.Invites, passShareOf(r, sh.Recipient))
	}
	return &api.AdminPassSharesResponse{Data: out}, nil
}

// AddAdminPassShare implements api.Handler.
func (h *Handler) AddAdminPassShare(ctx context.Context, req *api.AdminPassShareRequest, p api.AddAdminPassShareParams) (*api.AdminPassShareResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	sp := billing.ShareParams{PassID: p.ID, Email: req.Email.Value, Notify: req.Notify.Value}
	if v, ok := req.RecipientUserID.Get(); ok {
		sp.RecipientUserID = &v
	}
	if v, ok := req.MonthlyCap.Get(); ok {
		sp.MonthlyCap = &v
	}
	r, err := h.billing().AddPassShare(ctx, sp)
	if err != nil {
		return nil, err
	}
	return h.passShareResponse(ctx, r)
}

// RevokeAdminPassShare implements api.Handler.
func (h *Handler) RevokeAdminPassShare(ctx context.Context, p api.RevokeAdminPassShareParams) (*api.AdminPassShareResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	r, err := h.billing().RevokePassShare(ctx, p.ID, p.ShareId)
	if err != nil {
		return nil, err
	}
	return &api.AdminPassShareResponse{Data: passShareOf(r, nil)}, nil
}

// CancelAdminPassShareInvite implements api.Handler.
func (h *Handler) CancelAdminPassShareInvite(ctx context.Context, p api.CancelAdminPassShareInviteParams) (*api.AdminPassShareResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	r, err := h.billing().CancelPassInvite(ctx, p.ID, p.InviteId)
	if err != nil {
		return nil, err
	}
	return &api.AdminPassShareResponse{Data: passShareOf(r, nil)}, nil
}

// SetAdminPassTypeShareSlots implements api.Handler.
func (h *Handler) SetAdminPassTypeShareSlots(ctx context.Context, req *api.AdminShareSlotsRequest, p api.SetAdminPassTypeShareSlotsParams) (*api.AdminShareSlotsResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	pt, err := h.billing().SetShareSlots(ctx, p.PassTypeId, req.ShareSlots)
	if err != nil {
		return nil, err
	}
	return &api.AdminShareSlotsResponse{Data: api.AdminShareSlotsResponseData{PassTypeID: pt.ID, ShareSlots: pt.ShareSlots}}, nil
}

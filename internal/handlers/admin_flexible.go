package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
)

// GetAdminFlexibleAllowance implements api.Handler.
func (h *Handler) GetAdminFlexibleAllowance(ctx context.Context, p api.GetAdminFlexibleAllowanceParams) (*api.AdminFlexibleAllowanceResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	a, err := h.billing().FlexibleAllowance(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	out := api.AdminFlexibleAllowance{PassID: a.Pass.ID, PassTypeID: a.PassType.ID, MemberID: a.Pass.MemberID,
		Status: string(a.Pass.Status), Selection: selectionOut(a.Selection), PeriodPriceMinor: a.PriceMinor,
		Currency: a.Currency, UsedThisPeriod: a.Used, Renewals: []api.FlexibleRenewal{}}
	out.PeriodStart.SetToNull()
	out.PeriodEnd.SetToNull()
	if a.PeriodStart != nil {
		out.PeriodStart.SetTo(*a.PeriodStart)
		out.PeriodEnd.SetTo(*a.PeriodEnd)
	}
	out.RemainingThisPeriod.SetToNull()
	if a.Remaining != nil {
		out.RemainingThisPeriod.SetTo(*a.Remaining)
	}
	out.RenewalAmountMinor.SetToNull()
	if a.RenewalAmountMinor != nil {
		out.RenewalAmountMinor.SetTo(*a.RenewalAmountMinor)
	}
	out.NextChange.SetToNull()
	if a.NextChange != nil {
		out.NextChange.SetTo(scheduledOut(a.NextChange))
	}
	for _, r := range a.Renewals {
		out.Renewals = append(out.Renewals, api.FlexibleRenewal{Renewal: r.N, Date: r.Date})
	}
	return &api.AdminFlexibleAllowanceResponse{Data: out}, nil
}

// ChangeAdminFlexible implements api.Handler.
func (h *Handler) ChangeAdminFlexible(ctx context.Context, req *api.AdminFlexibleChangeRequest, p api.ChangeAdminFlexibleParams) (*api.FlexibleChangeResponse, error) {
	q, hasQ := req.Quantity.Get()
	sel, err := payments.SelectionIn(string(req.Kind), q, hasQ)
	if err != nil {
		return nil, err
	}
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	ch, err := h.billing().ChangeFlexible(ctx, p.ID, sel, req.Renewal, req.Reason.Or(""))
	if err != nil {
		return nil, err
	}
	return &api.FlexibleChangeResponse{Data: changeOut(ch)}, nil
}

// PreviewAdminMoveToFlexible implements api.Handler.
func (h *Handler) PreviewAdminMoveToFlexible(ctx context.Context, p api.PreviewAdminMoveToFlexibleParams) (*api.AdminFlexibleMoveResponse, error) {
	q, hasQ := p.Quantity.Get()
	sel, err := payments.SelectionIn(string(p.Kind), q, hasQ)
	if err != nil {
		return nil, err
	}
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	mv, err := h.billing().PreviewMoveToFlexible(ctx, p.ID, p.PassTypeID, sel, p.Renewal)
	if err != nil {
		return nil, err
	}
	return &api.AdminFlexibleMoveResponse{Data: moveOut(mv)}, nil
}

// ScheduleAdminMoveToFlexible implements api.Handler.
func (h *Handler) ScheduleAdminMoveToFlexible(ctx context.Context, req *api.AdminFlexibleMoveRequest, p api.ScheduleAdminMoveToFlexibleParams) (*api.AdminFlexibleMoveResponse, error) {
	q, hasQ := req.Quantity.Get()
	sel, err := payments.SelectionIn(string(req.Kind), q, hasQ)
	if err != nil {
		return nil, err
	}
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	mv, err := h.billing().MoveToFlexible(ctx, p.ID, req.PassTypeID, sel, req.Renewal, req.Reason.Or(""))
	if err != nil {
		return nil, err
	}
	return &api.AdminFlexibleMoveResponse{Data: moveOut(mv)}, nil
}

func moveOut(mv *billing.FlexMove) api.AdminFlexibleMove {
	out := api.AdminFlexibleMove{PassID: mv.Pass.ID, FromPassTypeID: mv.From.ID, ToPassTypeID: mv.To.ID,
		Selection: selectionOut(mv.Selection), FromPriceMinor: mv.FromPrice, ToPriceMinor: mv.ToPrice,
		Currency: mv.Currency, Renewal: mv.Renewal, EffectiveOn: mv.EffectiveOn}
	out.NewPassID.SetToNull()
	if mv.NewPass != nil {
		out.NewPassID.SetTo(mv.NewPass.ID)
	}
	return out
}

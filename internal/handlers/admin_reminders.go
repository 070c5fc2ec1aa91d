package handlers

import (
	"context"
	"time"

	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func reminderPreviewOf(pv *billing.ReminderPreview) api.ReminderPreviewResponseData {
	out := api.ReminderPreviewResponseData{DaysBefore: pv.DaysBefore, PreviewHash: pv.Hash, AffectedCount: len(pv.Upcoming),
		Upcoming: make([]api.UpcomingRenewalReminder, 0, len(pv.Upcoming))}
	for _, u := range pv.Upcoming {
		charge, _ := time.Parse(time.DateOnly, u.ChargeDate)
		row := api.UpcomingRenewalReminder{SubscriptionID: u.SubscriptionID, PassID: u.PassID, MemberID: u.MemberID,
			ChargeDate: charge, AmountMinor: u.AmountMinor, Currency: u.Currency, RemindOn: make([]time.Time, 0, len(u.RemindOn))}
		for _, d := range u.RemindOn {
			on, _ := time.Parse(time.DateOnly, d)
			row.RemindOn = append(row.RemindOn, on)
		}
		out.Upcoming = append(out.Upcoming, row)
	}
	return out
}

// GetAdminReminderPolicy implements api.Handler.
func (h *Handler) GetAdminReminderPolicy(ctx context.Context) (*api.ReminderPolicyResponse, error) {
	if err := billing.AuthorizeReminders(ctx); err != nil {
		return nil, err
	}
	pol, err := h.billing().ReminderPolicy(ctx)
	if err != nil {
		return nil, err
	}
	out := &api.ReminderPolicyResponse{}
	out.Data.SetToNull()
	if pol != nil {
		out.Data.SetTo(api.ReminderPolicyResponseData{DaysBefore: pol.DaysBefore, UpdatedAt: pol.UpdatedAt.UTC()})
	}
	return out, nil
}

// PreviewAdminReminderPolicy implements api.Handler.
func (h *Handler) PreviewAdminReminderPolicy(ctx context.Context, req *api.ReminderPolicyRequest) (*api.ReminderPreviewResponse, error) {
	if err := billing.AuthorizeReminders(ctx); err != nil {
		return nil, err
	}
	pv, err := h.billing().PreviewReminders(ctx, req.DaysBefore)
	if err != nil {
		return nil, err
	}
	return &api.ReminderPreviewResponse{Data: reminderPreviewOf(pv)}, nil
}

// ApplyAdminReminderPolicy implements api.Handler.
func (h *Handler) ApplyAdminReminderPolicy(ctx context.Context, req *api.ReminderApplyRequest, _ api.ApplyAdminReminderPolicyParams) (*api.ReminderPreviewResponse, error) {
	if err := billing.AuthorizeReminders(ctx); err != nil {
		return nil, err
	}
	_, pv, err := h.billing().ApplyReminders(ctx, req.DaysBefore, req.PreviewHash)
	if err != nil {
		return nil, err
	}
	return &api.ReminderPreviewResponse{Data: reminderPreviewOf(pv)}, nil
}

package handlers

import (
	"context"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// Payment overrides of a membership's upcoming billing periods (package
// billing, overrides.go): staff with billing.manage.

func dateOnly(s string) time.Time {
	d, _ := time.Parse(time.DateOnly, s)
	return d
}

func overrideOut(v billing.OverrideView) api.AdminPaymentOverride {
	o := v.Row
	out := api.AdminPaymentOverride{ID: o.ID, PassID: o.PassID, PeriodStart: dateOnly(v.Start), PeriodEnd: dateOnly(v.End),
		AmountMinor: o.AmountMinor, Currency: v.Currency, Reason: o.Reason,
		Status: api.AdminPaymentOverrideStatus(o.Status), InvoiceID: nilUUIDOf(o.InvoiceID), ProcessorSynced: v.ProcessorSynced}
	return out
}

func (h *Handler) overridesOut(ctx context.Context, svc *billing.Service, rows []*ent.PaymentOverride) (*api.AdminPaymentOverrideListResponse, error) {
	views, err := svc.Views(ctx, rows)
	if err != nil {
		return nil, err
	}
	out := &api.AdminPaymentOverrideListResponse{Data: make([]api.AdminPaymentOverride, 0, len(views))}
	for _, v := range views {
		out.Data = append(out.Data, overrideOut(v))
	}
	return out, nil
}

// ListAdminPaymentOverrides implements api.Handler.
func (h *Handler) ListAdminPaymentOverrides(ctx context.Context, p api.ListAdminPaymentOverridesParams) (*api.AdminPaymentOverridesResponse, error) {
	if err := billing.Authorize(ctx, billing.PermBillingManage); err != nil {
		return nil, err
	}
	n := 6
	if p.Periods.Set {
		n = p.Periods.Value
	}
	svc := h.billing()
	ov, err := svc.ListOverrides(ctx, p.ID, n)
	if err != nil {
		return nil, err
	}
	views, err := svc.Views(ctx, ov.All)
	if err != nil {
		return nil, err
	}
	byID := map[string]api.AdminPaymentOverride{}
	data := api.AdminPaymentOverridesResponseData{PassID: p.ID, SubscriptionID: ov.Subscription.ID,
		Currency: ov.Subscription.Currency, BaseAmountMinor: ov.Subscription.AmountMinor,
		Periods: make([]api.AdminBillingPeriod, 0, len(ov.Periods)), Overrides: make([]api.AdminPaymentOverride, 0, len(views))}
	for _, v := range views {
		o := overrideOut(v)
		byID[o.ID.String()] = o
		data.Overrides = append(data.Overrides, o)
	}
	for _, per := range ov.Periods {
		item := api.AdminBillingPeriod{Index: per.Index, PeriodStart: dateOnly(per.Date),
			PeriodEnd: dateOnly(per.End.In(ov.Location).Format(time.DateOnly)), BaseAmountMinor: per.BaseAmount,
			AmountMinor: per.Amount, Currency: ov.Subscription.Currency}
		item.Override.SetToNull()
		if per.Override != nil {
			item.Override = api.NewNilAdminPaymentOverride(byID[per.Override.ID.String()])
		}
		data.Periods = append(data.Periods, item)
	}
	return &api.AdminPaymentOverridesResponse{Data: data}, nil
}

func overrideChoice(mode string, dates []time.Time, from, to api.OptDate) billing.OverrideChoice {
	c := billing.OverrideChoice{Mode: mode, Dates: dates}
	if from.Set {
		c.From = from.Value
	}
	if to.Set {
		c.To = to.Value
	}
	return c
}

// CreateAdminPaymentOverrides implements api.Handler.
func (h *Handler) CreateAdminPaymentOverrides(ctx context.Context, req *api.AdminPaymentOverrideCreateRequest, p api.CreateAdminPaymentOverridesParams) (*api.AdminPaymentOverrideListResponse, error) {
	if err := billing.Authorize(ctx, billing.PermBillingManage); err != nil {
		return nil, err
	}
	svc := h.billing()
	rows, err := svc.CreateOverrides(ctx, p.ID, overrideChoice(string(req.Mode), req.PeriodStarts, req.From, req.To),
		req.AmountMinor, req.Reason.Value)
	if err != nil {
		return nil, err
	}
	return h.overridesOut(ctx, svc, rows)
}

// BulkAdminPaymentOverrides implements api.Handler.
func (h *Handler) BulkAdminPaymentOverrides(ctx context.Context, req *api.AdminPaymentOverrideBulkRequest, p api.BulkAdminPaymentOverridesParams) (*api.AdminPaymentOverrideListResponse, error) {
	if err := billing.Authorize(ctx, billing.PermBillingManage); err != nil {
		return nil, err
	}
	if req.Action == api.AdminPaymentOverrideBulkRequestActionSet && !req.AmountMinor.Set {
		return nil, apperr.Validation("amount_minor", "amount_minor is required to set")
	}
	svc := h.billing()
	rows, err := svc.BulkOverrides(ctx, p.ID, string(req.Action), billing.OverrideChoice{Mode: "periods", Dates: req.PeriodStarts},
		req.AmountMinor.Value, req.Reason.Value)
	if err != nil {
		return nil, err
	}
	return h.overridesOut(ctx, svc, rows)
}

// UpdateAdminPaymentOverride implements api.Handler.
func (h *Handler) UpdateAdminPaymentOverride(ctx context.Context, req *api.AdminPaymentOverrideUpdateRequest, p api.UpdateAdminPaymentOverrideParams) (*api.AdminPaymentOverrideResponse, error) {
	if err := billing.Authorize(ctx, billing.PermBillingManage); err != nil {
		return nil, err
	}
	var (
		amount *int64
		reason *string
	)
	if req.AmountMinor.Set {
		amount = &req.AmountMinor.Value
	}
	if req.Reason.Set {
		reason = &req.Reason.Value
	}
	if amount == nil && reason == nil {
		return nil, apperr.Validation("amount_minor", "amount_minor or reason is required")
	}
	svc := h.billing()
	row, err := svc.UpdateOverride(ctx, p.ID, p.OverrideId, amount, reason)
	if err != nil {
		return nil, err
	}
	out, err := h.overridesOut(ctx, svc, []*ent.PaymentOverride{row})
	if err != nil {
		return nil, err
	}
	return &api.AdminPaymentOverrideResponse{Data: out.Data[0]}, nil
}

// DeleteAdminPaymentOverride implements api.Handler.
func (h *Handler) DeleteAdminPaymentOverride(ctx context.Context, p api.DeleteAdminPaymentOverrideParams) (*api.AdminPaymentOverrideDeleteResponse, error) {
	if err := billing.Authorize(ctx, billing.PermBillingManage); err != nil {
		return nil, err
	}
	if err := h.billing().DeleteOverride(ctx, p.ID, p.OverrideId); err != nil {
		return nil, err
	}
	return &api.AdminPaymentOverrideDeleteResponse{Data: api.AdminPaymentOverrideDeleteResponseData{ID: p.OverrideId, Deleted: true}}, nil
}

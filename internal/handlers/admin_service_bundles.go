package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/appointments"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
)

func bundleOut(b appointments.BundleView) api.ServiceBundle {
	out := api.ServiceBundle{ID: b.Bundle.ID, Name: b.Bundle.Name, Description: b.Bundle.Description,
		PriceAmount: money.ToMajor(b.Bundle.PriceMinor, b.Bundle.Currency), PriceMinor: b.Bundle.PriceMinor,
		Currency: b.Bundle.Currency, IsActive: b.Bundle.IsActive, SortOrder: b.Bundle.SortOrder,
		Items:                make([]api.ServiceBundleItem, 0, len(b.Items)),
		TotalDurationMinutes: b.TotalMinutes(), SeparatePriceMinor: b.SeparateMinor(), CreatedAt: b.Bundle.CreatedAt.UTC()}
	for _, it := range b.Items {
		oi := api.ServiceBundleItem{Position: it.Item.Position, ServiceID: it.Item.ServiceID,
			VariantID: api.NilUUID{Null: true}, DurationMinutes: it.Duration, PriceMinor: it.PriceMinor}
		if it.Service != nil {
			oi.ServiceName = it.Service.Name
		}
		if it.Item.VariantID != nil {
			oi.VariantID = api.NewNilUUID(*it.Item.VariantID)
		}
		out.Items = append(out.Items, oi)
	}
	return out
}

// ListServiceBundles implements listServiceBundles.
func (h *Handler) ListServiceBundles(ctx context.Context, p api.ListServiceBundlesParams) (*api.ServiceBundleListResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	list, err := appointments.Bundles(ctx, h.client, p.IncludeInactive.Or(false))
	if err != nil {
		return nil, err
	}
	out := &api.ServiceBundleListResponse{Data: make([]api.ServiceBundle, 0, len(list))}
	for _, b := range list {
		out.Data = append(out.Data, bundleOut(b))
	}
	return out, nil
}

// CreateServiceBundle implements createServiceBundle.
func (h *Handler) CreateServiceBundle(ctx context.Context, req *api.ServiceBundleCreateRequest, _ api.CreateServiceBundleParams) (*api.ServiceBundleResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	p := appointments.NewBundle{Name: req.Name, Description: req.Description.Or(""), PriceAmount: req.PriceAmount,
		SortOrder: req.SortOrder.Or(0)}
	if v, ok := req.IsActive.Get(); ok {
		p.IsActive = &v
	}
	for _, it := range req.Items {
		p.Items = append(p.Items, appointments.VisitItem{ServiceID: it.ServiceID, VariantID: optUUID(it.VariantID)})
	}
	b, err := appointments.CreateBundle(ctx, h.client, p)
	if err != nil {
		return nil, err
	}
	return &api.ServiceBundleResponse{Data: bundleOut(*b)}, nil
}

// UpdateServiceBundle implements updateServiceBundle.
func (h *Handler) UpdateServiceBundle(ctx context.Context, req *api.ServiceBundleUpdateRequest, p api.UpdateServiceBundleParams) (*api.ServiceBundleResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	patch := appointments.BundlePatch{Name: optValue(req.Name), Description: optValue(req.Description),
		PriceAmount: optValue(req.PriceAmount), IsActive: optValue(req.IsActive), SortOrder: optValue(req.SortOrder)}
	if req.Items != nil {
		patch.Items = []appointments.VisitItem{}
		for _, it := range req.Items {
			patch.Items = append(patch.Items, appointments.VisitItem{ServiceID: it.ServiceID, VariantID: optUUID(it.VariantID)})
		}
	}
	b, err := appointments.UpdateBundle(ctx, h.client, p.BundleId, patch)
	if err != nil {
		return nil, err
	}
	return &api.ServiceBundleResponse{Data: bundleOut(*b)}, nil
}

// DeleteServiceBundle implements deleteServiceBundle.
func (h *Handler) DeleteServiceBundle(ctx context.Context, p api.DeleteServiceBundleParams) (*api.AdminOkResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	deactivated, err := appointments.DeleteBundle(ctx, h.client, p.BundleId)
	if err != nil {
		return nil, err
	}
	return &api.AdminOkResponse{Data: api.AdminOk{Ok: true, Deactivated: api.NewOptBool(deactivated)}}, nil
}

// ListAppointmentBundles implements listAppointmentBundles.
func (h *Handler) ListAppointmentBundles(ctx context.Context, p api.ListAppointmentBundlesParams) (*api.ServiceBundleListResponse, error) {
	mctx, _, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	list, err := appointments.Bundles(mctx, h.client, false)
	if err != nil {
		return nil, err
	}
	out := &api.ServiceBundleListResponse{Data: make([]api.ServiceBundle, 0, len(list))}
	for _, b := range list {
		out.Data = append(out.Data, bundleOut(b))
	}
	return out, nil
}

// BookAppointmentBundle implements bookAppointmentBundle.
func (h *Handler) BookAppointmentBundle(ctx context.Context, req *api.BundleVisitCreateRequest, p api.BookAppointmentBundleParams) (*api.VisitResponse, error) {
	mctx, a, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	provider, err := providerParam("provider_id", req.ProviderID.Or(""))
	if err != nil {
		return nil, err
	}
	visit, aps, err := appointments.BookBundle(mctx, h.client, a, appointments.BundleBooking{BundleID: req.BundleID,
		ProviderID: provider, LocationID: optUUID(req.LocationID), Start: req.StartTime,
		ExpectedCurrency:   req.ExpectedCurrency,
		ExpectedTotalMinor: money.ToMinor(req.ExpectedTotalPriceAmount, req.ExpectedCurrency),
		ExpectedDueMinor:   money.ToMinor(req.ExpectedAmountDueAtBooking, req.ExpectedCurrency)}, h.now())
	if err != nil {
		return nil, err
	}
	return &api.VisitResponse{Data: visitOut(visit, aps)}, nil
}

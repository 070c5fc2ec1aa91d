package handlers

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkoutdocument"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/payments"
)

func adminCheckoutDocument(d *ent.CheckoutDocument) api.AdminCheckoutDocument {
	out := api.AdminCheckoutDocument{ID: d.ID, Kind: api.AdminCheckoutDocumentKind(d.Kind), Title: d.Title, Body: d.Body,
		VersionID: d.VersionID, Active: d.Active, PassTypeIds: []uuid.UUID{}, UpdatedAt: d.UpdatedAt.UTC()}
	for _, s := range d.PassTypeIds {
		if id, err := uuid.Parse(s); err == nil {
			out.PassTypeIds = append(out.PassTypeIds, id)
		}
	}
	return out
}

// ListAdminCheckoutDocuments implements api.Handler.
func (h *Handler) ListAdminCheckoutDocuments(ctx context.Context) (*api.AdminCheckoutDocumentListResponse, error) {
	docs, err := payments.NewCheckoutSettings(h.client).Documents(ctx)
	if err != nil {
		return nil, err
	}
	out := &api.AdminCheckoutDocumentListResponse{Data: make([]api.AdminCheckoutDocument, 0, len(docs))}
	for _, d := range docs {
		out.Data = append(out.Data, adminCheckoutDocument(d))
	}
	return out, nil
}

// CreateAdminCheckoutDocument implements api.Handler.
func (h *Handler) CreateAdminCheckoutDocument(ctx context.Context, req *api.AdminCheckoutDocumentCreate, _ api.CreateAdminCheckoutDocumentParams) (*api.AdminCheckoutDocumentResponse, error) {
	d, err := payments.NewCheckoutSettings(h.client).CreateDocument(ctx, payments.CheckoutDocumentParams{
		Kind: checkoutdocument.Kind(req.Kind), Title: req.Title, Body: req.Body, PassTypeIDs: req.PassTypeIds})
	if err != nil {
		return nil, err
	}
	return &api.AdminCheckoutDocumentResponse{Data: adminCheckoutDocument(d)}, nil
}

// CreateAdminCheckoutDocumentVersion implements api.Handler.
func (h *Handler) CreateAdminCheckoutDocumentVersion(ctx context.Context, req *api.AdminCheckoutDocumentVersion, p api.CreateAdminCheckoutDocumentVersionParams) (*api.AdminCheckoutDocumentResponse, error) {
	vp := payments.CheckoutDocumentVersionParams{Body: req.Body}
	if t, ok := req.Title.Get(); ok {
		vp.Title = &t
	}
	d, err := payments.NewCheckoutSettings(h.client).NewVersion(ctx, p.ID, vp)
	if err != nil {
		return nil, err
	}
	return &api.AdminCheckoutDocumentResponse{Data: adminCheckoutDocument(d)}, nil
}

// SetAdminCheckoutDocumentActive implements api.Handler.
func (h *Handler) SetAdminCheckoutDocumentActive(ctx context.Context, req *api.AdminCheckoutDocumentActive, p api.SetAdminCheckoutDocumentActiveParams) (*api.AdminCheckoutDocumentResponse, error) {
	d, err := payments.NewCheckoutSettings(h.client).SetDocumentActive(ctx, p.ID, req.Active)
	if err != nil {
		return nil, err
	}
	return &api.AdminCheckoutDocumentResponse{Data: adminCheckoutDocument(d)}, nil
}

// SetAdminPassTypeBindingTiers implements api.Handler.
func (h *Handler) SetAdminPassTypeBindingTiers(ctx context.Context, req *api.AdminBindingTiers, p api.SetAdminPassTypeBindingTiersParams) (*api.AdminBindingTiersResponse, error) {
	tiers := make([]model.BindingTier, 0, len(req.Tiers))
	for _, t := range req.Tiers {
		tiers = append(tiers, model.BindingTier{Months: t.Months, PriceMinor: t.PriceMinor})
	}
	pt, err := payments.NewCheckoutSettings(h.client).SetBindingTiers(ctx, p.ID, tiers)
	if err != nil {
		return nil, err
	}
	out := &api.AdminBindingTiersResponse{Data: api.AdminBindingTiersResponseData{PassTypeID: pt.ID, Currency: pt.Currency,
		Tiers: make([]api.AdminBindingTier, 0, len(pt.BindingTiers))}}
	for _, t := range pt.BindingTiers {
		out.Data.Tiers = append(out.Data.Tiers, api.AdminBindingTier{Months: t.Months, PriceMinor: t.PriceMinor})
	}
	return out, nil
}

// SetAdminMemberBirthDate implements api.Handler.
func (h *Handler) SetAdminMemberBirthDate(ctx context.Context, req *api.AdminMemberBirthDate, p api.SetAdminMemberBirthDateParams) (*api.AdminMemberBirthDateResponse, error) {
	var born *time.Time
	if d, ok := req.BirthDate.Get(); ok {
		born = &d
	}
	m, err := payments.NewCheckoutSettings(h.client).SetBirthDate(ctx, p.ID, born)
	if err != nil {
		return nil, err
	}
	out := &api.AdminMemberBirthDateResponse{Data: api.AdminMemberBirthDateResponseData{MemberID: m.ID}}
	if m.BirthDate != nil {
		out.Data.BirthDate = api.NewNilDate(*m.BirthDate)
	} else {
		out.Data.BirthDate.SetToNull()
	}
	return out, nil
}

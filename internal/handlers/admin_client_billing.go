package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/billing/fees"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
)

// ListAdminClientPaymentMethods implements api.Handler.
func (h *Handler) ListAdminClientPaymentMethods(ctx context.Context, p api.ListAdminClientPaymentMethodsParams) (*api.PaymentMethodListResponse, error) {
	if err := billing.Authorize(ctx, billing.PermMembersContact); err != nil {
		return nil, err
	}
	cards, err := h.billing().ClientCards(ctx, p.MemberId)
	if err != nil {
		return nil, err
	}
	return &api.PaymentMethodListResponse{Data: cardsOut(cards)}, nil
}

// RemoveAdminClientPaymentMethod implements api.Handler.
func (h *Handler) RemoveAdminClientPaymentMethod(ctx context.Context, p api.RemoveAdminClientPaymentMethodParams) (*api.PaymentMethodListResponse, error) {
	if err := billing.Authorize(ctx, billing.PermMembersContact); err != nil {
		return nil, err
	}
	key, _ := idempotency.Derive(ctx, "removeAdminClientPaymentMethod")
	cards, err := h.billing().RemoveClientCard(ctx, p.MemberId, p.PaymentMethodId, key)
	if err != nil {
		return nil, err
	}
	return &api.PaymentMethodListResponse{Data: cardsOut(cards)}, nil
}

// SetAdminClientDefaultPaymentMethod implements api.Handler.
func (h *Handler) SetAdminClientDefaultPaymentMethod(ctx context.Context, p api.SetAdminClientDefaultPaymentMethodParams) (*api.PaymentMethodListResponse, error) {
	if err := billing.Authorize(ctx, billing.PermMembersContact); err != nil {
		return nil, err
	}
	key, _ := idempotency.Derive(ctx, "setAdminClientDefaultPaymentMethod")
	cards, err := h.billing().SetClientDefaultCard(ctx, p.MemberId, p.PaymentMethodId, key)
	if err != nil {
		return nil, err
	}
	return &api.PaymentMethodListResponse{Data: cardsOut(cards)}, nil
}

// ClearAdminClientDefaultPaymentMethod implements api.Handler.
func (h *Handler) ClearAdminClientDefaultPaymentMethod(ctx context.Context, p api.ClearAdminClientDefaultPaymentMethodParams) (*api.PaymentMethodListResponse, error) {
	if err := billing.Authorize(ctx, billing.PermMembersContact); err != nil {
		return nil, err
	}
	key, _ := idempotency.Derive(ctx, "clearAdminClientDefaultPaymentMethod")
	cards, err := h.billing().ClearClientDefaultCard(ctx, p.MemberId, p.PaymentMethodId, key)
	if err != nil {
		return nil, err
	}
	return &api.PaymentMethodListResponse{Data: cardsOut(cards)}, nil
}

// CreateAdminDeskCharge implements api.Handler.
func (h *Handler) CreateAdminDeskCharge(ctx context.Context, req *api.DeskChargeRequest, p api.CreateAdminDeskChargeParams) (*api.DeskChargeResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPosSell); err != nil {
		return nil, err
	}
	key, _ := idempotency.Derive(ctx, "createAdminDeskCharge")
	res, err := h.billing().DeskCharge(ctx, billing.DeskChargeParams{MemberID: p.MemberId, PaymentMethodID: req.PaymentMethodID,
		AmountMinor: req.AmountMinor, Description: req.Description.Value, SetAsDefault: req.SetAsDefault.Value, RequestKey: key})
	if err != nil {
		return nil, err
	}
	dc := res.Charge
	out := api.DeskCharge{ID: dc.ID, MemberID: dc.MemberID, Status: api.DeskChargeStatus(dc.Status), AmountMinor: dc.AmountMinor,
		VatMinor: dc.VatMinor, Currency: dc.Currency, PaymentMethodID: dc.PaymentMethodID, Description: dc.Description,
		PaymentID: nilUUIDOf(dc.PaymentID), PaymentIntentID: nilStringPtr(dc.PaymentIntentID), DefaultSet: res.DefaultSet}
	if dc.PaidAt != nil {
		out.PaidAt = api.NewNilDateTime(dc.PaidAt.UTC())
	} else {
		out.PaidAt.SetToNull()
	}
	return &api.DeskChargeResponse{Data: out}, nil
}

// CollectAdminFee implements api.Handler.
func (h *Handler) CollectAdminFee(ctx context.Context, req api.OptFeeCollectRequest, p api.CollectAdminFeeParams) (*api.AdminFeeResponse, error) {
	b, err := fees.Collect(ctx, h.payments(), p.BookingId, req.Value.PaymentMethodID.Value)
	if err != nil {
		return nil, err
	}
	return h.feeView(ctx, b)
}

package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/notify"
)

// EmailAdminPaymentReceipts implements api.Handler.
func (h *Handler) EmailAdminPaymentReceipts(ctx context.Context, req *api.ReceiptEmailsRequest, _ api.EmailAdminPaymentReceiptsParams) (*api.ReceiptEmailsResponse, error) {
	for _, perm := range []string{billing.PermMembersContact, billing.PermNotificationSend} {
		if err := billing.Authorize(ctx, perm); err != nil {
			return nil, err
		}
	}
	key, _ := idempotency.Derive(ctx, "emailAdminPaymentReceipts")
	out := api.ReceiptEmails{Items: []api.ReceiptEmailItem{}}
	for _, m := range h.billing().EmailReceipts(ctx, req.PaymentIds, key) {
		item := api.ReceiptEmailItem{PaymentID: m.PaymentID, Outcome: api.ReceiptEmailItemOutcome(m.Outcome)}
		if m.Reason != "" {
			item.Reason = api.NewNilString(m.Reason)
		} else {
			item.Reason.SetToNull()
		}
		switch m.Outcome {
		case billing.ReceiptSent:
			out.Sent++
		case billing.ReceiptDeduped:
			out.Deduped++
		case billing.ReceiptIneligible:
			out.Ineligible++
		default:
			out.Failed++
		}
		out.Items = append(out.Items, item)
	}
	return &api.ReceiptEmailsResponse{Data: out}, nil
}

// CreateAdminProfileUpdateRequest implements api.Handler.
func (h *Handler) CreateAdminProfileUpdateRequest(ctx context.Context, req *api.ProfileUpdateRequestCreate, p api.CreateAdminProfileUpdateRequestParams) (*api.ProfileUpdateRequestResponse, error) {
	if err := billing.Authorize(ctx, billing.PermMembersContact); err != nil {
		return nil, err
	}
	r, err := h.billing().RequestProfileUpdate(ctx, p.MemberId, string(req.Field), notify.Channel(req.Channel))
	if err != nil {
		return nil, err
	}
	return &api.ProfileUpdateRequestResponse{Data: api.ProfileUpdateRequest{MemberID: r.MemberID,
		Field: api.ProfileUpdateRequestField(r.Field), Channel: api.ProfileUpdateRequestChannel(r.Channel),
		DeliveryID: r.DeliveryID, RequestedAt: r.RequestedAt, NextAllowedAt: r.NextAllowedAt}}, nil
}

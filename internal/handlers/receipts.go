package handlers

import (
	"bytes"
	"context"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/payments/receipts"
)

// GetReceiptPdf implements api.Handler.
func (h *Handler) GetReceiptPdf(ctx context.Context, p api.GetReceiptPdfParams) (api.GetReceiptPdfOK, error) {
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return api.GetReceiptPdfOK{}, err
	}
	r, err := receipts.New(h.client).Load(mctx, p.PaymentId)
	if err != nil {
		return api.GetReceiptPdfOK{}, err
	}
	pdf, err := receipts.Render(r)
	if err != nil {
		return api.GetReceiptPdfOK{}, err
	}
	return api.GetReceiptPdfOK{Data: bytes.NewReader(pdf)}, nil
}

// ResendReceipt implements api.Handler.
func (h *Handler) ResendReceipt(ctx context.Context, p api.ResendReceiptParams) (*api.ReceiptResendResponse, error) {
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	key, _ := idempotency.Derive(ctx, "resendReceipt")
	queued, err := receipts.New(h.client).Resend(mctx, p.PaymentId, key)
	if err != nil {
		return nil, err
	}
	return &api.ReceiptResendResponse{Data: api.ReceiptResendResponseData{
		PaymentID: p.PaymentId, Channel: api.ReceiptResendResponseDataChannelEmail, Queued: queued}}, nil
}

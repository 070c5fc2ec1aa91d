package handlers

import (
	"bytes"
	"context"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/payments/refunds"
)

// refundLimits are the contract's cursor-list limits (default 20, at most
// 100).
var refundLimits = pagination.CursorRule{DefaultLimit: 20, MaxLimit: 100}

// refunds is the refunds domain on the payments service's Stripe port.
func (h *Handler) refunds() *refunds.Service {
	return refunds.New(h.client, h.payments().Port(), h.log)
}

// CreateRefundReview implements api.Handler.
func (h *Handler) CreateRefundReview(ctx context.Context, req *api.RefundReviewRequest, p api.CreateRefundReviewParams) (*api.RefundReviewResponse, error) {
	rv, err := h.refunds().CreateReview(ctx, p.PaymentId, req.Amount)
	if err != nil {
		return nil, err
	}
	r := rv.Review
	out := api.RefundReview{ReviewIntentID: r.ID, PaymentID: r.PaymentID, Amount: money.ToMajor(r.AmountMinor, r.Currency),
		AmountMinor: r.AmountMinor, Currency: r.Currency, PaymentAmountMinor: rv.PaymentMinor, RefundedMinor: rv.RefundedMinor,
		RefundableMinor: r.RefundableMinor, ConfirmationPhrase: r.ConfirmationPhrase, ExpiresAt: r.ExpiresAt.UTC(),
		SameDay: rv.SameDay, OriginalPaymentMethod: api.RefundReviewOriginalPaymentMethod{Available: rv.CardRefundable}}
	if rv.CardUnavailable != "" {
		out.OriginalPaymentMethod.Reason = api.NewNilRefundReviewOriginalPaymentMethodReason(
			api.RefundReviewOriginalPaymentMethodReason(rv.CardUnavailable))
	} else {
		out.OriginalPaymentMethod.Reason.SetToNull()
	}
	return &api.RefundReviewResponse{Data: out}, nil
}

// RefundPayment implements api.Handler.
func (h *Handler) RefundPayment(ctx context.Context, req *api.RefundRequest, p api.RefundPaymentParams) (*api.RefundResponse, error) {
	key, _ := idempotency.Derive(ctx, "refundPayment")
	params := refunds.Params{ReviewID: req.ReviewIntentID, Confirmation: req.Confirmation, Amount: req.Amount,
		Reason: req.Reason.Value, ClientReceiptComment: req.ClientReceiptComment.Value,
		Destination: string(req.DestinationID.Value), MethodReference: req.MethodReference.Value,
		NotifyClient: req.NotifyClient.Value, RequestKey: key}
	for _, ch := range req.ReceiptChannels {
		params.ReceiptChannels = append(params.ReceiptChannels, string(ch))
	}
	rf, err := h.refunds().Refund(ctx, p.PaymentId, params)
	if err != nil {
		return nil, err
	}
	return &api.RefundResponse{Data: refundView(rf)}, nil
}

func refundView(rf *ent.Refund) api.RefundView {
	out := api.RefundView{ID: rf.ID, PaymentID: rf.PaymentID, Amount: money.ToMajor(rf.AmountMinor, rf.Currency),
		AmountMinor: rf.AmountMinor, Currency: rf.Currency, Status: api.RefundViewStatus(rf.Status),
		Origin: api.RefundViewOrigin(rf.Origin), DestinationID: api.RefundViewDestinationID(rf.Destination),
		MethodReference: rf.MethodReference, Reason: rf.Reason, ClientReceiptComment: rf.ClientReceiptComment,
		NotifyClient: rf.NotifyClient, CreatedAt: rf.CreatedAt.UTC(),
		ReceiptPath: "/api/v1/admin/refunds/" + rf.ID.String() + "/receipt"}
	if rf.RefundedAt != nil {
		out.RefundedAt = api.NewNilDateTime(rf.RefundedAt.UTC())
	} else {
		out.RefundedAt.SetToNull()
	}
	return out
}

// GetAdminRefundReceipt implements api.Handler.
func (h *Handler) GetAdminRefundReceipt(ctx context.Context, p api.GetAdminRefundReceiptParams) (api.GetAdminRefundReceiptOK, error) {
	r, err := h.refunds().StaffReceipt(ctx, p.RefundId)
	if err != nil {
		return api.GetAdminRefundReceiptOK{}, err
	}
	pdf, err := refunds.Render(r)
	if err != nil {
		return api.GetAdminRefundReceiptOK{}, err
	}
	return api.GetAdminRefundReceiptOK{Data: bytes.NewReader(pdf)}, nil
}

// ListMyRefunds implements api.Handler.
func (h *Handler) ListMyRefunds(ctx context.Context, p api.ListMyRefundsParams) (*api.MyRefundListResponse, error) {
	limit, err := refundLimits.ParseLimit(pagination.Value(p.Limit.Value, p.Limit.Set))
	if err != nil {
		return nil, err
	}
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	signer, err := h.cursorSigner()
	if err != nil {
		return nil, apperr.Internal(err)
	}
	rows, meta, err := h.refunds().Mine(mctx, mid, signer, limit, p.After.Value)
	if err != nil {
		return nil, err
	}
	out := &api.MyRefundListResponse{Data: make([]api.MyRefund, 0, len(rows)),
		Meta: api.MyRefundListResponseMeta{Limit: meta.Limit, HasMore: meta.HasMore}}
	if meta.NextCursor != nil {
		out.Meta.NextCursor = api.NewNilString(*meta.NextCursor)
	} else {
		out.Meta.NextCursor.SetToNull()
	}
	for _, rf := range rows {
		item := api.MyRefund{ID: rf.ID, PaymentID: rf.PaymentID, Amount: money.ToMajor(rf.AmountMinor, rf.Currency),
			AmountMinor: rf.AmountMinor, Currency: rf.Currency, Status: api.MyRefundStatus(rf.Status),
			ClientReceiptComment: rf.ClientReceiptComment, CreatedAt: rf.CreatedAt.UTC(),
			PdfPath: "/api/v1/me/refunds/" + rf.ID.String() + "/pdf"}
		if rf.RefundedAt != nil {
			item.RefundedAt = api.NewNilDateTime(rf.RefundedAt.UTC())
		} else {
			item.RefundedAt.SetToNull()
		}
		out.Data = append(out.Data, item)
	}
	return out, nil
}

// GetMyRefundPdf implements api.Handler.
func (h *Handler) GetMyRefundPdf(ctx context.Context, p api.GetMyRefundPdfParams) (api.GetMyRefundPdfOK, error) {
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return api.GetMyRefundPdfOK{}, err
	}
	r, err := h.refunds().Receipt(mctx, p.RefundId)
	if err != nil {
		return api.GetMyRefundPdfOK{}, err
	}
	pdf, err := refunds.Render(r)
	if err != nil {
		return api.GetMyRefundPdfOK{}, err
	}
	return api.GetMyRefundPdfOK{Data: bytes.NewReader(pdf)}, nil
}

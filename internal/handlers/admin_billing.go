package handlers

import (
	"context"
	"errors"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
)

// ListAdminFailedPayments implements api.Handler.
func (h *Handler) ListAdminFailedPayments(ctx context.Context, p api.ListAdminFailedPaymentsParams) (*api.AdminFailedPaymentListResponse, error) {
	if err := billing.Authorize(ctx, billing.PermViewInsights); err != nil {
		return nil, err
	}
	days := 30
	if p.Days.Set {
		days = p.Days.Value
	}
	rows, err := h.billing().FailedPayments(ctx, optUUID(p.MemberID), h.now().AddDate(0, 0, -days), 100)
	if err != nil {
		return nil, err
	}
	out := &api.AdminFailedPaymentListResponse{Data: make([]api.AdminFailedPayment, 0, len(rows))}
	for _, r := range rows {
		pay := r.Payment
		item := api.AdminFailedPayment{ID: pay.ID, AmountMinor: pay.AmountMinor, Currency: pay.Currency,
			FailedAt: pay.CreatedAt.UTC(), PassID: nilUUIDOf(pay.PassID)}
		if pay.MemberID != nil {
			item.MemberID = *pay.MemberID
		}
		item.InvoiceID.SetToNull()
		item.InvoiceNumber.SetToNull()
		item.InvoiceStatus.SetToNull()
		item.FailureCode.SetToNull()
		item.DeclineCode.SetToNull()
		if in := r.Invoice; in != nil {
			item.InvoiceID = api.NewNilUUID(in.ID)
			item.InvoiceNumber = api.NewNilString(in.Number)
			item.InvoiceStatus = api.NewNilString(string(in.Status))
			item.FailureCode, item.DeclineCode = nilStringPtr(in.FailureCode), nilStringPtr(in.DeclineCode)
		}
		out.Data = append(out.Data, item)
	}
	return out, nil
}

// RetryAdminInvoice implements api.Handler.
func (h *Handler) RetryAdminInvoice(ctx context.Context, req api.OptAdminInvoiceRetryRequest, p api.RetryAdminInvoiceParams) (*api.InvoiceRetryResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	rp := billing.RetryParams{InvoiceID: p.ID}
	if v, ok := req.Get(); ok {
		if v.ExpectedAmountMinor.Set {
			rp.Expected = &v.ExpectedAmountMinor.Value
		}
		rp.PaymentMethod = v.PaymentMethodID.Value
	}
	res, err := h.billing().Retry(ctx, rp)
	if err != nil {
		return nil, err
	}
	return retryResponse(res), nil
}

// SettleAdminInvoiceExternally implements api.Handler.
func (h *Handler) SettleAdminInvoiceExternally(ctx context.Context, req *api.AdminInvoiceSettleRequest, p api.SettleAdminInvoiceExternallyParams) (api.SettleAdminInvoiceExternallyRes, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	sp := billing.SettleParams{InvoiceID: p.ID, Method: string(req.Method), AmountMinor: req.AmountMinor,
		Note: req.Note.Value, NotifyClient: req.NotifyClient.Value}
	if req.PaidAt.Set {
		sp.PaidAt = req.PaidAt.Value
	}
	row, err := h.billing().SettleExternally(ctx, sp)
	if lost, ok := h.unknownOutcome(ctx, err); ok {
		return lost, nil
	}
	if err != nil {
		return nil, err
	}
	return &api.InvoiceDetailResponse{Data: h.invoiceDetail(row, h.cardsOn(ctx))}, nil
}

// CompAdminInvoice implements api.Handler.
func (h *Handler) CompAdminInvoice(ctx context.Context, req *api.AdminInvoiceCompRequest, p api.CompAdminInvoiceParams) (api.CompAdminInvoiceRes, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	row, err := h.billing().Comp(ctx, p.ID, req.Reason)
	if lost, ok := h.unknownOutcome(ctx, err); ok {
		return lost, nil
	}
	if err != nil {
		return nil, err
	}
	return &api.InvoiceDetailResponse{Data: h.invoiceDetail(row, h.cardsOn(ctx))}, nil
}

// unknownOutcome is the typed 409 UNKNOWN_WRITE_OUTCOME answer of an
// operation that names it (Stripe's answer lost), through the one error
// mapping (NewError); ok is false for any other error.
func (h *Handler) unknownOutcome(ctx context.Context, err error) (*api.ErrorResponse, bool) {
	var ae *apperr.Error
	if err == nil || !errors.As(err, &ae) || ae.Code != payments.CodeUnknownOutcome {
		return nil, false
	}
	es := h.NewError(ctx, err)
	return &es.Response, true
}

func passStatusResponse(p *ent.Pass) *api.AdminPassStatusResponse {
	out := api.AdminPassStatusResponseData{ID: p.ID, Status: api.AdminPassStatusResponseDataStatus(p.Status), MemberID: p.MemberID}
	if p.ValidTo != nil {
		out.ValidTo = api.NewNilDate(*p.ValidTo)
	} else {
		out.ValidTo.SetToNull()
	}
	return &api.AdminPassStatusResponse{Data: out}
}

// SuspendAdminPass implements api.Handler.
func (h *Handler) SuspendAdminPass(ctx context.Context, req api.OptAdminPassStatusRequest, p api.SuspendAdminPassParams) (*api.AdminPassStatusResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	ps, err := h.billing().Suspend(ctx, p.ID, req.Value.Reason.Value)
	if err != nil {
		return nil, err
	}
	return passStatusResponse(ps), nil
}

// UnsuspendAdminPass implements api.Handler.
func (h *Handler) UnsuspendAdminPass(ctx context.Context, req api.OptAdminPassStatusRequest, p api.UnsuspendAdminPassParams) (*api.AdminPassStatusResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	ps, err := h.billing().Unsuspend(ctx, p.ID, req.Value.Reason.Value)
	if err != nil {
		return nil, err
	}
	return passStatusResponse(ps), nil
}

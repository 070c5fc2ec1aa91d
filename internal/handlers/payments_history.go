package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/payments"
)

// paymentHistoryLimits are the contract's payment history limits (1 to 100,
// default 25).
var paymentHistoryLimits = pagination.CursorRule{DefaultLimit: 25, MaxLimit: 100}

// ListMyPaymentHistory implements api.Handler.
func (h *Handler) ListMyPaymentHistory(ctx context.Context, p api.ListMyPaymentHistoryParams) (*api.PaymentHistoryResponse, error) {
	limit, err := paymentHistoryLimits.ParseLimit(pagination.Value(p.Limit.Value, p.Limit.Set))
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
	rows, meta, err := h.payments().PaymentHistory(mctx, mid, signer, limit, p.After.Value)
	if err != nil {
		return nil, err
	}
	out := &api.PaymentHistoryResponse{Data: make([]api.PaymentHistoryEntry, 0, len(rows)),
		Meta: api.PaymentHistoryMeta{Limit: meta.Limit, HasMore: meta.HasMore,
			MemberMoneyVersion: api.PaymentHistoryMetaMemberMoneyVersion(payments.MemberMoneyVersion)}}
	if meta.NextCursor != nil {
		out.Meta.NextCursor = api.NewNilString(*meta.NextCursor)
	} else {
		out.Meta.NextCursor.SetToNull()
	}
	for _, r := range rows {
		pay := r.Payment
		item := api.PaymentHistoryEntry{ID: pay.ID, Kind: api.PaymentHistoryEntryKind(pay.Kind),
			Status: api.PaymentHistoryEntryStatus(pay.Status), AmountMinor: pay.AmountMinor, Currency: pay.Currency,
			CurrencyExponent: money.Exponent(pay.Currency), Description: r.Description, CreatedAt: pay.CreatedAt.UTC()}
		if pay.PassID != nil {
			item.PassID = api.NewNilUUID(*pay.PassID)
		} else {
			item.PassID.SetToNull()
		}
		if pay.ProcessorPaymentID != nil {
			item.ProcessorPaymentID = api.NewNilString(*pay.ProcessorPaymentID)
		} else {
			item.ProcessorPaymentID.SetToNull()
		}
		if pay.PaidAt != nil {
			item.PaidAt = api.NewNilDateTime(pay.PaidAt.UTC())
		} else {
			item.PaidAt.SetToNull()
		}
		out.Data = append(out.Data, item)
	}
	return out, nil
}

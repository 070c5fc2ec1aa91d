package handlers

import (
	"context"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/billing/fees"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
)

// ListAdminFees implements api.Handler.
func (h *Handler) ListAdminFees(ctx context.Context, p api.ListAdminFeesParams) (*api.AdminFeeListResponse, error) {
	lp := fees.ListParams{Status: string(p.Status.Value), Limit: p.Limit.Value}
	if p.MemberID.Set {
		id := p.MemberID.Value
		lp.MemberID = &id
	}
	rows, err := fees.List(ctx, h.client, lp)
	if err != nil {
		return nil, err
	}
	out := &api.AdminFeeListResponse{Data: make([]api.AdminFee, 0, len(rows))}
	for _, f := range rows {
		out.Data = append(out.Data, adminFee(f))
	}
	return out, nil
}

func adminFee(f fees.Fee) api.AdminFee {
	b := f.Booking
	out := api.AdminFee{BookingID: b.ID, MemberID: b.MemberID, MemberName: f.Member, Kind: api.AdminFeeKind(f.Kind),
		Amount: money.ToMajor(*b.LateCancelFeeMinor, f.Currency), AmountMinor: *b.LateCancelFeeMinor, Currency: f.Currency,
		FeeStatus: api.AdminFeeFeeStatus(*b.FeeStatus), ClassName: f.ClassName, ClassStartTime: f.StartTime.UTC()}
	if b.CancelledAt != nil {
		out.CancelledAt = api.NewNilDateTime(b.CancelledAt.UTC())
	} else {
		out.CancelledAt.SetToNull()
	}
	return out
}

// feeView re-reads a changed fee as the list shows it.
func (h *Handler) feeView(ctx context.Context, b *ent.Booking) (*api.AdminFeeResponse, error) {
	f, err := fees.View(ctx, h.client, b.ID)
	if err != nil {
		return nil, err
	}
	return &api.AdminFeeResponse{Data: adminFee(f)}, nil
}

// SettleAdminFee implements api.Handler.
func (h *Handler) SettleAdminFee(ctx context.Context, req *api.FeeSettleRequest, p api.SettleAdminFeeParams) (*api.AdminFeeResponse, error) {
	b, _, err := fees.Settle(ctx, h.client, p.BookingId, string(req.Method), req.Note.Value)
	if err != nil {
		return nil, err
	}
	return h.feeView(ctx, b)
}

// WaiveAdminFee implements api.Handler.
func (h *Handler) WaiveAdminFee(ctx context.Context, req *api.FeeWaiveRequest, p api.WaiveAdminFeeParams) (*api.AdminFeeResponse, error) {
	b, err := fees.Waive(ctx, h.client, p.BookingId, req.Reason)
	if err != nil {
		return nil, err
	}
	return h.feeView(ctx, b)
}

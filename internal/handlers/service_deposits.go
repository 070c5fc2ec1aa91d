package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/appointments"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
)

func serviceDepositOut(d appointments.DepositSetting) api.ServiceDeposit {
	svc := d.Service
	out := api.ServiceDeposit{ServiceID: svc.ID, Currency: svc.Currency, PriceMinor: svc.PriceMinor,
		PriceAmount: money.ToMajor(svc.PriceMinor, svc.Currency), Kind: api.ServiceDepositKind(d.Kind)}
	out.Amount.SetToNull()
	out.AmountMinor.SetToNull()
	out.Percent.SetToNull()
	switch {
	case svc.DepositMinor != nil:
		out.AmountMinor = api.NewNilInt64(*svc.DepositMinor)
		out.Amount = api.NewNilFloat64(money.ToMajor(*svc.DepositMinor, svc.Currency))
	case svc.DepositPercentBp != nil:
		out.Percent = api.NewNilFloat64(float64(*svc.DepositPercentBp) / 100)
	}
	return out
}

// GetServiceDeposit implements getServiceDeposit.
func (h *Handler) GetServiceDeposit(ctx context.Context, p api.GetServiceDepositParams) (*api.ServiceDepositResponse, error) {
	if err := appointments.AuthorizeAny(ctx, appointments.PermSettingsBusiness, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	d, err := appointments.ServiceDeposit(ctx, h.client, p.ID)
	if err != nil {
		return nil, err
	}
	return &api.ServiceDepositResponse{Data: serviceDepositOut(d)}, nil
}

// SetServiceDeposit implements setServiceDeposit.
func (h *Handler) SetServiceDeposit(ctx context.Context, req *api.ServiceDepositRequest, p api.SetServiceDepositParams) (*api.ServiceDepositResponse, error) {
	if err := appointments.AuthorizeAny(ctx, appointments.PermSettingsBusiness, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	ch := appointments.DepositChange{Kind: string(req.Kind), Amount: optValue(req.Amount), Percent: optValue(req.Percent),
		Currency: req.Currency.Or("")}
	d, err := appointments.SetServiceDeposit(ctx, h.client, p.ID, ch)
	if err != nil {
		return nil, err
	}
	return &api.ServiceDepositResponse{Data: serviceDepositOut(d)}, nil
}

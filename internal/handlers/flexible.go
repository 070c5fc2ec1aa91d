package handlers

import (
	"context"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments"
)

// GetFlexibleChoices implements api.Handler.
func (h *Handler) GetFlexibleChoices(ctx context.Context, p api.GetFlexibleChoicesParams) (*api.FlexibleChoicesResponse, error) {
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	c, err := h.payments().FlexibleChoicesOf(mctx, p.ID)
	if err != nil {
		return nil, err
	}
	out := api.FlexibleChoices{PassID: c.Pass.ID, PassTypeID: c.PassType.ID, Current: selectionOut(c.Current),
		CurrentPriceMinor: c.Price, Currency: c.Currency, CurrencyExponent: money.Exponent(c.Currency),
		Options: []api.FlexibleOption{}, Renewals: []api.FlexibleRenewal{},
		ChangePolicy: api.FlexibleChangePolicy{MemberChangesEnabled: c.Policy.MemberChangesEnabled,
			AllowedCycleOffsets: append([]int{}, c.Policy.AllowedCycleOffsets...), DefaultCycleOffset: c.Policy.DefaultCycleOffset}}
	for _, o := range c.Options {
		out.Options = append(out.Options, api.FlexibleOption{Selection: selectionOut(o.Selection), PriceMinor: o.PriceMinor})
	}
	for _, r := range c.Renewals {
		out.Renewals = append(out.Renewals, api.FlexibleRenewal{Renewal: r.N, Date: r.Date})
	}
	if s := c.Scheduled; s != nil {
		out.ScheduledChange = api.NewNilFlexibleScheduled(scheduledOut(s))
	} else {
		out.ScheduledChange.SetToNull()
	}
	return &api.FlexibleChoicesResponse{Data: out}, nil
}

// PreviewFlexibleChange implements api.Handler.
func (h *Handler) PreviewFlexibleChange(ctx context.Context, p api.PreviewFlexibleChangeParams) (*api.FlexibleChangeResponse, error) {
	sel, err := selectionIn(string(p.Kind), p.Quantity)
	if err != nil {
		return nil, err
	}
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	ch, err := h.payments().PreviewFlexibleChange(mctx, p.ID, sel, p.Renewal.Or(0))
	if err != nil {
		return nil, err
	}
	return &api.FlexibleChangeResponse{Data: changeOut(ch)}, nil
}

// ScheduleFlexibleChange implements api.Handler.
func (h *Handler) ScheduleFlexibleChange(ctx context.Context, req *api.FlexibleChangeRequest, p api.ScheduleFlexibleChangeParams) (*api.FlexibleChangeResponse, error) {
	sel, err := selectionIn(string(req.Kind), req.Quantity)
	if err != nil {
		return nil, err
	}
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	ch, err := h.payments().ScheduleFlexibleChange(mctx, p.ID, sel, req.Renewal.Or(0))
	if err != nil {
		return nil, err
	}
	return &api.FlexibleChangeResponse{Data: changeOut(ch)}, nil
}

// selectionIn reads a selection: quantity needs a quantity, unlimited none.
func selectionIn(kind string, q api.OptInt) (payments.Selection, error) {
	if kind == "unlimited" {
		if q.Set {
			return payments.Selection{}, apperr.Validation("quantity", "an unlimited selection takes no quantity")
		}
		return payments.Selection{Unlimited: true}, nil
	}
	n, ok := q.Get()
	if !ok {
		return payments.Selection{}, apperr.Validation("quantity", "a quantity selection needs a quantity")
	}
	return payments.Selection{Quantity: n}, nil
}

func selectionOut(s payments.Selection) api.FlexibleSelection {
	out := api.FlexibleSelection{Kind: api.FlexibleSelectionKind(s.Kind()), AllowanceLabel: s.AllowanceLabel()}
	if s.Unlimited {
		out.Quantity.SetToNull()
		out.ClassAllowance.SetToNull()
	} else {
		out.Quantity = api.NewNilInt(s.Quantity)
		out.ClassAllowance = api.NewNilInt(s.Quantity)
	}
	return out
}

func scheduledOut(s *model.FlexibleChange) api.FlexibleScheduled {
	eff, _ := time.Parse(time.DateOnly, s.EffectiveOn)
	at, _ := time.Parse(time.RFC3339, s.ScheduledAt)
	return api.FlexibleScheduled{Selection: selectionOut(payments.Selection{Unlimited: s.Kind == "unlimited", Quantity: s.Quantity}),
		Renewal: s.Renewal, EffectiveOn: eff, PriceMinor: s.PriceMinor, Currency: s.Currency, ScheduledAt: at}
}

func changeOut(ch *payments.FlexibleChange) api.FlexibleChange {
	out := api.FlexibleChange{PassID: ch.Pass.ID, From: selectionOut(ch.From), To: selectionOut(ch.To),
		FromPriceMinor: ch.FromPrice, ToPriceMinor: ch.ToPrice, DifferenceMinor: ch.ToPrice - ch.FromPrice,
		Currency: ch.Currency, Renewal: ch.Renewal, EffectiveOn: ch.EffectiveOn}
	if ch.ScheduledAt != nil {
		out.ScheduledAt = api.NewNilDateTime(*ch.ScheduledAt)
	} else {
		out.ScheduledAt.SetToNull()
	}
	return out
}

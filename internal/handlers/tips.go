package handlers

import (
	"context"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments"
)

// CreateTip implements api.Handler.
func (h *Handler) CreateTip(ctx context.Context, req *api.TipCreateRequest, p api.CreateTipParams) (*api.TipCreateResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	tp := payments.TipParams{SourceType: string(req.SourceType), SourceID: req.SourceID, Amount: req.Amount,
		Currency: req.Currency, Message: req.Message.Or(""), Anonymous: req.Anonymous.Or(false)}
	tp.RequestKey, _ = idempotency.Derive(ctx, "createTip")
	tc, err := h.payments().CreateTip(mctx, mid, tp)
	if err != nil {
		return nil, err
	}
	return &api.TipCreateResponse{Data: tipCreated(tc)}, nil
}

// tipCreated is the contract's tip create response of tc (POST /tips, and
// the tip inside POST /feedback's answer).
func tipCreated(tc *payments.TipCreated) api.TipCreated {
	t := tc.Tip
	major := money.ToMajor(t.AmountMinor, t.Currency)
	out := api.TipCreated{TipID: t.ID, ClientSecret: tc.ClientSecret, PaymentIntentID: tc.IntentID,
		Amount: major, AmountMajor: major, AmountMinor: t.AmountMinor, AmountUnit: api.TipCreatedAmountUnitMajor,
		Currency: t.Currency, MerchantCountryCode: nilString(tc.MerchantCountry), SourceType: api.TipCreatedSourceType(t.SourceType),
		SourceID: t.SourceID, CustomerID: tc.CustomerID, EphemeralKey: tc.EphemeralKey,
		ProcessorAccountID: nilString(tc.AccountID), IsAnonymous: t.Anonymous}
	for _, m := range tc.PaymentMethods {
		out.AvailablePaymentMethods = append(out.AvailablePaymentMethods, api.TipCreatedAvailablePaymentMethodsItem(m))
	}
	if t.InstructorID != nil {
		out.InstructorID = api.NewNilUUID(*t.InstructorID)
	} else {
		out.InstructorID.SetToNull()
	}
	return out
}

// ConfirmTip implements api.Handler.
func (h *Handler) ConfirmTip(ctx context.Context, p api.ConfirmTipParams) (*api.TipConfirmResponse, error) {
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	st, err := h.payments().ConfirmTip(mctx, p.ID)
	if err != nil {
		return nil, err
	}
	return &api.TipConfirmResponse{Data: api.TipState{TipID: p.ID, Status: api.TipStateStatus(st)}}, nil
}

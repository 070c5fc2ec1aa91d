package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/payments"
)

// ListMyPaymentMethods implements api.Handler.
func (h *Handler) ListMyPaymentMethods(ctx context.Context, p api.ListMyPaymentMethodsParams) (*api.PaymentMethodListResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	cards, err := h.payments().Cards(mctx, mid)
	if err != nil {
		return nil, err
	}
	return &api.PaymentMethodListResponse{Data: cardsOut(cards)}, nil
}

// CreateMyPaymentMethod implements api.Handler.
func (h *Handler) CreateMyPaymentMethod(ctx context.Context, p api.CreateMyPaymentMethodParams) (*api.PaymentMethodSetupResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	key, _ := idempotency.Derive(ctx, "createMyPaymentMethod")
	sc, err := h.payments().SetupCard(mctx, mid, key)
	if err != nil {
		return nil, err
	}
	return &api.PaymentMethodSetupResponse{Data: setupOut(sc, false)}, nil
}

// DeleteMyPaymentMethod implements api.Handler: always refused (members
// cannot remove saved cards).
func (h *Handler) DeleteMyPaymentMethod(ctx context.Context, p api.DeleteMyPaymentMethodParams) (api.DeleteMyPaymentMethodRes, error) {
	if _, _, _, err := h.asMember(ctx, p.XOrganizationID); err != nil {
		return nil, err
	}
	return nil, payments.RemovalRefused()
}

// SetMyDefaultPaymentMethod implements api.Handler.
func (h *Handler) SetMyDefaultPaymentMethod(ctx context.Context, p api.SetMyDefaultPaymentMethodParams) (*api.PaymentMethodListResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	key, _ := idempotency.Derive(ctx, "setMyDefaultPaymentMethod")
	cards, err := h.payments().SetDefaultCard(mctx, mid, p.ID, key)
	if err != nil {
		return nil, err
	}
	return &api.PaymentMethodListResponse{Data: cardsOut(cards)}, nil
}

// InitMyPaymentSheet implements api.Handler.
func (h *Handler) InitMyPaymentSheet(ctx context.Context, req *api.PaymentSheetInitRequest, _ api.InitMyPaymentSheetParams) (*api.PaymentMethodSetupResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, req.OrganizationID)
	if err != nil {
		return nil, err
	}
	key, ok := idempotency.Derive(ctx, "initMyPaymentSheet")
	if !ok {
		return nil, apperr.Validation("Idempotency-Key", "an Idempotency-Key is required")
	}
	sc, err := h.payments().SetupCard(mctx, mid, key)
	if err != nil {
		return nil, err
	}
	return &api.PaymentMethodSetupResponse{Data: setupOut(sc, true)}, nil
}

func cardsOut(cards []payments.SavedCard) []api.PaymentMethod {
	out := make([]api.PaymentMethod, 0, len(cards))
	for _, c := range cards {
		pm := api.PaymentMethod{ID: c.ID, Brand: c.Brand, Last4: c.Last4, ExpMonth: c.ExpMonth, ExpYear: c.ExpYear, IsDefault: c.IsDefault}
		if c.Wallet != "" {
			pm.Wallet = api.NewNilString(c.Wallet)
		} else {
			pm.Wallet.SetToNull()
		}
		out = append(out, pm)
	}
	return out
}

func setupOut(sc *payments.SetupCredentials, sheet bool) api.PaymentMethodSetup {
	out := api.PaymentMethodSetup{ClientSecret: sc.SetupIntentClientSecret, SetupIntentClientSecret: sc.SetupIntentClientSecret,
		SetupIntentID: sc.SetupIntentID, CustomerID: sc.CustomerID, EphemeralKey: sc.EphemeralKey,
		ProcessorAccountID: api.NewNilString(sc.AccountID), RegionalRevision: 1}
	if sc.MerchantCountry != "" {
		out.MerchantCountryCode = api.NewNilString(sc.MerchantCountry)
	} else {
		out.MerchantCountryCode.SetToNull()
	}
	if sheet {
		out.WalletMerchantID.SetToNull()
	}
	return out
}

// ListMyPayments implements api.Handler.
func (h *Handler) ListMyPayments(ctx context.Context, p api.ListMyPaymentsParams) (*api.MyPaymentListResponse, error) {
	limit, err := pagination.CursorLists.ParseLimit(pagination.Value(p.Limit.Value, p.Limit.Set))
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
	rows, meta, err := h.payments().MyPayments(mctx, mid, signer, limit, p.After.Value)
	if err != nil {
		return nil, err
	}
	out := &api.MyPaymentListResponse{Data: make([]api.MyPayment, 0, len(rows)),
		Meta: api.MyPaymentListMeta{Limit: meta.Limit, HasMore: meta.HasMore}}
	if meta.NextCursor != nil {
		out.Meta.NextCursor = api.NewNilString(*meta.NextCursor)
	} else {
		out.Meta.NextCursor.SetToNull()
	}
	for _, r := range rows {
		pay := r.Payment
		item := api.MyPayment{ID: pay.ID, Amount: money.ToMajor(pay.AmountMinor, pay.Currency), AmountMinor: pay.AmountMinor,
			Currency: pay.Currency, CurrencyExponent: money.Exponent(pay.Currency), Status: api.MyPaymentStatus(pay.Status),
			Kind: string(pay.Kind), PaidAt: pay.PaidAt.UTC(), Description: r.Description}
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
		out.Data = append(out.Data, item)
	}
	return out, nil
}

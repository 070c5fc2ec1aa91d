package handlers

import (
	"context"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
)

// ResumeCheckout implements api.Handler.
func (h *Handler) ResumeCheckout(ctx context.Context, p api.ResumeCheckoutParams) (*api.CheckoutResumeResponse, error) {
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	r, err := h.payments().ResumeCheckout(mctx, p.ID)
	if err != nil {
		return nil, err
	}
	co := r.Checkout
	out := api.CheckoutResume{PassID: r.PassID, PaymentIntentID: nilString(r.IntentID),
		ClientSecret: nilString(r.ClientSecret), ProcessorAccountID: nilString(r.AccountID),
		PaymentStatus: api.CheckoutResumePaymentStatus(r.Status), ServerTime: h.now().UTC(),
		FrozenCheckout: api.ResumeFrozenCheckout{ChargedTodayMinor: co.AmountMinor, Currency: co.Currency,
			PurchaseObligation: obligationOut(&payments.Preview{Obligation: r.Obligation, Quote: payments.Quote{Currency: co.Currency}})}}
	if r.HoldExpiresAt != nil {
		out.HoldExpiresAt = api.NewNilDateTime(r.HoldExpiresAt.UTC())
	} else {
		out.HoldExpiresAt.SetToNull()
	}
	if r.Selection != nil {
		out.FrozenCheckout.FlexibleSelection = api.NewNilFlexibleSelection(selectionOut(*r.Selection))
	} else {
		out.FrozenCheckout.FlexibleSelection.SetToNull()
	}
	return &api.CheckoutResumeResponse{Data: out}, nil
}

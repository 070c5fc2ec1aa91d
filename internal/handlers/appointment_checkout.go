package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments"
)

// GetAppointmentCheckoutQuote implements getAppointmentCheckoutQuote.
func (h *Handler) GetAppointmentCheckoutQuote(ctx context.Context, p api.GetAppointmentCheckoutQuoteParams) (*api.AppointmentCheckoutQuoteResponse, error) {
	mctx, a, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	provider, err := providerParam("provider_id", p.ProviderID.Or(""))
	if err != nil {
		return nil, err
	}
	r := appointments.Request{ServiceID: p.ServiceID, VariantID: optUUID(p.VariantID), ProviderID: provider,
		LocationID: optUUID(p.LocationID), Start: p.StartTime}
	if c, ok := p.PaymentChoice.Get(); ok {
		r.PaymentChoice = string(c)
	}
	q, err := appointments.QuoteOf(mctx, h.client, a, r, h.now())
	if err != nil {
		return nil, err
	}
	out := api.AppointmentCheckoutQuote{ServiceID: q.Service.ID, VariantID: api.NilUUID{Null: true}, ProviderID: q.ProviderID,
		StartTime: q.Start.UTC(), EndTime: q.End.UTC(), Currency: q.Currency,
		PriceAmount: money.ToMajor(q.PriceMinor, q.Currency), PriceMinor: q.PriceMinor,
		AmountDueAtBooking: money.ToMajor(q.DueMinor, q.Currency), AmountDueAtBookingMinor: q.DueMinor,
		RemainingBalance: money.ToMajor(q.RemainingMinor, q.Currency), RemainingBalanceMinor: q.RemainingMinor,
		PaymentAtBookingMode: api.AppointmentCheckoutQuotePaymentAtBookingMode(q.Mode),
		Payment:              api.AppointmentCheckoutQuotePayment(q.Payment)}
	if q.Variant != nil {
		out.VariantID = api.NewNilUUID(q.Variant.ID)
	}
	if q.DepositMinor != nil {
		out.DepositMinor = api.NewNilInt64(*q.DepositMinor)
		out.DepositAmount = api.NewNilFloat64(money.ToMajor(*q.DepositMinor, q.Currency))
	} else {
		out.DepositMinor.SetToNull()
		out.DepositAmount.SetToNull()
	}
	return &api.AppointmentCheckoutQuoteResponse{Data: out}, nil
}

func checkoutPaymentOut(c payments.ChargeResult, amount int64, currency string) api.CheckoutPayment {
	out := api.CheckoutPayment{Status: api.CheckoutPaymentStatus(c.Status), PaymentIntentID: c.IntentID,
		ProcessorAccountID: c.AccountID, Amount: money.ToMajor(amount, currency), AmountMinor: amount, Currency: currency}
	if c.Status == payments.StatusPaid {
		out.Status = api.CheckoutPaymentStatusSucceeded
	}
	if c.ClientSecret != "" && out.Status != api.CheckoutPaymentStatusSucceeded {
		out.ClientSecret = api.NewNilString(c.ClientSecret)
	} else {
		out.ClientSecret.SetToNull()
	}
	return out
}

// CheckoutAppointment implements checkoutAppointment.
func (h *Handler) CheckoutAppointment(ctx context.Context, req *api.AppointmentCheckoutRequest, p api.CheckoutAppointmentParams) (*api.AppointmentCheckoutResponse, error) {
	mctx, a, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	provider, err := providerParam("provider_id", req.ProviderID.Or(""))
	if err != nil {
		return nil, err
	}
	cp := appointments.CheckoutParams{Request: appointments.Request{ServiceID: req.ServiceID, VariantID: optUUID(req.VariantID),
		ProviderID: provider, LocationID: optUUID(req.LocationID), Start: req.StartTime, Notes: req.Notes.Or("")},
		PaymentMethodID: req.PaymentMethodID.Or("")}
	if c, ok := req.PaymentChoice.Get(); ok {
		cp.PaymentChoice = string(c)
	}
	svc, err := appointments.ServiceOf(mctx, h.client, req.ServiceID)
	if err != nil {
		return nil, err
	}
	cp.ExpectedDueMinor = money.ToMinor(req.ExpectedAmountDueAtBooking, svc.Currency)
	cp.RequestKey, _ = idempotency.Derive(ctx, "checkoutAppointment")
	res, err := appointments.Checkout(mctx, h.client, h.payments(), a, cp, h.now())
	if err != nil {
		return nil, err
	}
	ap := res.Appointment
	return &api.AppointmentCheckoutResponse{Data: api.AppointmentCheckout{Appointment: appointmentOut(ap),
		Payment: checkoutPaymentOut(res.Charge, ap.DueMinor, ap.Currency)}}, nil
}

// ConfirmAppointmentCheckout implements confirmAppointmentCheckout.
func (h *Handler) ConfirmAppointmentCheckout(ctx context.Context, p api.ConfirmAppointmentCheckoutParams) (api.ConfirmAppointmentCheckoutRes, error) {
	mctx, _, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	res, err := appointments.ConfirmCheckout(mctx, h.client, h.payments(), p.ID)
	if err != nil {
		return nil, err
	}
	out := api.AppointmentCheckoutConfirm{Status: api.AppointmentCheckoutConfirmStatus(res.Status), Appointment: appointmentOut(res.Appointment)}
	switch res.Status {
	case appointments.ConfirmBooked:
		out.Code.SetToNull()
		return &api.ConfirmAppointmentCheckoutOK{Data: out}, nil
	case appointments.ConfirmRefundPending:
		out.Code = api.NewNilAppointmentCheckoutConfirmCode(api.AppointmentCheckoutConfirmCodeREFUNDPENDING)
		out.Refund = lateRefundOut(res.Refund)
	default:
		out.Code = api.NewNilAppointmentCheckoutConfirmCode(api.AppointmentCheckoutConfirmCodeFINALIZERETRY)
	}
	return &api.ConfirmAppointmentCheckoutAccepted{Data: out}, nil
}

// CheckoutAppointmentVisit implements checkoutAppointmentVisit.
func (h *Handler) CheckoutAppointmentVisit(ctx context.Context, req *api.VisitCheckoutRequest, p api.CheckoutAppointmentVisitParams) (*api.VisitCheckoutResponse, error) {
	mctx, a, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	provider, err := providerParam("provider_id", req.ProviderID.Or(""))
	if err != nil {
		return nil, err
	}
	r := appointments.VisitRequest{ProviderID: provider, LocationID: optUUID(req.LocationID), Start: req.StartTime,
		ExpectedCurrency:   req.ExpectedCurrency,
		ExpectedTotalMinor: money.ToMinor(req.ExpectedTotalPriceAmount, req.ExpectedCurrency),
		ExpectedDueMinor:   money.ToMinor(req.ExpectedAmountDueAtBooking, req.ExpectedCurrency)}
	for _, s := range req.Services {
		r.Items = append(r.Items, appointments.VisitItem{ServiceID: s.ServiceID, VariantID: optUUID(s.VariantID)})
	}
	key, _ := idempotency.Derive(ctx, "checkoutAppointmentVisit")
	res, err := appointments.CheckoutVisit(mctx, h.client, h.payments(), a,
		appointments.VisitCheckoutParams{VisitRequest: r, PaymentMethodID: req.PaymentMethodID.Or(""), RequestKey: key}, h.now())
	if err != nil {
		return nil, err
	}
	return &api.VisitCheckoutResponse{Data: api.VisitCheckout{Visit: visitOut(res.Visit, res.Items),
		Payment: checkoutPaymentOut(res.Charge, res.Visit.DueMinor, res.Visit.Currency)}}, nil
}

// ConfirmAppointmentVisitCheckout implements confirmAppointmentVisitCheckout.
func (h *Handler) ConfirmAppointmentVisitCheckout(ctx context.Context, p api.ConfirmAppointmentVisitCheckoutParams) (api.ConfirmAppointmentVisitCheckoutRes, error) {
	mctx, _, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	res, err := appointments.ConfirmVisitCheckout(mctx, h.client, h.payments(), p.VisitId)
	if err != nil {
		return nil, err
	}
	out := api.VisitCheckoutConfirm{Status: api.VisitCheckoutConfirmStatus(res.Status), Visit: visitOut(res.Visit, res.Items)}
	switch res.Status {
	case appointments.ConfirmBooked:
		out.Code.SetToNull()
		return &api.ConfirmAppointmentVisitCheckoutOK{Data: out}, nil
	case appointments.ConfirmRefundPending:
		out.Code = api.NewNilVisitCheckoutConfirmCode(api.VisitCheckoutConfirmCodeVISITREFUNDPENDING)
		out.Refund = lateRefundOut(res.Refund)
	default:
		out.Code = api.NewNilVisitCheckoutConfirmCode(api.VisitCheckoutConfirmCodeVISITFINALIZERETRY)
	}
	return &api.ConfirmAppointmentVisitCheckoutAccepted{Data: out}, nil
}

// PlanAppointmentVisit implements planAppointmentVisit.
func (h *Handler) PlanAppointmentVisit(ctx context.Context, req *api.VisitPlanRequest, p api.PlanAppointmentVisitParams) (*api.VisitPlanResponse, error) {
	mctx, a, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	provider, err := providerParam("provider_id", req.ProviderID.Or(""))
	if err != nil {
		return nil, err
	}
	v, err := appointments.LoadVenue(mctx, h.client)
	if err != nil {
		return nil, err
	}
	r := appointments.PlanRequest{Date: localDate(req.Date, v.Loc), ProviderID: provider,
		LocationID: optUUID(req.LocationID), FromVisitID: optUUID(req.FromVisitID)}
	for _, s := range req.Services {
		r.Items = append(r.Items, appointments.VisitItem{ServiceID: s.ServiceID, VariantID: optUUID(s.VariantID)})
	}
	plan, err := appointments.PlanVisit(mctx, h.client, a, r, h.now())
	if err != nil {
		return nil, err
	}
	out := api.VisitPlan{Capability: api.VisitPlanCapability{Enabled: plan.Enabled}, MaxServices: plan.MaxServices,
		PaymentAtBookingMode: api.VisitPlanPaymentAtBookingMode(plan.Mode), Timezone: plan.Timezone,
		Candidates: make([]api.VisitPlanCandidate, 0, len(plan.Candidates))}
	if plan.Reason != "" {
		out.Capability.Reason = api.NewNilVisitPlanCapabilityReason(api.VisitPlanCapabilityReason(plan.Reason))
	} else {
		out.Capability.Reason.SetToNull()
	}
	if plan.RefundTerms != nil {
		out.RefundTerms = api.NewNilString(*plan.RefundTerms)
	} else {
		out.RefundTerms.SetToNull()
	}
	for _, c := range plan.Candidates {
		oc := api.VisitPlanCandidate{StartTime: c.Start.UTC(), EndTime: c.End.UTC(), Currency: c.Currency,
			TotalPriceAmount: money.ToMajor(c.TotalMinor, c.Currency), TotalPriceMinor: c.TotalMinor,
			AmountDueAtBooking: money.ToMajor(c.DueMinor, c.Currency), AmountDueAtBookingMinor: c.DueMinor,
			Items: make([]api.VisitPlanItem, 0, len(c.Items))}
		for _, it := range c.Items {
			oc.Items = append(oc.Items, api.VisitPlanItem{ServiceID: it.ServiceID, VariantID: nilUUIDOf(it.VariantID),
				ProviderID: it.ProviderID, StartTime: it.Start.UTC(), EndTime: it.End.UTC(), PriceMinor: it.PriceMinor})
		}
		out.Candidates = append(out.Candidates, oc)
	}
	return &api.VisitPlanResponse{Data: out}, nil
}

// RescheduleAppointmentVisit implements rescheduleAppointmentVisit.
func (h *Handler) RescheduleAppointmentVisit(ctx context.Context, req *api.VisitRescheduleRequest, p api.RescheduleAppointmentVisitParams) (*api.VisitResponse, error) {
	tok, err := concurrency.ParseParam("expected_updated_at", req.ExpectedUpdatedAt)
	if err != nil {
		return nil, err
	}
	mctx, a, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	pv, set := req.ProviderID.Get()
	provider, err := providerParam("provider_id", pv)
	if err != nil {
		return nil, err
	}
	visit, aps, err := appointments.RescheduleVisit(mctx, h.client, a, p.VisitId, tok, req.StartTime, provider,
		set && provider == nil, h.now())
	if err != nil {
		return nil, err
	}
	return &api.VisitResponse{Data: visitOut(visit, aps)}, nil
}

// lateRefundOut is where the automatic refund of a late payment stands.
func lateRefundOut(r *appointments.LateRefund) api.OptCheckoutLateRefund {
	if r == nil {
		return api.OptCheckoutLateRefund{}
	}
	out := api.CheckoutLateRefund{Status: api.CheckoutLateRefundStatus(r.Status), AmountMinor: r.AmountMinor, Currency: r.Currency}
	if r.RefundID != nil {
		out.RefundID = api.NewNilUUID(*r.RefundID)
	} else {
		out.RefundID.SetToNull()
	}
	return api.NewOptCheckoutLateRefund(out)
}

// CheckoutAppointmentBundle implements checkoutAppointmentBundle.
func (h *Handler) CheckoutAppointmentBundle(ctx context.Context, req *api.BundleVisitCheckoutRequest, p api.CheckoutAppointmentBundleParams) (*api.VisitCheckoutResponse, error) {
	mctx, a, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	provider, err := providerParam("provider_id", req.ProviderID.Or(""))
	if err != nil {
		return nil, err
	}
	key, _ := idempotency.Derive(ctx, "checkoutAppointmentBundle")
	res, err := appointments.CheckoutBundle(mctx, h.client, h.payments(), a, appointments.BundleCheckoutParams{
		BundleBooking: appointments.BundleBooking{BundleID: req.BundleID, ProviderID: provider,
			LocationID: optUUID(req.LocationID), Start: req.StartTime, ExpectedCurrency: req.ExpectedCurrency,
			ExpectedTotalMinor: money.ToMinor(req.ExpectedTotalPriceAmount, req.ExpectedCurrency),
			ExpectedDueMinor:   money.ToMinor(req.ExpectedAmountDueAtBooking, req.ExpectedCurrency)},
		PaymentMethodID: req.PaymentMethodID.Or(""), RequestKey: key}, h.now())
	if err != nil {
		return nil, err
	}
	return &api.VisitCheckoutResponse{Data: api.VisitCheckout{Visit: visitOut(res.Visit, res.Items),
		Payment: checkoutPaymentOut(res.Charge, res.Visit.DueMinor, res.Visit.Currency)}}, nil
}

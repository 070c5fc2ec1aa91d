package handlers

import (
	"context"
	"encoding/json"

	"github.com/go-faster/jx"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// GetAdminRenewalRecovery implements api.Handler.
func (h *Handler) GetAdminRenewalRecovery(ctx context.Context, p api.GetAdminRenewalRecoveryParams) (*api.RenewalRecoveryResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	r, err := h.billing().RenewalRecovery(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	external := billing.IsExternallyBilled(r.Subscription) // no card path for an externally billed membership
	out := api.RenewalRecoveryResponseData{PassID: r.Pass.ID, PassStatus: api.RenewalRecoveryResponseDataPassStatus(r.Pass.Status),
		MemberID: r.Pass.MemberID, ChargeInProgress: r.ChargeInProgress, CardPaymentsAvailable: r.CardPayments,
		SavedCard: r.SavedCard, Actions: api.RenewalRecoveryActions{ChargeSavedCard: r.CanCharge() && !external,
			SendPaymentLink: r.CanSendLink() && !external, WaiveLateFee: api.NewOptBool(r.CanWaiveLateFee())}, AmountDueMinor: r.AmountDue()}
	out.Collection.SetToNull()
	out.LateFee.SetToNull()
	if r.LateFee != nil {
		out.LateFee.SetTo(pendingLateFeeOf(r.LateFee)) // admin_late_fees.go
	}
	out.SubscriptionID.SetToNull()
	if r.Subscription != nil {
		out.SubscriptionID.SetTo(r.Subscription.ID)
		out.Collection.SetTo(api.RenewalRecoveryResponseDataCollection(r.Subscription.Collection))
	}
	out.Invoice.SetToNull()
	if in := r.Invoice; in != nil {
		iv := api.RenewalRecoveryInvoice{ID: in.ID, InvoiceNumber: in.Number, Status: api.RenewalRecoveryInvoiceStatus(in.Status),
			TotalMinor: in.TotalMinor, AmountPaidMinor: in.AmountPaidMinor, BalanceMinor: billing.Balance(in),
			Currency: in.Currency, DueDate: in.DueDate, FailedAt: nilTimeOf(in.FailedAt),
			FailureCode: nilStringPtr(in.FailureCode), DeclineCode: nilStringPtr(in.DeclineCode), AttemptCount: in.AttemptCount}
		out.Invoice.SetTo(iv)
	}
	return &api.RenewalRecoveryResponse{Data: out}, nil
}

// ChargeAdminRenewalRecovery implements api.Handler.
func (h *Handler) ChargeAdminRenewalRecovery(ctx context.Context, req api.OptRenewalRecoveryChargeRequest, p api.ChargeAdminRenewalRecoveryParams) (*api.RenewalRecoveryChargeResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	cp := billing.RecoveryChargeParams{PassID: p.ID}
	if v, ok := req.Get(); ok {
		if v.ExpectedAmountMinor.Set {
			cp.Expected = &v.ExpectedAmountMinor.Value
		}
		cp.PaymentMethod = v.PaymentMethodID.Value
	}
	inv, res, err := h.billing().RecoveryCharge(ctx, cp)
	if err != nil {
		return nil, err
	}
	ps, err := h.billing().RenewalRecovery(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	out := api.RenewalRecoveryChargeResponseData{Status: api.RenewalRecoveryChargeResponseDataStatus(res.Status),
		AlreadySettled: res.AlreadySettled, InvoiceID: inv.ID, InvoiceStatus: string(inv.Status), PassID: p.ID,
		PassStatus: api.RenewalRecoveryChargeResponseDataPassStatus(ps.Pass.Status)}
	if res.LateFee != "" {
		out.LateFeeStatus.SetTo(api.RenewalRecoveryChargeResponseDataLateFeeStatus(res.LateFee))
	}
	out.ValidTo.SetToNull()
	if ps.Pass.ValidTo != nil {
		out.ValidTo.SetTo(*ps.Pass.ValidTo)
	}
	return &api.RenewalRecoveryChargeResponse{Data: out}, nil
}

// SendAdminRenewalPaymentLink implements api.Handler.
func (h *Handler) SendAdminRenewalPaymentLink(ctx context.Context, req *api.RenewalPaymentLinkRequest, p api.SendAdminRenewalPaymentLinkParams) (*api.RenewalPaymentLinkResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	lp := billing.PayLinkParams{PassID: p.ID, Message: req.Message.Value}
	if n, ok := req.Notify.Get(); ok {
		lp.Clients = n.Audience.Value.Clients.Value
		lp.Email = n.Channels.Value.Email.Value
		lp.SMS = n.Channels.Value.SMS.Value
	}
	res, err := h.billing().SendRenewalPayLink(ctx, lp)
	if err != nil {
		return nil, err
	}
	out := api.RenewalPaymentLinkResponseData{InvoiceID: res.Invoice.ID, InvoiceNumber: res.Invoice.Number, Queued: res.Queued,
		PayPath: billing.PayPath(res.Invoice.ID), Channels: make([]api.RenewalPaymentLinkResponseDataChannelsItem, 0, len(res.Channels))}
	for _, ch := range res.Channels {
		out.Channels = append(out.Channels, api.RenewalPaymentLinkResponseDataChannelsItem(ch))
	}
	return &api.RenewalPaymentLinkResponse{Data: out}, nil
}

func subscriptionSummary(s *ent.Subscription) api.SubscriptionSummary {
	return api.SubscriptionSummary{ID: s.ID, ProcessorStatus: s.ProcessorStatus, Collection: api.SubscriptionSummaryCollection(s.Collection),
		AmountMinor: s.AmountMinor, Currency: s.Currency,
		Interval: api.SubscriptionSummaryInterval(s.Interval), IntervalCount: s.IntervalCount,
		CurrentPeriodEnd: nilTimeOf(s.CurrentPeriodEnd), NextChargeAt: nilTimeOf(s.NextChargeAt), CanceledAt: nilTimeOf(s.CanceledAt)}
}

// GetAdminSubscriptionTimeline implements api.Handler.
func (h *Handler) GetAdminSubscriptionTimeline(ctx context.Context, p api.GetAdminSubscriptionTimelineParams) (*api.SubscriptionTimelineResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	tl, err := h.billing().SubscriptionTimeline(ctx, p.ID)
	if err != nil {
		return nil, err
	}
	out := api.SubscriptionTimelineResponseData{PassID: tl.Pass.ID, PassStatus: api.SubscriptionTimelineResponseDataPassStatus(tl.Pass.Status),
		Subscription: subscriptionSummary(tl.Subscription),
		Invoices:     make([]api.SubscriptionTimelineInvoice, 0, len(tl.Invoices)),
		Changes:      make([]api.SubscriptionTimelineChange, 0, len(tl.Changes))}
	out.ValidTo.SetToNull()
	if tl.Pass.ValidTo != nil {
		out.ValidTo.SetTo(*tl.Pass.ValidTo)
	}
	for _, in := range tl.Invoices {
		iv := api.SubscriptionTimelineInvoice{ID: in.ID, InvoiceNumber: in.Number, Status: string(in.Status), TotalMinor: in.TotalMinor,
			AmountPaidMinor: in.AmountPaidMinor, Currency: in.Currency, IssuedAt: in.IssuedAt.UTC(),
			PeriodStart: nilTimeOf(in.PeriodStart), PeriodEnd: nilTimeOf(in.PeriodEnd), PaidAt: nilTimeOf(in.PaidAt)}
		iv.Settlement.SetToNull()
		if in.Settlement != nil {
			iv.Settlement.SetTo(api.SubscriptionTimelineInvoiceSettlement(*in.Settlement))
		}
		out.Invoices = append(out.Invoices, iv)
	}
	for _, c := range tl.Changes {
		out.Changes = append(out.Changes, api.SubscriptionTimelineChange{At: c.CreatedAt.UTC(), Action: c.Action, Actor: c.Actor,
			Details: auditDetails(c.Details)})
	}
	return &api.SubscriptionTimelineResponse{Data: out}, nil
}

func (h *Handler) subscriptionChange(ctx context.Context, s *ent.Subscription) (*api.SubscriptionChangeResponse, error) {
	ps, err := h.billing().RenewalRecovery(ctx, s.PassID)
	if err != nil {
		return nil, err
	}
	out := api.SubscriptionChangeResponseData{PassID: s.PassID, Subscription: subscriptionSummary(s)}
	out.ValidTo.SetToNull()
	if ps.Pass.ValidTo != nil {
		out.ValidTo.SetTo(*ps.Pass.ValidTo)
	}
	return &api.SubscriptionChangeResponse{Data: out}, nil
}

// ShiftAdminNextCharge implements api.Handler.
func (h *Handler) ShiftAdminNextCharge(ctx context.Context, req *api.ShiftNextChargeRequest, p api.ShiftAdminNextChargeParams) (*api.SubscriptionChangeResponse, error) {
	if err := billing.Authorize(ctx, billing.PermBillingManage); err != nil {
		return nil, err
	}
	s, err := h.billing().ShiftNextCharge(ctx, p.ID, req.NewDate, req.Reason.Value)
	if err != nil {
		return nil, err
	}
	return h.subscriptionChange(ctx, s)
}

// ChangeAdminRecurringAmount implements api.Handler.
func (h *Handler) ChangeAdminRecurringAmount(ctx context.Context, req *api.RecurringAmountRequest, p api.ChangeAdminRecurringAmountParams) (*api.SubscriptionChangeResponse, error) {
	if err := billing.Authorize(ctx, billing.PermBillingManage); err != nil {
		return nil, err
	}
	s, err := h.billing().ChangeRecurringAmount(ctx, p.ID, req.AmountMinor, req.Reason.Value)
	if err != nil {
		return nil, err
	}
	return h.subscriptionChange(ctx, s)
}

// ReactivateAdminPass implements api.Handler.
func (h *Handler) ReactivateAdminPass(ctx context.Context, req *api.ReactivatePassRequest, p api.ReactivateAdminPassParams) (*api.AdminPassStatusResponse, error) {
	if err := billing.Authorize(ctx, billing.PermPassesManage); err != nil {
		return nil, err
	}
	ps, err := h.billing().Reactivate(ctx, p.ID, req.NewEndDate, req.Reason.Value)
	if err != nil {
		return nil, err
	}
	return passStatusResponse(ps), nil
}

// auditDetails presents an audit entry's details as a JSON object.
func auditDetails(m map[string]any) api.SubscriptionTimelineChangeDetails {
	out := api.SubscriptionTimelineChangeDetails{}
	for k, v := range m {
		if raw, err := json.Marshal(v); err == nil {
			out[k] = jx.Raw(raw)
		}
	}
	return out
}

package handlers

import (
	"bytes"
	"context"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/pagination"
)

// invoiceLimits are the contract's cursor list limits (default 20, max 100).
var invoiceLimits = pagination.CursorRule{DefaultLimit: 20, MaxLimit: 100}

func (h *Handler) billing() *billing.Service { return billing.New(h.payments()) }

// cardsOn says whether the viewer's venue takes card payments now (the
// installation has a Stripe key and the venue a connected account that may
// charge): an unpaid invoice can be paid now only then.
func (h *Handler) cardsOn(ctx context.Context) bool {
	_, err := h.payments().Chargeable(ctx)
	return err == nil
}

// invoiceRow presents an invoice as the contract's invoice row; cards says
// whether the venue takes card payments now.
func (h *Handler) invoiceRow(row *ent.Invoice, cards bool) api.InvoiceRow {
	bal := billing.Balance(row)
	out := api.InvoiceRow{ID: row.ID, InvoiceNumber: row.Number, Status: api.InvoiceRowStatus(row.Status),
		Total: money.ToMajor(row.TotalMinor, row.Currency), TotalMinor: row.TotalMinor,
		AmountPaid: money.ToMajor(row.AmountPaidMinor, row.Currency), AmountPaidMinor: row.AmountPaidMinor,
		Currency: row.Currency, IssuedAt: row.IssuedAt.UTC(), DueDate: row.DueDate, CreatedAt: row.CreatedAt.UTC(),
		OutstandingBalance: money.ToMajor(bal, row.Currency), OutstandingBalanceMinor: bal,
		DocumentPath: "/api/v1/me/invoices/" + row.ID.String() + "/document"}
	out.PdfURL.SetToNull()
	if row.PaidAt != nil {
		out.PaidAt = api.NewNilDateTime(row.PaidAt.UTC())
	} else {
		out.PaidAt.SetToNull()
	}
	out.PayNowUnavailableReason.SetToNull()
	if bal > 0 && row.ProcessorInvoiceID != nil {
		out.CanPayNow = cards
		if !out.CanPayNow {
			out.PayNowUnavailableReason.SetTo(api.InvoiceRowPayNowUnavailableReasonCardPaymentsUnavailable)
		}
	}
	return out
}

func (h *Handler) invoiceDetail(row *ent.Invoice, cards bool) api.InvoiceDetail {
	r := h.invoiceRow(row, cards)
	d := api.InvoiceDetail{ID: r.ID, InvoiceNumber: r.InvoiceNumber, Status: api.InvoiceDetailStatus(r.Status),
		Total: r.Total, TotalMinor: r.TotalMinor, AmountPaid: r.AmountPaid, AmountPaidMinor: r.AmountPaidMinor,
		Currency: r.Currency, IssuedAt: r.IssuedAt, DueDate: r.DueDate, PaidAt: r.PaidAt, PdfURL: r.PdfURL,
		CreatedAt: r.CreatedAt, OutstandingBalance: r.OutstandingBalance, OutstandingBalanceMinor: r.OutstandingBalanceMinor,
		CanPayNow: r.CanPayNow, DocumentPath: r.DocumentPath,
		Totals: api.InvoiceTotals{SubtotalMinor: row.SubtotalMinor, DiscountMinor: row.DiscountMinor,
			VatMinor: row.VatMinor, TotalMinor: row.TotalMinor, AmountPaidMinor: row.AmountPaidMinor},
		Lines: make([]api.InvoiceLine, 0, len(row.Lines))}
	d.PayNowUnavailableReason.SetToNull()
	if v, ok := r.PayNowUnavailableReason.Get(); ok {
		d.PayNowUnavailableReason.SetTo(api.InvoiceDetailPayNowUnavailableReason(v))
	}
	for _, l := range row.Lines {
		line := api.InvoiceLine{Description: l.Description, Quantity: l.Quantity, AmountMinor: l.AmountMinor,
			VatMinor: l.VatMinor, VatRateBp: l.VatRateBp}
		line.PeriodStart.SetToNull()
		line.PeriodEnd.SetToNull()
		if l.PeriodStart != "" {
			line.PeriodStart.SetTo(l.PeriodStart)
		}
		if l.PeriodEnd != "" {
			line.PeriodEnd.SetTo(l.PeriodEnd)
		}
		d.Lines = append(d.Lines, line)
	}
	return d
}

// ListMyInvoices implements api.Handler.
func (h *Handler) ListMyInvoices(ctx context.Context, p api.ListMyInvoicesParams) (*api.InvoiceListResponse, error) {
	limit, err := invoiceLimits.ParseLimit(pagination.Value(p.Limit.Value, p.Limit.Set))
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
	rows, meta, err := h.billing().MyInvoices(mctx, mid, signer, limit, p.After.Value)
	if err != nil {
		return nil, err
	}
	out := &api.InvoiceListResponse{Data: make([]api.InvoiceRow, 0, len(rows)),
		Meta: api.InvoiceListMeta{Limit: meta.Limit, HasMore: meta.HasMore}}
	if meta.NextCursor != nil {
		out.Meta.NextCursor = api.NewNilString(*meta.NextCursor)
	} else {
		out.Meta.NextCursor.SetToNull()
	}
	cards := h.cardsOn(mctx)
	for _, r := range rows {
		out.Data = append(out.Data, h.invoiceRow(r, cards))
	}
	return out, nil
}

// GetMyInvoice implements api.Handler.
func (h *Handler) GetMyInvoice(ctx context.Context, p api.GetMyInvoiceParams) (*api.InvoiceDetailResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	row, err := h.billing().MyInvoice(mctx, mid, p.ID, true)
	if err != nil {
		return nil, err
	}
	return &api.InvoiceDetailResponse{Data: h.invoiceDetail(row, h.cardsOn(mctx))}, nil
}

// GetMyInvoiceDocument implements api.Handler.
func (h *Handler) GetMyInvoiceDocument(ctx context.Context, p api.GetMyInvoiceDocumentParams) (api.GetMyInvoiceDocumentOK, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return api.GetMyInvoiceDocumentOK{}, err
	}
	b := h.billing()
	row, err := b.MyInvoice(mctx, mid, p.ID, true)
	if err != nil {
		return api.GetMyInvoiceDocumentOK{}, err
	}
	doc, err := b.Document(mctx, row)
	if err != nil {
		return api.GetMyInvoiceDocumentOK{}, err
	}
	return api.GetMyInvoiceDocumentOK{Data: bytes.NewReader(doc)}, nil
}

func retryResponse(r *billing.RetryResult) *api.InvoiceRetryResponse {
	out := api.InvoiceRetryResult{Status: api.InvoiceRetryResultStatus(r.Status), InvoiceID: r.InvoiceID, AlreadySettled: r.AlreadySettled}
	opt := func(s string) api.OptNilString {
		var o api.OptNilString
		if s == "" {
			o.SetToNull()
		} else {
			o.SetTo(s)
		}
		return o
	}
	out.PaymentIntentID = opt(r.IntentID)
	out.FailureCode, out.DeclineCode = opt(r.FailureCode), opt(r.DeclineCode)
	if r.Status == billing.RetryRequiresAction {
		out.ClientSecret, out.ProcessorAccountID = opt(r.ClientSecret), opt(r.AccountID)
	} else {
		out.ClientSecret, out.ProcessorAccountID = opt(""), opt("")
	}
	if r.NextStep != "" {
		out.NextStep.SetTo(api.InvoiceRetryResultNextStep(r.NextStep))
	} else {
		out.NextStep.SetToNull()
	}
	return &api.InvoiceRetryResponse{Data: out}
}

// RetryMyInvoice implements api.Handler.
func (h *Handler) RetryMyInvoice(ctx context.Context, req api.OptInvoiceRetryRequest, p api.RetryMyInvoiceParams) (*api.InvoiceRetryResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	rp := billing.RetryParams{InvoiceID: p.ID, MemberID: &mid}
	if v, ok := req.Get(); ok && v.ExpectedAmountMinor.Set {
		rp.Expected = &v.ExpectedAmountMinor.Value
	}
	res, err := h.billing().Retry(mctx, rp)
	if err != nil {
		return nil, err
	}
	return retryResponse(res), nil
}

// ConfirmMyInvoiceRetry implements api.Handler.
func (h *Handler) ConfirmMyInvoiceRetry(ctx context.Context, req *api.InvoiceRetryConfirmRequest, p api.ConfirmMyInvoiceRetryParams) (*api.InvoiceRetryConfirmResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	st, reason, err := h.billing().ConfirmRetry(mctx, mid, p.ID, req.PaymentIntentID)
	if err != nil {
		return nil, err
	}
	out := api.InvoiceRetryConfirmResponseData{Status: api.InvoiceRetryConfirmResponseDataStatus(st)}
	if reason != "" {
		out.Reason.SetTo(api.InvoiceRetryConfirmResponseDataReason(reason))
	} else {
		out.Reason.SetToNull()
	}
	return &api.InvoiceRetryConfirmResponse{Data: out}, nil
}

func nilStringPtr(p *string) api.NilString {
	if p == nil {
		return api.NilString{Null: true}
	}
	return api.NewNilString(*p)
}

// ListMyFailedPayments implements api.Handler.
func (h *Handler) ListMyFailedPayments(ctx context.Context, p api.ListMyFailedPaymentsParams) (*api.FailedPaymentListResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	rows, err := h.billing().FailedPayments(mctx, &mid, time.Time{}, 10)
	if err != nil {
		return nil, err
	}
	out := &api.FailedPaymentListResponse{Data: make([]api.FailedPayment, 0, len(rows))}
	for _, r := range rows {
		pay := r.Payment
		item := api.FailedPayment{ID: pay.ID, Amount: money.ToMajor(pay.AmountMinor, pay.Currency), AmountMinor: pay.AmountMinor,
			Currency: pay.Currency, FailedAt: pay.CreatedAt.UTC()}
		item.InvoiceID.SetToNull()
		item.InvoiceNumber.SetToNull()
		item.FailureCode.SetToNull()
		item.DeclineCode.SetToNull()
		item.NextStep.SetToNull()
		if pay.PassID != nil {
			item.PassID = api.NewNilUUID(*pay.PassID)
		} else {
			item.PassID.SetToNull()
		}
		if in := r.Invoice; in != nil {
			item.InvoiceID = api.NewNilUUID(in.ID)
			item.InvoiceNumber = api.NewNilString(in.Number)
			item.FailureCode, item.DeclineCode = nilStringPtr(in.FailureCode), nilStringPtr(in.DeclineCode)
			if billing.Balance(in) > 0 {
				item.NextStep.SetTo(api.FailedPaymentNextStepUpdateCard)
			}
		}
		out.Data = append(out.Data, item)
	}
	fees, err := h.billing().LateFeeDeclines(mctx, mid, 10)
	if err != nil {
		return nil, err
	}
	for _, d := range fees {
		out.Data = append(out.Data, lateFeeDeclineRow(d)) // late_fee_member.go
	}
	sort.SliceStable(out.Data, func(i, j int) bool { return out.Data[i].FailedAt.After(out.Data[j].FailedAt) })
	if len(out.Data) > 10 {
		out.Data = out.Data[:10]
	}
	return out, nil
}

// GetMyOutstandingPayments implements api.Handler.
func (h *Handler) GetMyOutstandingPayments(ctx context.Context, p api.GetMyOutstandingPaymentsParams) (*api.OutstandingPaymentsResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	rows, err := h.billing().MyOutstanding(mctx, mid)
	if err != nil {
		return nil, err
	}
	declined, err := h.billing().DeclinedLateFees(mctx, mid)
	if err != nil {
		return nil, err
	}
	var cards []api.OutstandingCard
	cardsRead := false
	if len(rows) > 0 || len(declined) > 0 {
		if saved, err := h.payments().Cards(mctx, mid); err == nil {
			cardsRead = true
			subCards := map[string]bool{}
			for _, o := range rows {
				if o.Subscription != nil && o.Subscription.PaymentMethodID != nil {
					subCards[*o.Subscription.PaymentMethodID] = true
				}
			}
			cards = make([]api.OutstandingCard, 0, len(saved))
			for _, c := range saved {
				cards = append(cards, api.OutstandingCard{ID: c.ID, Brand: c.Brand, Last4: c.Last4,
					ExpMonth: int(c.ExpMonth), ExpYear: int(c.ExpYear), IsDefault: c.IsDefault, IsSubscriptionCard: subCards[c.ID]})
			}
		}
	}
	ids := make([]uuid.UUID, 0, len(rows))
	for _, o := range rows {
		ids = append(ids, o.Invoice.ID)
	}
	lateFees, err := h.billing().PendingLateFeesOf(mctx, ids)
	if err != nil {
		return nil, err
	}
	today := h.now().UTC()
	data := api.OutstandingPaymentsResponseData{Items: make([]api.OutstandingItem, 0, len(rows))}
	totals := map[string]*api.OutstandingTotal{}
	var order []string
	for _, o := range rows {
		in := o.Invoice
		bal := billing.Balance(in)
		kind := api.OutstandingItemKindOverdueInvoice
		if in.SubscriptionID != nil && in.FailedAt != nil {
			kind = api.OutstandingItemKindMembershipRenewal
		} else if !in.DueDate.Before(time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)) {
			continue // not yet due and not declined: nothing outstanding
		}
		path := "/api/v1/me/invoices/" + in.ID.String() + "/retry"
		item := api.OutstandingItem{Kind: kind, ID: in.ID, StateKey: "invoice_" + string(in.Status),
			OrganizationID: in.OrganizationID, Title: "Invoice " + in.Number, Status: string(in.Status),
			Amount: money.ToMajor(bal, in.Currency), AmountMinor: bal, Currency: in.Currency, DueDate: in.DueDate,
			DaysOverdue: overdueDays(in.DueDate, today), FailureCode: nilStringPtr(in.FailureCode),
			DeclineCode: nilStringPtr(in.DeclineCode), InvoiceNumber: api.NewNilString(in.Number),
			Action: api.OutstandingAction{Type: api.OutstandingActionTypeRetryInvoice, Method: "POST", Path: path,
				ConfirmPath: api.NewNilString(path + "/confirm"), AcceptsPaymentMethodID: false,
				PaymentMethodsPath: "/api/v1/me/payment-methods"}}
		item.PaymentID = nilUUIDOf(in.PaymentID)
		item.FailureMessage.SetToNull()
		item.LateFeeAmount.SetToNull()
		if f := lateFees[in.ID]; f != nil {
			item.LateFeeAmount.SetTo(money.ToMajor(f.AmountMinor, f.Currency))
		}
		item.NextStep.SetToNull()
		if in.FailedAt != nil {
			item.FailedAt = api.NewNilDateTime(in.FailedAt.UTC())
			item.FailureMessage = api.NewNilString("The card was declined.")
			item.NextStep.SetTo(api.OutstandingItemNextStepUpdateCard)
			if in.FailureCode != nil && *in.FailureCode == billing.AuthenticationRequired {
				item.FailureMessage = api.NewNilString("Your bank asks you to confirm the payment.")
				item.NextStep.SetToNull() // the retry answers requires_action with the client secret
			}
		} else {
			item.FailedAt.SetToNull()
		}
		item.NextBillingDate.SetToNull()
		if o.Subscription != nil && o.Subscription.NextChargeAt != nil {
			item.NextBillingDate.SetTo(o.Subscription.NextChargeAt.UTC())
		}
		if cardsRead {
			item.CardsOnFile = cards
		}
		if billing.IsExternallyBilled(o.Subscription) {
			externalItem(&item, in)
		}
		data.Items = append(data.Items, item)
		t := totals[in.Currency]
		if t == nil {
			t = &api.OutstandingTotal{Currency: in.Currency}
			totals[in.Currency] = t
			order = append(order, in.Currency)
		}
		t.AmountMinor += bal
		t.Count++
	}
	for _, d := range declined {
		item := declinedLateFeeItem(d, today, cards, cardsRead) // late_fee_member.go
		data.Items = append(data.Items, item)
		t := totals[item.Currency]
		if t == nil {
			t = &api.OutstandingTotal{Currency: item.Currency}
			totals[item.Currency] = t
			order = append(order, item.Currency)
		}
		t.AmountMinor += item.AmountMinor
		t.Count++
	}
	data.Count = len(data.Items)
	data.Totals = make([]api.OutstandingTotal, 0, len(order))
	for _, c := range order {
		t := totals[c]
		t.Amount = money.ToMajor(t.AmountMinor, c)
		data.Totals = append(data.Totals, *t)
	}
	return &api.OutstandingPaymentsResponse{Data: data}, nil
}

func overdueDays(due, now time.Time) int {
	d := int(now.Sub(due).Hours() / 24)
	if d < 0 {
		return 0
	}
	return d
}

// externalItem turns an outstanding item of an externally billed membership
// into one without a card action: the member pays the venue by other means,
// so the item reads the invoice and says to contact the venue.
func externalItem(item *api.OutstandingItem, in *ent.Invoice) {
	item.StateKey = "invoice_" + string(in.Status) + "_external"
	item.NextStep.SetTo(api.OutstandingItemNextStepContactVenue)
	item.Action = api.OutstandingAction{Type: api.OutstandingActionTypeContactVenue, Method: "GET",
		Path: "/api/v1/me/invoices/" + in.ID.String(), AcceptsPaymentMethodID: false, PaymentMethodsPath: "/api/v1/me/payment-methods"}
	item.Action.ConfirmPath.SetToNull()
	item.CardsOnFile = nil
}

package handlers

import (
	"time"

	"github.com/venueplatform/venue/internal/billing"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
)

// declinedLateFeeItem is a pending late fee whose own charge was declined,
// as an outstanding item: the member adds or changes a card (POST
// /me/payment-methods) and asks the venue, which settles or waives it.
func declinedLateFeeItem(d billing.DeclinedLateFee, today time.Time, cards []api.OutstandingCard, cardsRead bool) api.OutstandingItem {
	f, at := d.Fee, d.Attempt
	applied := f.AppliedAt.UTC()
	due := time.Date(applied.Year(), applied.Month(), applied.Day(), 0, 0, 0, 0, time.UTC)
	item := api.OutstandingItem{Kind: api.OutstandingItemKindDeclinedOneOffCharge, ID: f.ID, StateKey: "late_fee_pending",
		OrganizationID: f.OrganizationID, Title: "Late fee", Status: string(f.Status),
		Amount: money.ToMajor(f.AmountMinor, f.Currency), AmountMinor: f.AmountMinor, Currency: f.Currency,
		FailedAt: api.NewNilDateTime(at.UpdatedAt.UTC()), DueDate: due, DaysOverdue: overdueDays(due, today),
		FailureCode: nilStringPtr(at.FailureCode), FailureMessage: api.NewNilString("The card was declined."),
		DeclineCode: nilStringPtr(at.DeclineCode), LateFeeAmount: api.NewNilFloat64(money.ToMajor(f.AmountMinor, f.Currency)),
		Action: api.OutstandingAction{Type: api.OutstandingActionTypeUpdatePaymentMethod, Method: "POST",
			Path: "/api/v1/me/payment-methods", AcceptsPaymentMethodID: false, PaymentMethodsPath: "/api/v1/me/payment-methods"}}
	item.PaymentID.SetToNull()
	item.Action.ConfirmPath.SetToNull()
	item.NextStep.SetTo(api.OutstandingItemNextStepContactVenue)
	item.InvoiceNumber.SetToNull()
	if d.Invoice != nil {
		item.InvoiceNumber = api.NewNilString(d.Invoice.Number)
		item.Title = "Late fee for invoice " + d.Invoice.Number
	}
	item.NextBillingDate.SetToNull()
	if cardsRead {
		item.CardsOnFile = cards
	}
	return item
}

// lateFeeDeclineRow is one declined late fee charge as a failed payment:
// its id is the charge attempt's; next_step contact_venue while the fee is
// pending, null once paid or waived.
func lateFeeDeclineRow(d billing.LateFeeDecline) api.FailedPayment {
	f, at := d.Fee, d.Attempt
	item := api.FailedPayment{ID: at.ID, Amount: money.ToMajor(f.AmountMinor, f.Currency), AmountMinor: f.AmountMinor,
		Currency: f.Currency, FailedAt: at.UpdatedAt.UTC(), FailureCode: nilStringPtr(at.FailureCode),
		DeclineCode: nilStringPtr(at.DeclineCode), InvoiceID: api.NewNilUUID(f.InvoiceID)}
	item.InvoiceNumber.SetToNull()
	if d.Invoice != nil {
		item.InvoiceNumber = api.NewNilString(d.Invoice.Number)
	}
	item.PassID = nilUUIDOf(f.PassID)
	item.NextStep.SetToNull()
	if string(f.Status) == "pending" {
		item.NextStep.SetTo(api.FailedPaymentNextStepContactVenue)
	}
	return item
}

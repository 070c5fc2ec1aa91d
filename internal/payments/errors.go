package payments

import (
	"net/http"

	"github.com/venueplatform/venue/internal/apperr"
)

// Error codes of the contract that this package answers.
const (
	CodeUnavailable     = "CARD_PAYMENTS_UNAVAILABLE"
	CodeQuoteStale      = "QUOTE_STALE"
	CodePending         = "PAYMENT_PENDING"
	CodeUnknownOutcome  = "UNKNOWN_WRITE_OUTCOME"
	CodeDeclined        = "CHARGE_DECLINED"
	CodeNotCompleted    = "PAYMENT_NOT_COMPLETED"
	CodeAlreadyPaid     = "ALREADY_PAID"
	CodeStripeError     = "STRIPE_ERROR"
	CodeFlashSaleUnavai = "FLASH_SALE_UNAVAILABLE"
)

// Reasons of CARD_PAYMENTS_UNAVAILABLE (details.reason).
const (
	ReasonPaymentsDisabled = "payments_disabled" // the installation has no Stripe key
	ReasonConnectNotActive = "connect_not_active"
)

func unavailable(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeUnavailable,
		Message: "card payments are not available at this venue"}).With("reason", reason).With("next_step", nil)
}

func quoteStale(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodeQuoteStale,
		Message: "the quote is no longer valid; review the purchase again"}).With("reason", reason).With("next_step", "refresh")
}

func paymentPending() *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodePending,
		Message: "another payment of this purchase is in progress"}).With("next_step", "refresh")
}

func unknownOutcome() *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodeUnknownOutcome,
		Message: "the payment's outcome is not known yet; retry with the same Idempotency-Key and body, or reload"}).
		With("write_state", "unknown").With("next_step", "refresh")
}

func declined(code, decline string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusPaymentRequired, Code: CodeDeclined,
		Message: "the card was declined"}).With("failure_code", code).With("decline_code", decline).With("next_step", "update_card")
}

func notCompleted(status string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodeNotCompleted,
		Message: "the payment has not completed"}).With("payment_status", status).With("next_step", nil)
}

func alreadyPaid() *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeAlreadyPaid,
		Message: "this purchase is already paid"}).With("next_step", nil)
}

func stripeError() *apperr.Error {
	return (&apperr.Error{Status: http.StatusBadGateway, Code: CodeStripeError,
		Message: "the payment processor refused the request"}).With("next_step", "contact_venue")
}

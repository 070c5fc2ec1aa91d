package refunds

import (
	"net/http"

	"github.com/venueplatform/venue/internal/apperr"
)

// Error codes this package answers beyond the shared ones.
const (
	CodeReviewRequired         = "REFUND_REVIEW_REQUIRED"
	CodeExceedsRemaining       = "REFUND_EXCEEDS_REMAINING"
	CodeNotRefundable          = "PAYMENT_NOT_REFUNDABLE"
	CodeDestinationUnavailable = "REFUND_DESTINATION_UNAVAILABLE"
	CodeSMSUnavailable         = "REFUND_SMS_UNAVAILABLE"
	CodePushUnavailable        = "REFUND_PUSH_UNAVAILABLE"
	CodeRefundFailed           = "REFUND_FAILED"
)

// Staff permissions of refunds (the contract's names).
const (
	PermSameDay = "billing.refunds.same_day"
	PermFull    = "billing.refunds.full"
)

func reviewRequired(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodeReviewRequired,
		Message: "review the refund again before making it"}).With("reason", reason)
}

func exceeds(refundable int64) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeExceedsRemaining,
		Message: "the amount is more than the payment has left to refund"}).With("refundable_minor", refundable)
}

func notRefundable(status string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeNotRefundable,
		Message: "only a paid payment can be refunded"}).With("payment_status", status)
}

func destinationUnavailable(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeDestinationUnavailable,
		Message: "this payment cannot be refunded to the card that paid; refund it externally"}).With("reason", reason)
}

func cardPaymentsUnavailable(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: "CARD_PAYMENTS_UNAVAILABLE",
		Message: "card payments are not available at this venue"}).With("reason", reason)
}

func channelUnavailable(code, channel string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: code,
		Message: "refund receipts cannot be sent by " + channel + " at this venue"}).With("channel", channel)
}

func unknownOutcome() *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: "UNKNOWN_WRITE_OUTCOME",
		Message: "the refund's outcome is not known yet; retry with the same Idempotency-Key and body, or reload"}).
		With("write_state", "unknown")
}

func refundFailed(code string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusBadGateway, Code: CodeRefundFailed,
		Message: "the payment processor refused the refund; nothing was refunded"}).With("failure_code", code)
}

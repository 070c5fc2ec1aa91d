package billing

import (
	"context"
	"database/sql"
	"errors"
	"net/http"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/payments"
)

// Error codes of the contract that this package answers beyond payments'.
const (
	CodeNotRetryable           = "NOT_RETRYABLE"
	CodeBalanceChanged         = "BALANCE_CHANGED"
	CodeNoPaymentMethod        = "NO_PAYMENT_METHOD"
	CodeReconciliationRequired = "RECONCILIATION_REQUIRED"
	CodeNotSuspended           = "NOT_SUSPENDED"
	CodeNoOpenInvoice          = "NO_OPEN_INVOICE"
	CodeNoSubscription         = "NO_SUBSCRIPTION"
	CodeInvalidBillingDate     = "INVALID_BILLING_DATE"
	CodeNoStripeSubscription   = "NO_STRIPE_SUBSCRIPTION"
	CodeNoBillableItem         = "NO_BILLABLE_ITEM"
	CodePassNotEligible        = "PASS_ACTION_NOT_ELIGIBLE"
	CodeDBError                = "DB_ERROR"
)

// dbError answers an error that is not one of the contract's refusals (a
// database failure) as 500 DB_ERROR, its cause logged and never shown; a
// refusal, a cancelled request and nil pass through.
func dbError(err error) error {
	var ae *apperr.Error
	if err == nil || errors.As(err, &ae) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	if ent.IsNotFound(err) || ent.IsConstraintError(err) || ent.IsValidationError(err) {
		return err
	}
	return &apperr.Error{Status: http.StatusInternalServerError, Code: CodeDBError,
		Message: "the change could not be saved; retry with the same Idempotency-Key", Cause: err}
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

func refusal(status int, code, msg string, next any) *apperr.Error {
	return (&apperr.Error{Status: status, Code: code, Message: msg}).With("next_step", next)
}

func invoiceNotFound() *apperr.Error {
	return apperr.NotFound("invoice").With("next_step", nil)
}

func alreadyPaid() *apperr.Error {
	return refusal(http.StatusUnprocessableEntity, payments.CodeAlreadyPaid, "this invoice is already paid", nil)
}

func notRetryable(reason string) *apperr.Error {
	return refusal(http.StatusUnprocessableEntity, CodeNotRetryable, "this invoice cannot be paid by card here", "contact_venue").With("reason", reason)
}

func balanceChanged(balance int64) *apperr.Error {
	return refusal(http.StatusConflict, CodeBalanceChanged, "the amount due has changed; review it and retry", "refresh").
		With("outstanding_balance_minor", balance)
}

func unavailable(reason string) *apperr.Error {
	return refusal(http.StatusUnprocessableEntity, payments.CodeUnavailable, "card payments are not available at this venue", nil).
		With("reason", reason)
}

func noPaymentMethod() *apperr.Error {
	return refusal(http.StatusUnprocessableEntity, CodeNoPaymentMethod, "no saved card to charge", "update_card")
}

func paymentPending() *apperr.Error {
	return refusal(http.StatusConflict, payments.CodePending, "another payment of this invoice is in progress", "refresh")
}

func reconciliationRequired() *apperr.Error {
	return refusal(http.StatusConflict, CodeReconciliationRequired, "an earlier payment's outcome is being checked; reload later", "refresh")
}

func stripeError() *apperr.Error {
	return refusal(http.StatusBadGateway, payments.CodeStripeError, "the payment processor refused the request", "contact_venue")
}

package appointments

import (
	"net/http"

	"github.com/venueplatform/venue/internal/apperr"
)

// Error codes of the appointment rules (the contract's where it names one).
const (
	CodeSlotUnavailable      = "SLOT_UNAVAILABLE"
	CodeSelfServiceCutoff    = "SELF_SERVICE_CUTOFF"
	CodeGroupedVisit         = "GROUPED_VISIT_REQUIRES_VISIT_ACTION"
	CodeNotCancellable       = "NOT_CANCELLABLE"
	CodePaymentRequired      = "PAYMENT_REQUIRED"
	CodeInvalidTransition    = "INVALID_TRANSITION"
	CodeSettingsUnavailable  = "APPOINTMENT_SETTINGS_UNAVAILABLE"
	CodeServiceNotBookable   = "SERVICE_NOT_BOOKABLE"
	CodeProviderNotAssigned  = "PROVIDER_NOT_ASSIGNED"
	CodePassNotUsable        = "PASS_NOT_USABLE"
	CodeVisitServicesInvalid = "VALIDATION_ERROR"
)

// Blocked reasons of the cancel preview (the contract's values).
const (
	BlockedNotCancellable  = "not_cancellable"
	BlockedSelfService     = "self_service_cutoff"
	BlockedGroupedVisit    = "grouped_visit_requires_visit_action"
	ReasonSlotTaken        = "taken"
	ReasonSlotNotOffered   = "not_offered"
	ReasonPassNotActive    = "not_active"
	ReasonPassNoClips      = "no_clips"
	ReasonPassNotValidDate = "not_valid_on_date"
)

func unprocessable(code, message string) *apperr.Error {
	return &apperr.Error{Status: http.StatusUnprocessableEntity, Code: code, Message: message}
}

// ErrNotFound is an unknown, foreign or another member's appointment.
var ErrNotFound = apperr.NotFound("appointment")

// ErrServiceNotFound is an unknown, foreign or inactive service (or variant).
var ErrServiceNotFound = apperr.NotFound("service")

// ErrProviderNotFound is an unknown or foreign provider.
var ErrProviderNotFound = apperr.NotFound("provider")

func slotUnavailable(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodeSlotUnavailable,
		Message: "the time is not available for this service and provider"}).With("reason", reason)
}

func notCancellable(status string) *apperr.Error {
	return unprocessable(CodeNotCancellable, "the appointment cannot be cancelled").With("reason", status)
}

func invalidTransition(from, action string) *apperr.Error {
	return unprocessable(CodeInvalidTransition, "the action does not apply to the appointment's status").
		With("status", from).With("action", action)
}

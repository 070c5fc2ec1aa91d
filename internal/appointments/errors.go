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
	CodeRefundRequired       = "REFUND_REQUIRED"
	CodePackageRequiresStaff = "PACKAGE_REQUIRES_STAFF"
)

// Blocked reasons of the cancel preview (the contract's values).
const (
	BlockedNotCancellable  = "not_cancellable"
	BlockedSelfService     = "self_service_cutoff"
	BlockedGroupedVisit    = "grouped_visit_requires_visit_action"
	BlockedRefundRequired  = "refund_required"
	BlockedPackageStaff    = "package_requires_staff"
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

// refundRequired refuses a member's cancel of a booking paid online: giving
// the money back is the venue's (staff cancel and refund it).
func refundRequired(paid int64, currency string) *apperr.Error {
	return unprocessable(CodeRefundRequired, "this booking was paid online; the venue cancels it and refunds the payment").
		With("paid_minor", paid).With("currency", currency).With("next_step", "contact_venue")
}

// packageRequiresStaff refuses a member's cancel of a combo package paid
// online.
func packageRequiresStaff(visit string) *apperr.Error {
	return unprocessable(CodePackageRequiresStaff, "this package was paid online; the venue cancels it").
		With("visit_id", visit).With("next_step", "contact_venue")
}

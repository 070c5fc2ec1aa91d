package schedule

import (
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
)

// Error codes of the staff schedule beyond apperr's.
const (
	CodeInvalidRange        = "INVALID_RANGE"
	CodeClassEnded          = "CLASS_ENDED"
	CodeClassNotEnded       = "CLASS_NOT_ENDED"
	CodeClassCancelled      = "CLASS_CANCELLED"
	CodeCapacityBelowBooked = "CAPACITY_BELOW_BOOKED"
	CodeChannelRequired     = "CHANNEL_REQUIRED"
	CodeChannelNotAllowed   = "CHANNEL_NOT_ALLOWED"
	CodeScopeMismatch       = "CLASS_SCOPE_MISMATCH"
	CodeValidationFailed    = "VALIDATION_FAILED"
	CodeInvalidTransition   = "INVALID_TRANSITION"
	CodeConfirmRequired     = "HISTORY_CONFIRMATION_REQUIRED"
	CodeConfirmInvalid      = "HISTORY_CONFIRMATION_INVALID"
)

// Reasons of ACCESS_DENIED answered here.
const (
	ReasonPermission     = "permission"
	ReasonStaffSession   = "staff_session_required"
	ReasonNotifySession  = "notifications_need_staff_session"
	ReasonNoOrganization = "no_active_organization"
)

func unprocessable(code, message string) *apperr.Error {
	return &apperr.Error{Status: http.StatusUnprocessableEntity, Code: code, Message: message}
}

// ErrClassEnded is the refusal of an ordinary write on a historical class.
func ErrClassEnded() *apperr.Error {
	return unprocessable(CodeClassEnded, "the class has ended; change its record through a historical correction").
		With("next_step", "historical_correction")
}

// ErrClassCancelled is the refusal of a write on a cancelled class.
func ErrClassCancelled() *apperr.Error {
	return unprocessable(CodeClassCancelled, "the class is cancelled")
}

// ErrCapacityBelowBooked refuses a capacity under the seats already held.
func ErrCapacityBelowBooked(booked int) *apperr.Error {
	return unprocessable(CodeCapacityBelowBooked, "capacity is below the seats already booked").
		With("booked_count", booked)
}

// ErrScopeMismatch refuses a bulk request naming classes outside the venue.
func ErrScopeMismatch(ids []uuid.UUID) *apperr.Error {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.String()
	}
	return unprocessable(CodeScopeMismatch, "some classes are not classes of this venue").With("class_ids", s)
}

// ErrInvalidRange is a 400 INVALID_RANGE naming the parameter at fault.
func ErrInvalidRange(parameter, message string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusBadRequest, Code: CodeInvalidRange, Message: message}).With("parameter", parameter)
}

// validationFailed is a 422 VALIDATION_FAILED with a reason.
func validationFailed(reason, message string) *apperr.Error {
	return unprocessable(CodeValidationFailed, message).With("reason", reason)
}

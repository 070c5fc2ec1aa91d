package frontdesk

import (
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
)

// Error codes of the front desk.
const (
	CodeClassCancelled        = "CLASS_CANCELLED"
	CodeFutureAttendance      = "FUTURE_ATTENDANCE"
	CodeEndedConfirmation     = "ENDED_CLASS_CONFIRMATION_REQUIRED"
	CodeInvalidTransition     = "INVALID_TRANSITION"
	CodeRefundReviewRequired  = "REFUND_REVIEW_REQUIRED"
	CodeCheckinClosed         = "CHECKIN_CLOSED"
	CodePassShiftConflict     = "PASS_SHIFT_CONFLICT"
	CodePassReassignError     = "PASS_REASSIGN_ERROR"
	CodeReassignUnresolved    = "booking_reassign_unresolved"
	CodeAttemptNotPending     = "ATTEMPT_NOT_PENDING"
	CodeValidationFailed      = "VALIDATION_FAILED"
	checkinOpensBeforeStart   = 60 * time.Minute
	reasonNoClips             = "no_clips"
	nextStepCloseAttempt      = "close_attempt"
	nextStepAttendanceCorrect = "attendance_correction"
)

func unprocessable(code, message string) *apperr.Error {
	return &apperr.Error{Status: http.StatusUnprocessableEntity, Code: code, Message: message}
}

func errClassCancelled() *apperr.Error {
	return unprocessable(CodeClassCancelled, "the class is cancelled")
}

func errInvalidTransition(status string) *apperr.Error {
	return unprocessable(CodeInvalidTransition, "the booking's status does not allow this").With("status", status)
}

func errReassign(reason string) *apperr.Error {
	return unprocessable(CodePassReassignError, "the pass cannot fund this booking").With("reason", reason)
}

func errUnresolved(attempt uuid.UUID) *apperr.Error {
	return (&apperr.Error{Status: http.StatusServiceUnavailable, Code: CodeReassignUnresolved,
		Message: "an earlier reassignment of this booking is unresolved; close it first"}).
		With("attempt_id", attempt.String()).With("next_step", nextStepCloseAttempt)
}

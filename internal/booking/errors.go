package booking

import (
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
)

// Error codes of the booking rules (the contract's where it names one).
const (
	CodeClassNotFound        = "CLASS_NOT_FOUND"
	CodeClientNotFound       = "CLIENT_NOT_FOUND"
	CodePassBrandRestricted  = "PASS_BRAND_RESTRICTED"
	CodeClassTypeRestricted  = "CLASS_TYPE_RESTRICTED"
	CodePassNotUsable        = "PASS_NOT_USABLE"
	CodePassRequired         = "PASS_REQUIRED"
	CodeClassNotBookable     = "CLASS_NOT_BOOKABLE"
	CodeBookingNotOpen       = "BOOKING_NOT_OPEN"
	CodeBookingClosed        = "BOOKING_CLOSED"
	CodeDailyLimit           = "DAILY_LIMIT_REACHED"
	CodeAlreadyBooked        = "ALREADY_BOOKED"
	CodeNotCancellable       = "NOT_CANCELLABLE"
	CodeInviterNotConfirmed  = "INVITER_NOT_CONFIRMED"
	CodeInviteNotPending     = "INVITE_NOT_PENDING"
	CodeWatchNotOpen         = "WATCH_NOT_OPEN"
	CodeWatchClosed          = "WATCH_CLOSED"
	CodeWatchUnavailable     = "WATCH_UNAVAILABLE"
	CodeRestrictionUnchecked = "PASS_RESTRICTION_UNVERIFIED"
)

// Reasons of PASS_NOT_USABLE (details.reason).
const (
	ReasonNotActive      = "not_active"
	ReasonNotStarted     = "not_started"
	ReasonExpired        = "expired"
	ReasonNoClips        = "no_clips"
	ReasonOnlineExcluded = "online_not_included"
	ReasonInPersonExcl   = "in_person_not_included"
)

func unprocessable(code, message string) *apperr.Error {
	return &apperr.Error{Status: http.StatusUnprocessableEntity, Code: code, Message: message}
}

// ErrClassNotFound is an unknown, foreign or unlisted class.
var ErrClassNotFound = &apperr.Error{Status: http.StatusNotFound, Code: CodeClassNotFound, Message: "class not found"}

// ErrBookingNotFound is an unknown, foreign or another member's booking.
var ErrBookingNotFound = apperr.NotFound("booking")

// ErrClientNotFound is an unknown member or client id named by an API key.
var ErrClientNotFound = &apperr.Error{Status: http.StatusNotFound, Code: CodeClientNotFound, Message: "client not found"}

// ErrNotMember is a user without an active relationship with the venue.
var ErrNotMember = apperr.AccessDenied("not_a_member", "an active relationship with the venue is required")

func classNotBookable(reason string) *apperr.Error {
	return unprocessable(CodeClassNotBookable, "the class cannot be booked").With("reason", reason)
}

func notOpen(opens time.Time) *apperr.Error {
	return unprocessable(CodeBookingNotOpen, "booking for this class has not opened yet").
		With("opens_at", opens.UTC().Format(time.RFC3339))
}

func closed(closes time.Time) *apperr.Error {
	return unprocessable(CodeBookingClosed, "booking for this class has closed").
		With("closes_at", closes.UTC().Format(time.RFC3339))
}

func dailyLimit(limit int) *apperr.Error {
	return unprocessable(CodeDailyLimit, "the daily booking limit is reached").With("limit", limit)
}

func alreadyBooked(id uuid.UUID) *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodeAlreadyBooked,
		Message: "the member already holds a booking for this class"}).With("booking_id", id.String())
}

func passNotUsable(reason string) *apperr.Error {
	return unprocessable(CodePassNotUsable, "the pass cannot be used for this class").With("reason", reason)
}

func notCancellable(reason string) *apperr.Error {
	return unprocessable(CodeNotCancellable, "the booking cannot be cancelled").With("reason", reason)
}

var (
	errBrandRestricted = unprocessable(CodePassBrandRestricted, "the pass is not valid for this class's brand")
	errTypeRestricted  = unprocessable(CodeClassTypeRestricted, "the pass is not valid for this class type")
	errPassRequired    = unprocessable(CodePassRequired, "the member holds no pass that can book this class")
)

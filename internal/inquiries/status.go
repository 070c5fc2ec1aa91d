package inquiries

import (
	"net/http"

	"github.com/venueplatform/venue/ent/inquiry"
	"github.com/venueplatform/venue/internal/apperr"
)

// StatusText is the plain-language status of an inquiry shown to the member
// who filed it (the field status; status_key is the machine value).
func StatusText(s inquiry.Status) string {
	switch s {
	case inquiry.StatusPending:
		return "Received, not yet delivered to the venue"
	case inquiry.StatusSent:
		return "Sent to the venue"
	case inquiry.StatusContacted:
		return "The venue has been in touch"
	case inquiry.StatusBooked:
		return "Booked"
	case inquiry.StatusDeclined:
		return "The venue could not take this booking"
	case inquiry.StatusClosed:
		return "Closed"
	}
	return string(s)
}

// The error codes of this package (rest-api.md, Errors).
const (
	CodeNotAccepting    = "SERVICE_NOT_ACCEPTING_INQUIRIES"
	CodeDisabled        = "INQUIRIES_DISABLED"
	CodeReconcileFailed = "INQUIRY_RECONCILE_FAILED"
)

// ModuleKey is the venue's module flag (feature_provisioning.modules) that
// switches inquiries off when false.
const ModuleKey = "inquiries"

// errNotAccepting is the 422 of a service that is inactive or takes no
// inquiries.
func errNotAccepting() *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeNotAccepting,
		Message: "this service does not accept booking inquiries"}).With("parameter", "service_id")
}

// errDisabled is the 503 of a venue whose inquiries module is off.
func errDisabled() *apperr.Error {
	return &apperr.Error{Status: http.StatusServiceUnavailable, Code: CodeDisabled,
		Message: "the venue is not taking booking inquiries at the moment"}
}

// ReconcileFailed is the 503 of an inquiry that was stored but could not be
// delivered to the venue's staff: retrying with requestID as the
// Idempotency-Key completes it without filing another.
func ReconcileFailed(requestID string, cause error) *apperr.Error {
	return (&apperr.Error{Status: http.StatusServiceUnavailable, Code: CodeReconcileFailed,
		Message: "the inquiry was received but could not be delivered to the venue yet; retry with details.request_id as the Idempotency-Key",
		Cause:   cause}).With("request_id", requestID)
}

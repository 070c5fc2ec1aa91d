package payments

import (
	"net/http"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
)

// MaxStartAheadDays is how far ahead of the venue-local today a member may
// choose a pass's start date in the checkout preview.
const MaxStartAheadDays = 90

// startOf is the day a sale priced on today starts: the chosen start date,
// or today without one.
func startOf(today time.Time, chosen *time.Time) time.Time {
	if chosen == nil {
		return today
	}
	return *chosen
}

// checkStartDate refuses a chosen start date before the venue-local today
// (400 VALIDATION_ERROR) or more than MaxStartAheadDays after it (422
// VALIDATION_FAILED, start_date_too_far). Only a new quote is checked: a
// quote's own start date is honoured unchanged at purchase.
func checkStartDate(today time.Time, chosen *time.Time) error {
	if chosen == nil {
		return nil
	}
	if chosen.Before(today) {
		return apperr.Validation("start_date", "the start date is before today")
	}
	if last := today.AddDate(0, 0, MaxStartAheadDays); chosen.After(last) {
		return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: "VALIDATION_FAILED",
			Message: "the start date is too far ahead"}).
			With("field", "start_date").With("reason", "start_date_too_far").
			With("max_start_date", last.Format(time.DateOnly)).With("next_step", nil)
	}
	return nil
}

// dateOnly is t's calendar day at midnight UTC (how dates are kept).
func dateOnly(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// startPart is a quote's start date as signed ("" without one, so quotes
// without a start date keep their fingerprints).
func startPart(d *time.Time) string {
	if d == nil {
		return ""
	}
	return "|start:" + d.Format(time.DateOnly)
}

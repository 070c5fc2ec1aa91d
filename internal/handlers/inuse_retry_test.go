package handlers_test

import (
	"errors"
	"strconv"
	"time"

	"github.com/venueplatform/venue/internal/gen/api"
)

// inUseBackoff tells a test client that repeats one Idempotency-Key whether
// to send it again, and waits first, as a careful integrator would: a 409
// IDEMPOTENCY_KEY_IN_USE (the first request is still running) is retried
// after a pause that doubles from 20 ms up to half a second, so a slow first
// request on a loaded machine is not polled into the caller's own rate
// limit; a 429 RATE_LIMITED waits the answer's retry_after_seconds. attempt
// counts the retries so far.
func inUseBackoff(err error, attempt int) bool {
	var es *api.ErrorStatusCode
	if !errors.As(err, &es) {
		return false
	}
	switch es.Response.Error.Code {
	case "IDEMPOTENCY_KEY_IN_USE":
		time.Sleep(min(20*time.Millisecond<<min(attempt, 5), 500*time.Millisecond))
		return true
	case "RATE_LIMITED":
		wait := time.Second
		if raw, ok := es.Response.Error.Details.AdditionalProps["retry_after_seconds"]; ok {
			if s, convErr := strconv.Atoi(string(raw)); convErr == nil && s > 0 {
				wait = time.Duration(s) * time.Second
			}
		}
		time.Sleep(wait)
		return true
	}
	return false
}

package limits

import (
	"net/http"
	"strconv"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/ratelimit"
)

// Limited is the 429 RATE_LIMITED of a request refused under p.
func Limited(p Policy, d ratelimit.Decision) *apperr.Error {
	n := d.RetryAfterSeconds()
	return (&apperr.Error{
		Status:  http.StatusTooManyRequests,
		Code:    apperr.CodeRateLimited,
		Message: "rate limit exceeded; retry after " + strconv.Itoa(n) + " seconds",
	}).With("retry_after_seconds", n).With("policy", p.Name)
}

package accounts

import (
	"context"
	"net/http"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/viewer"
)

// CodeStepUpRequired is the error code of an operation that needs a recent
// second-factor check.
const CodeStepUpRequired = "STEP_UP_REQUIRED"

// RequireStepUp is the check of operations that require step-up: the caller
// must be a user session that passed its second factor (POST
// /auth/mfa/verify) within maxAge (0: viewer.DefaultStepUpAge) of now.
// Otherwise it answers 403 STEP_UP_REQUIRED with details.required_step
// mfa_verify and details.max_age_seconds; API keys and other callers get the
// same answer (they cannot step up). Call it before any change is made.
func RequireStepUp(ctx context.Context, now time.Time, maxAge time.Duration) error {
	if maxAge <= 0 {
		maxAge = viewer.DefaultStepUpAge
	}
	if u, ok := viewer.UserFromContext(ctx); ok && u.SteppedUp(now, maxAge) {
		return nil
	}
	return (&apperr.Error{Status: http.StatusForbidden, Code: CodeStepUpRequired,
		Message: "verify your second factor again to continue"}).
		With("required_step", "mfa_verify").With("max_age_seconds", int(maxAge/time.Second))
}

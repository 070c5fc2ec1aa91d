package server

import (
	"time"

	"github.com/venueplatform/venue/internal/limits"
)

// resumeCheckoutPerUser is the contract's limit of POST
// /me/passes/{id}/resume-checkout: 15 per user, counted per hour (the
// contract names no window; a reservation's hold is capped at an hour, see
// docs/payments.md).
var resumeCheckoutPerUser = limits.Policy{Name: "resume-checkout", Limit: 15, Window: time.Hour}

func init() {
	operationLimits["resumeCheckout"] = limits.Rule{PerKey: &resumeCheckoutPerUser}
}

package server

import (
	"context"
	"time"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/payments/guests"
)

func init() {
	// Offering guest places: a required key of 1 to 200 characters
	// (spec/parts/guest_invites.yaml); a retry finds the places it made.
	idempotencyPolicies["createGuestInvites"] = idempotency.Required(idempotency.Max200)
}

// runGuestHoldSweep ends lapsed unpaid guest holds every minute until ctx
// ends: their seats are freed and the payments their guests left are
// cancelled at Stripe by a job.
func runGuestHoldSweep(ctx context.Context, d Deps, c config.Config) {
	svc := guests.New(d.Client, paymentsService(d, c), nil)
	go svc.ExpireEvery(ctx, time.Minute, func(msg string, args ...any) { d.Log.ErrorContext(ctx, msg, args...) })
}

package server

import (
	"context"
	"time"

	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/pos"
)

func init() {
	// Memberships sold at the desk (spec/parts/admin_pos_sales.yaml): a
	// required key of 1 to 200 characters, like the desk's sales.
	idempotencyPolicies["sellMembership"] = idempotency.Required(idempotency.Max200)
}

// runPosCardSaleSweep ends desk card sales left unpaid past their hold every
// minute until ctx ends: their stock goes back and the payments their
// members left are cancelled at Stripe by a job.
func runPosCardSaleSweep(ctx context.Context, d Deps) {
	svc := pos.New(d.Client, nil)
	go svc.ExpireCardSalesEvery(ctx, time.Minute, func(msg string, args ...any) { d.Log.ErrorContext(ctx, msg, args...) })
}

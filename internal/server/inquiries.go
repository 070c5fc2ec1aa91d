package server

import (
	"context"
	"time"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/inquiries"
	"github.com/venueplatform/venue/internal/limits"
)

// inquiryPerUser is the contract's limit of POST /venues/{slug}/inquiries,
// 10 per minute, counted per signed-in user (the operation takes only a
// bearer token, so the user is the principal; requests refused before
// authentication are limited per address by the anonymous default).
var inquiryPerUser = limits.Policy{Name: "inquiries", Limit: 10, Window: time.Minute}

func init() {
	// POST /venues/{slug}/inquiries: an optional UUID key; without one the
	// server chooses the inquiry's request id (spec/parts/inquiries.yaml).
	idempotencyPolicies["createVenueInquiry"] = idempotency.Optional(idempotency.UUID)
	operationLimits["createVenueInquiry"] = limits.Rule{PerKey: &inquiryPerUser}
}

// runInquiryRedelivery starts, on every instance, the minute sweep that
// delivers inquiries stored but not yet delivered to their venue's staff (a
// member who got 503 INQUIRY_RECONCILE_FAILED and never retried); it stops
// with ctx.
func runInquiryRedelivery(ctx context.Context, c config.Inquiries, d Deps) {
	n, err := inquiries.NotifierFor(c, d.Log)
	if err != nil {
		d.Log.Error("booking inquiry redelivery off", "error", err)
		return
	}
	svc := inquiries.New(d.Client, n, d.Log)
	go every(ctx, d.Log, time.Minute, "inquiry redelivery", func(ctx context.Context) (int, error) {
		return svc.RedeliverPending(ctx, inquiries.RedeliverAfter)
	})
}

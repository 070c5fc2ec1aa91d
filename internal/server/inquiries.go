package server

import (
	"time"

	"github.com/venueplatform/venue/internal/idempotency"
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

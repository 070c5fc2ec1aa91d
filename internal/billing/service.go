package billing

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Service is the billing domain over the payments service's client and
// Stripe port.
type Service struct {
	pay    *payments.Service
	client *ent.Client
	port   stripeport.Port
}

// New returns the billing service over pay.
func New(pay *payments.Service) *Service {
	return &Service{pay: pay, client: pay.Client(), port: pay.Port()}
}

func (s *Service) now() time.Time { return s.pay.Now() }

// inVenue is the context of an event's or a job's work in one venue, as its
// operator. Elevation site: inbound events and jobs hold only ids; the venue
// is the one the subscription's metadata names, checked against our row.
func inVenue(ctx context.Context, org uuid.UUID) context.Context {
	return system.Elevate(ctx, "billing.job_venue", viewer.Operator{Org: org, Name: "billing"})
}

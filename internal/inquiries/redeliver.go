package inquiries

import (
	"context"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/inquiry"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Redelivery of inquiries stored but never delivered (the member got 503
// INQUIRY_RECONCILE_FAILED and did not retry): the venue still hears of them.
const (
	// RedeliverAfter is how old an undelivered inquiry must be before the
	// sweep takes it, leaving the member's own retry the first chance.
	RedeliverAfter = 2 * time.Minute
	// MaxNotifyAttempts stops retrying an inquiry the relay keeps refusing;
	// it stays pending, visible to the member and in the logs.
	MaxNotifyAttempts = 30
	redeliverBatch    = 100
)

// RedeliverPending delivers, across venues, up to one batch of inquiries
// that are older than olderThan and still undelivered, and answers how many
// it delivered. Each is claimed with a conditional update of its attempt
// count, so two instances never deliver the same attempt twice (and the relay
// deduplicates by inquiry id anyway).
func (s *Service) RedeliverPending(ctx context.Context, olderThan time.Duration) (int, error) {
	// System call site: the sweep reads undelivered inquiries of every venue
	// and their venues' slugs; each delivery then acts as its venue.
	sctx := system.Allow(ctx, "inquiries.redeliver")
	rows, err := s.client.Inquiry.Query().Where(inquiry.StaffNotifiedAtIsNil(),
		inquiry.CreatedAtLT(s.now().Add(-olderThan)), inquiry.NotifyAttemptsLT(MaxNotifyAttempts)).
		Order(ent.Asc(inquiry.FieldCreatedAt)).Limit(redeliverBatch).All(sctx)
	if err != nil {
		return 0, err
	}
	delivered := 0
	for _, inq := range rows {
		vctx := system.Elevate(ctx, "inquiries.redeliver_venue", viewer.Operator{Org: inq.OrganizationID, Name: "inquiries.redeliver"})
		n, err := s.client.Inquiry.Update().Where(inquiry.ID(inq.ID), inquiry.NotifyAttempts(inq.NotifyAttempts),
			inquiry.StaffNotifiedAtIsNil()).AddNotifyAttempts(1).Save(vctx)
		if err != nil {
			return delivered, err
		}
		if n == 0 {
			continue // another instance took it
		}
		o, err := s.client.Organization.Query().Where(organization.ID(inq.OrganizationID)).
			Select(organization.FieldSlug).Only(sctx)
		if err != nil {
			return delivered, err
		}
		if _, err := s.notifyAndMark(vctx, o, inq); err != nil {
			s.log.WarnContext(ctx, "inquiry redelivery failed", "inquiry_id", inq.ID, "attempt", inq.NotifyAttempts+1, "error", err)
			continue
		}
		delivered++
	}
	return delivered, nil
}

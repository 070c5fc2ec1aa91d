package appointments

import (
	"context"
	"fmt"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	"github.com/venueplatform/venue/internal/viewer"
)

// Policy is a venue's appointment settings, with the defaults of a venue
// that has no row.
type Policy struct {
	// Row is the stored row; nil when the venue uses the defaults.
	Row                  *ent.AppointmentPolicy
	SlotInterval         time.Duration
	PaymentMode          appointmentpolicy.PaymentAtBookingMode
	SelfServiceCutoff    *time.Duration
	OfferingMode         appointmentpolicy.OfferingMode
	GroupedVisitsEnabled bool
	MaxServicesPerVisit  int
	// RefundTerms are the grouped-visit refund terms staff confirmed (nil:
	// none).
	RefundTerms *string
}

// Venue is the viewer's venue as appointments need it: its zone and policy.
type Venue struct {
	Org    *ent.Organization
	Loc    *time.Location
	Policy Policy
}

// LoadVenue reads the viewer's venue, its time zone and appointment policy.
func LoadVenue(ctx context.Context, client *ent.Client) (*Venue, error) {
	org, ok := viewer.VenueFromContext(ctx)
	if !ok {
		return nil, fmt.Errorf("appointments: no venue viewer")
	}
	o, err := client.Organization.Get(ctx, org)
	if err != nil {
		return nil, fmt.Errorf("appointments: venue: %w", err)
	}
	loc, err := time.LoadLocation(o.Timezone)
	if err != nil {
		loc = time.UTC
	}
	p, err := LoadPolicy(ctx, client)
	if err != nil {
		return nil, err
	}
	return &Venue{Org: o, Loc: loc, Policy: p}, nil
}

// LoadPolicy reads the viewer's venue's appointment policy.
func LoadPolicy(ctx context.Context, client *ent.Client) (Policy, error) {
	row, err := client.AppointmentPolicy.Query().Only(ctx)
	if ent.IsNotFound(err) {
		return policyOf(nil), nil
	}
	if err != nil {
		return Policy{}, fmt.Errorf("appointments: policy: %w", err)
	}
	return policyOf(row), nil
}

func policyOf(row *ent.AppointmentPolicy) Policy {
	if row == nil {
		return Policy{SlotInterval: 15 * time.Minute, PaymentMode: appointmentpolicy.DefaultPaymentAtBookingMode,
			OfferingMode: appointmentpolicy.DefaultOfferingMode, MaxServicesPerVisit: 8}
	}
	p := Policy{Row: row, SlotInterval: time.Duration(row.SlotIntervalMinutes) * time.Minute,
		PaymentMode: row.PaymentAtBookingMode, OfferingMode: row.OfferingMode,
		GroupedVisitsEnabled: row.GroupedVisitsEnabled, MaxServicesPerVisit: row.MaxServicesPerVisit,
		RefundTerms: row.GroupedVisitRefundTerms}
	if row.SelfServiceCutoffHours != nil {
		d := time.Duration(*row.SelfServiceCutoffHours) * time.Hour
		p.SelfServiceCutoff = &d
	}
	return p
}

package appointments

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/payments"
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

// PaymentModeAvailable refuses a payment-at-booking mode that takes money
// online (online, client_choice) at a venue that cannot take card payments
// yet (no connected Stripe account, charges not enabled, card payments
// off): 403 APPOINTMENT_SETTINGS_UNAVAILABLE with details.reason
// card_payments_unavailable and the payments' own reason, so that no venue
// is left answering every paid booking with CARD_PAYMENTS_UNAVAILABLE.
func PaymentModeAvailable(ctx context.Context, pay *payments.Service, mode appointmentpolicy.PaymentAtBookingMode) error {
	if mode == appointmentpolicy.PaymentAtBookingModeVenue {
		return nil
	}
	_, ok, reason, err := pay.StatusWithAvailability(ctx)
	if err != nil {
		return err
	}
	if !ok {
		return (&apperr.Error{Status: http.StatusForbidden, Code: CodeSettingsUnavailable,
			Message: "the venue cannot take card payments yet; connect payments before taking payment at booking"}).
			With("reason", "card_payments_unavailable").With("payments_reason", reason).With("next_step", nil)
	}
	return nil
}

// OfferingAllowsPaymentMode refuses a payment-at-booking mode that takes
// money online (online, client_choice) while the venue offers classes only
// (offering mode classes, the default): 403 APPOINTMENT_SETTINGS_UNAVAILABLE
// with details.reason appointments_not_offered and the offering mode, so no
// venue takes card payments for a book it has not opened. Everything else
// of the policy stays settable, so a salon prepares its book before it
// offers appointments.
func OfferingAllowsPaymentMode(p Policy, mode appointmentpolicy.PaymentAtBookingMode) error {
	if mode == appointmentpolicy.PaymentAtBookingModeVenue || p.OfferingMode != appointmentpolicy.OfferingModeClasses {
		return nil
	}
	return (&apperr.Error{Status: http.StatusForbidden, Code: CodeSettingsUnavailable,
		Message: "the venue offers classes only; offer appointments (booking offering) before taking payment at booking"}).
		With("reason", "appointments_not_offered").With("offering_mode", string(p.OfferingMode)).With("next_step", nil)
}

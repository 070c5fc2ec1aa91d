package appointments

import (
	"context"
	"fmt"
	"time"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/providertimeoff"
	"github.com/venueplatform/venue/ent/staffshift"
)

// CalendarRows is what the appointment book adds to the venue's calendar
// feed: appointments and staff shifts starting in the window and providers'
// unavailable time overlapping it, each ordered by start and each at most limit+1 rows long
// (the caller learns truncation from the extra row).
type CalendarRows struct {
	Appointments []*ent.Appointment // with service, variant, provider, location and room
	Unavailable  []*ent.ProviderTimeOff
	Shifts       []*ent.StaffShift // with staff and location
}

// Calendar reads the calendar rows of the viewer's venue for [start, end).
// Rescheduled appointments are left out (the appointment they were moved to
// stands for them); cancelled ones stay, as cancelled classes do.
func Calendar(ctx context.Context, c *ent.Client, start, end time.Time, limit int) (CalendarRows, error) {
	aps, err := c.Appointment.Query().
		Where(entappointment.StartsAtGTE(start), entappointment.StartsAtLT(end),
			entappointment.StatusNEQ(entappointment.StatusRescheduled)).
		Order(entappointment.ByStartsAt(), entappointment.ByID()).
		Limit(limit + 1).
		WithService().WithVariant().WithProvider().WithLocation().WithRoom().
		All(ctx)
	if err != nil {
		return CalendarRows{}, fmt.Errorf("appointments: calendar: %w", err)
	}
	off, err := c.ProviderTimeOff.Query().
		Where(providertimeoff.StartsAtLT(end), providertimeoff.EndsAtGT(start)).
		Order(providertimeoff.ByStartsAt(), providertimeoff.ByID()).
		Limit(limit + 1).
		WithProvider().
		All(ctx)
	if err != nil {
		return CalendarRows{}, fmt.Errorf("appointments: calendar time off: %w", err)
	}
	shifts, err := c.StaffShift.Query().
		Where(staffshift.StartsAtGTE(start), staffshift.StartsAtLT(end)).
		Order(staffshift.ByStartsAt(), staffshift.ByID()).
		Limit(limit + 1).
		WithStaff().WithLocation().
		All(ctx)
	if err != nil {
		return CalendarRows{}, fmt.Errorf("appointments: calendar shifts: %w", err)
	}
	return CalendarRows{Appointments: aps, Unavailable: off, Shifts: shifts}, nil
}

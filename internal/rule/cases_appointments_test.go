package rule_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
)

// apptHour hands every appointment these tests create its own hour, so the
// exclusion constraint (one provider, no overlapping appointments) never
// refuses a create the wall allows.
var apptHour atomic.Int64

func newAppointment(c *ent.Client, refs *world) *ent.AppointmentCreate {
	start := t0.Add(time.Duration(apptHour.Add(1)) * time.Hour)
	return c.Appointment.Create().SetMemberID(refs.ids["Member"]).SetProviderID(refs.ids["Instructor"]).
		SetServiceID(refs.ids["AppointmentService"]).SetStartsAt(start).SetEndsAt(start.Add(30 * time.Minute)).
		SetBusyFrom(start).SetBusyUntil(start.Add(30 * time.Minute)).SetPriceMinor(0).SetCurrency("DKK").
		SetPayment(appointment.PaymentFree).SetBookedVia(appointment.BookedViaStaff)
}

func newVisit(c *ent.Client, refs *world) *ent.VisitCreate {
	return c.Visit.Create().SetMemberID(refs.ids["Member"]).SetStartsAt(t0).SetEndsAt(t0.Add(time.Hour)).
		SetTotalPriceMinor(0).SetCurrency("DKK")
}

// Services' variants and providers, providers' hours and time off, the
// appointment policy, visits and appointments: each references its venue's
// service, provider or member, so the wall must refuse another venue's there.
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		svc := newService(c).SaveX(ctx)
		ids := map[string]uuid.UUID{"AppointmentService": svc.ID}
		w.ids["AppointmentService"] = svc.ID
		ids["ServiceVariant"] = c.ServiceVariant.Create().SetServiceID(svc.ID).SetName("30 min").SetDurationMinutes(30).
			SetPriceMinor(100).SaveX(ctx).ID
		ids["ServiceProvider"] = c.ServiceProvider.Create().SetServiceID(svc.ID).SetProviderID(w.ids["Instructor"]).SaveX(ctx).ID
		ids["ProviderHours"] = c.ProviderHours.Create().SetProviderID(w.ids["Instructor"]).SetWeekday(1).
			SetStartMinute(540).SetEndMinute(1020).SaveX(ctx).ID
		ids["ProviderTimeOff"] = c.ProviderTimeOff.Create().SetProviderID(w.ids["Instructor"]).SetStartsAt(t0).
			SetEndsAt(t0.Add(time.Hour)).SaveX(ctx).ID
		ids["AppointmentPolicy"] = c.AppointmentPolicy.Create().SaveX(ctx).ID
		ids["Visit"] = newVisit(c, w).SaveX(ctx).ID
		ids["Appointment"] = newAppointment(c, w).SaveX(ctx).ID
		return ids
	})
	noReferences = append(noReferences, "AppointmentPolicy")

	cases["ServiceVariant"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.ServiceVariant.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ServiceVariant.UpdateOneID(id).SetName("45 min").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ServiceVariant.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.ServiceVariant.Create().SetServiceID(refs.ids["AppointmentService"]).SetName("60 min").
				SetDurationMinutes(60).SetPriceMinor(200), org).Save(ctx))
		},
	}
	cases["ServiceProvider"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.ServiceProvider.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ServiceProvider.UpdateOneID(id).SetIsPrimary(true).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ServiceProvider.DeleteOneID(id).Exec(ctx)
		},
		// One assignment per service and provider: every create assigns a new service.
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			svc, err := newService(c).Save(ctx)
			if err != nil {
				return uuid.Nil, err
			}
			return saved(inVenue(c.ServiceProvider.Create().SetServiceID(svc.ID).SetProviderID(refs.ids["Instructor"]), org).Save(ctx))
		},
	}
	cases["ProviderHours"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.ProviderHours.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ProviderHours.UpdateOneID(id).SetWeekday(2).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ProviderHours.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.ProviderHours.Create().SetProviderID(refs.ids["Instructor"]).SetWeekday(3).
				SetStartMinute(600).SetEndMinute(700), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.ProviderHours.UpdateOneID(id).SetLocationID(refs.ids["Location"]).Exec(ctx)
		},
	}
	cases["ProviderTimeOff"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.ProviderTimeOff.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ProviderTimeOff.UpdateOneID(id).SetReason("holiday").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ProviderTimeOff.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.ProviderTimeOff.Create().SetProviderID(refs.ids["Instructor"]).SetStartsAt(t0).
				SetEndsAt(t0.Add(time.Hour)), org).Save(ctx))
		},
	}
	cases["AppointmentPolicy"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.AppointmentPolicy.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.AppointmentPolicy.UpdateOneID(id).SetSlotIntervalMinutes(30).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.AppointmentPolicy.DeleteOneID(id).Exec(ctx)
		},
		// One row per venue: a second create in the same venue updates it.
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return inVenue(c.AppointmentPolicy.Create().SetSlotIntervalMinutes(20), org).
				OnConflictColumns(appointmentpolicy.FieldOrganizationID).UpdateNewValues().ID(ctx)
		},
	}
	cases["Visit"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Visit.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Visit.UpdateOneID(id).SetTotalPriceMinor(5).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Visit.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newVisit(c, refs), org).Save(ctx))
		},
	}
	cases["Appointment"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.Appointment.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Appointment.UpdateOneID(id).SetNotes("quiet room").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Appointment.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newAppointment(c, refs), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Appointment.UpdateOneID(id).SetRoomID(refs.ids["Room"]).SetVisitID(refs.ids["Visit"]).Exec(ctx)
		},
	}
}

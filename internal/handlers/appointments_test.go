package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/jobs"
)

// salonEnv is a studio (Europe/Copenhagen) served with bearer sessions, with
// a 60-minute service at 450 DKK and a provider working 09:00 to 17:00 every
// day.
type salonEnv struct {
	*bookEnv
	service  *ent.Service
	provider *ent.Instructor
	day      time.Time // venue-local midnight, three days ahead
}

func newSalonEnv(t *testing.T, slug string) *salonEnv {
	t.Helper()
	e := &salonEnv{bookEnv: newBookEnv(t, slug)}
	_, err := jobs.Migrate(context.Background(), e.pool)
	require.NoError(t, err)
	c, op := e.client, e.op
	e.service = c.Service.Create().SetName("Massage").SetSlug("massage").SetDurationMinutes(60).
		SetPriceMinor(45000).SetCurrency("DKK").SaveX(op)
	e.provider = c.Instructor.Create().SetFirstName("Signe").SaveX(op)
	c.ServiceProvider.Create().SetServiceID(e.service.ID).SetProviderID(e.provider.ID).SetIsPrimary(true).ExecX(op)
	for wd := 0; wd < 7; wd++ {
		c.ProviderHours.Create().SetProviderID(e.provider.ID).SetWeekday(wd).SetStartMinute(9 * 60).SetEndMinute(17 * 60).ExecX(op)
	}
	e.day = e.today.AddDate(0, 0, 3)
	return e
}

func (e *salonEnv) at(hour int) time.Time {
	return time.Date(e.day.Year(), e.day.Month(), e.day.Day(), hour, 0, 0, 0, e.loc)
}

func (e *salonEnv) book(ctx context.Context, m bookMember, start time.Time) (*api.AppointmentResponse, error) {
	return m.c.CreateAppointment(ctx, &api.AppointmentCreateRequest{ServiceID: e.service.ID, StartTime: start,
		ProviderID: api.NewOptString(e.provider.ID.String())},
		api.CreateAppointmentParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
}

// TestMemberAppointmentLifecycle: through the generated client, a member
// reads the free times, books one (it leaves the offer, the event and the
// audit entry are recorded), reads and lists it, previews and cancels it with
// the exact updated_at token (missing: 400, stale: 409 STALE_TARGET), and
// another member sees none of it.
func TestMemberAppointmentLifecycle(t *testing.T) {
	e := newSalonEnv(t, "salon-life")
	ctx := context.Background()
	m := e.member(t, e.op, "ida@example.com", nil, nil)
	other := e.member(t, e.op, "bo@example.com", nil, nil)

	avail := func() []api.AppointmentSlot {
		res, err := m.c.GetAppointmentAvailability(ctx, api.GetAppointmentAvailabilityParams{
			XOrganizationID: api.NewOptUUID(e.venue.ID), ServiceID: e.service.ID,
			From: time.Date(e.day.Year(), e.day.Month(), e.day.Day(), 0, 0, 0, 0, time.UTC)})
		require.NoError(t, err)
		require.Equal(t, "Europe/Copenhagen", res.Data.Timezone)
		require.Equal(t, 15, res.Data.SlotIntervalMinutes)
		return res.Data.Slots
	}
	slots := avail()
	require.Len(t, slots, 29, "09:00 to 16:00 every 15 minutes")
	require.True(t, slots[0].StartTime.Equal(e.at(9)))
	require.Equal(t, []uuid.UUID{e.provider.ID}, slots[0].ProviderIds)

	created, err := e.book(ctx, m, e.at(10))
	require.NoError(t, err)
	ap := created.Data
	require.Equal(t, api.AppointmentStatusBooked, ap.Status)
	require.Equal(t, "Massage", ap.ServiceName)
	require.Equal(t, api.AppointmentPaymentVenue, ap.Payment)
	require.Equal(t, int64(45000), ap.PriceMinor)
	require.InDelta(t, 450.0, ap.PriceAmount, 0.001)
	require.True(t, ap.EndTime.Equal(e.at(11)))
	require.Len(t, avail(), 29-7, "09:15 to 10:45 are gone")
	require.Len(t, e.client.Event.Query().Where(event.Type(events.AppointmentCreated)).AllX(e.op), 1)
	require.True(t, e.client.AuditLog.Query().Where(auditlog.Action("appointment.created"),
		auditlog.Target("appointment:"+ap.ID.String())).ExistX(e.op))

	got, err := m.c.GetAppointment(ctx, api.GetAppointmentParams{ID: ap.ID})
	require.NoError(t, err)
	require.Equal(t, ap.UpdatedAt, got.Data.UpdatedAt)
	require.True(t, got.Data.RescheduledToID.Null)
	require.True(t, got.Data.VisitID.Null)
	list, err := m.c.ListAppointments(ctx, api.ListAppointmentsParams{})
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	past, err := m.c.ListAppointments(ctx, api.ListAppointmentsParams{Direction: api.NewOptListAppointmentsDirection(api.ListAppointmentsDirectionPast)})
	require.NoError(t, err)
	require.Empty(t, past.Data)

	// Another member: not found, like an unknown id; their list is empty.
	_, err = other.c.GetAppointment(ctx, api.GetAppointmentParams{ID: ap.ID})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = other.c.CancelAppointment(ctx, api.CancelAppointmentParams{ID: ap.ID, XOrganizationID: e.venue.ID,
		IdempotencyKey: uuid.NewString(), UpdatedAt: api.NewOptString(ap.UpdatedAt)})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	ol, err := other.c.ListAppointments(ctx, api.ListAppointmentsParams{})
	require.NoError(t, err)
	require.Empty(t, ol.Data)

	pv, err := m.c.PreviewAppointmentCancel(ctx, api.PreviewAppointmentCancelParams{ID: ap.ID})
	require.NoError(t, err)
	require.True(t, pv.Data.CanCancel)
	require.True(t, pv.Data.BlockedReason.Null)
	require.Equal(t, 24, pv.Data.WindowHours)

	cancel := func(tok string) (*api.AppointmentResponse, error) {
		p := api.CancelAppointmentParams{ID: ap.ID, XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()}
		if tok != "" {
			p.UpdatedAt = api.NewOptString(tok)
		}
		return m.c.CancelAppointment(ctx, p)
	}
	_, err = cancel("")
	es := requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "updated_at", es.Response.Error.Details.Parameter.Or(""))
	_, err = cancel(time.Now().UTC().Format(time.RFC3339Nano))
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")
	require.Equal(t, entappointment.StatusBooked, e.client.Appointment.GetX(e.op, ap.ID).Status, "refusals change nothing")
	done, err := cancel(ap.UpdatedAt)
	require.NoError(t, err)
	require.Equal(t, api.AppointmentStatusCancelled, done.Data.Status)
	require.False(t, done.Data.CancelledAt.Null)
	require.Len(t, avail(), 29, "the time is free again")
	require.Len(t, e.client.Event.Query().Where(event.Type(events.AppointmentCancelled)).AllX(e.op), 1)
	_, err = cancel(done.Data.UpdatedAt)
	requireErr(t, err, http.StatusUnprocessableEntity, "NOT_CANCELLABLE")
}

// TestAppointmentRefusals: a start that is not offered, a foreign service, a
// malformed provider, a missing Idempotency-Key and the self-service cutoff
// are each refused with the contract's answer and book nothing.
func TestAppointmentRefusals(t *testing.T) {
	e := newSalonEnv(t, "salon-refuse")
	ctx := context.Background()
	m := e.member(t, e.op, "ida@example.com", nil, nil)

	_, err := e.book(ctx, m, e.at(10).Add(7*time.Minute))
	es := requireErr(t, err, http.StatusConflict, "SLOT_UNAVAILABLE")
	require.Equal(t, "not_offered", es.Response.Error.Details.Reason.Or(""))
	_, err = e.book(ctx, m, e.at(18))
	requireErr(t, err, http.StatusConflict, "SLOT_UNAVAILABLE")
	_, err = m.c.CreateAppointment(ctx, &api.AppointmentCreateRequest{ServiceID: uuid.New(), StartTime: e.at(10)},
		api.CreateAppointmentParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = m.c.CreateAppointment(ctx, &api.AppointmentCreateRequest{ServiceID: e.service.ID, StartTime: e.at(10),
		ProviderID: api.NewOptString(uuid.NewString())},
		api.CreateAppointmentParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.NewString()})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")

	// The venue's cutoff of five days leaves the day three days ahead out.
	e.client.AppointmentPolicy.Create().SetSelfServiceCutoffHours(24 * 5).ExecX(e.op)
	_, err = e.book(ctx, m, e.at(10))
	requireErr(t, err, http.StatusConflict, "SLOT_UNAVAILABLE")
	require.Zero(t, e.client.Appointment.Query().CountX(e.op))
}

// TestCancelInsideCutoff: a member cannot cancel once the time left is
// strictly below the cutoff (422 SELF_SERVICE_CUTOFF) and the preview says so.
func TestCancelInsideCutoff(t *testing.T) {
	e := newSalonEnv(t, "salon-cutoff")
	ctx := context.Background()
	m := e.member(t, e.op, "ida@example.com", nil, nil)
	res, err := e.book(ctx, m, e.at(10))
	require.NoError(t, err)
	e.client.AppointmentPolicy.Create().SetSelfServiceCutoffHours(24 * 5).ExecX(e.op)
	pv, err := m.c.PreviewAppointmentCancel(ctx, api.PreviewAppointmentCancelParams{ID: res.Data.ID})
	require.NoError(t, err)
	require.False(t, pv.Data.CanCancel)
	require.Equal(t, api.AppointmentCancelPreviewBlockedReasonSelfServiceCutoff, pv.Data.BlockedReason.Value)
	_, err = m.c.CancelAppointment(ctx, api.CancelAppointmentParams{ID: res.Data.ID, XOrganizationID: e.venue.ID,
		IdempotencyKey: uuid.NewString(), UpdatedAt: api.NewOptString(res.Data.UpdatedAt)})
	requireErr(t, err, http.StatusUnprocessableEntity, "SELF_SERVICE_CUTOFF")
	require.Equal(t, entappointment.StatusBooked, e.client.Appointment.GetX(e.op, res.Data.ID).Status)
}

// TestHundredConcurrentAppointmentRequests: 100 members ask for the same
// provider's same time at once over HTTP: exactly one 201 and 99 409
// SLOT_UNAVAILABLE, and one appointment in the database.
func TestHundredConcurrentAppointmentRequests(t *testing.T) {
	e := newSalonEnv(t, "salon-rush")
	ctx := context.Background()
	const n = 100
	ms := make([]bookMember, n)
	for i := range ms {
		ms[i] = e.member(t, e.op, fmt.Sprintf("rush%03d@example.com", i), nil, nil)
	}
	var wg sync.WaitGroup
	gate := make(chan struct{})
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			_, errs[i] = e.book(ctx, ms[i], e.at(11))
		}()
	}
	close(gate)
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
			continue
		}
		requireErr(t, err, http.StatusConflict, "SLOT_UNAVAILABLE")
	}
	require.Equal(t, 1, ok)
	require.Equal(t, 1, e.client.Appointment.Query().CountX(e.op))
}

// TestVisitAllOrNothing: a visit of three services books them one after
// the other on the grid; a visit whose third service collides with another
// booking books none of its services; nine services are refused by the
// input gate; changed totals are 409 QUOTE_STALE and book nothing.
func TestVisitAllOrNothing(t *testing.T) {
	e := newSalonEnv(t, "salon-visit")
	ctx := context.Background()
	e.client.AppointmentPolicy.Create().SetGroupedVisitsEnabled(true).ExecX(e.op)
	nails := e.client.Service.Create().SetName("Nails").SetSlug("nails").SetDurationMinutes(40).
		SetPriceMinor(20000).SetCurrency("DKK").SetBufferAfterMinutes(5).SaveX(e.op)
	e.client.ServiceProvider.Create().SetServiceID(nails.ID).SetProviderID(e.provider.ID).ExecX(e.op)
	m := e.member(t, e.op, "ida@example.com", nil, nil)
	other := e.member(t, e.op, "bo@example.com", nil, nil)
	visit := func(start time.Time, total float64, ids ...uuid.UUID) (*api.VisitResponse, error) {
		req := &api.VisitCreateRequest{StartTime: start, ProviderID: api.NewOptString(e.provider.ID.String()),
			ExpectedTotalPriceAmount: total, ExpectedCurrency: "DKK"}
		for _, id := range ids {
			req.Services = append(req.Services, api.VisitServiceRequest{ServiceID: id})
		}
		return m.c.CreateAppointmentVisit(ctx, req, api.CreateAppointmentVisitParams{XOrganizationID: e.venue.ID, IdempotencyKey: uuid.New()})
	}

	// 10:00 massage (60), 11:00 nails (40, then a 5-minute buffer), 11:45 massage.
	v, err := visit(e.at(10), 1100, e.service.ID, nails.ID, e.service.ID)
	require.NoError(t, err)
	require.Len(t, v.Data.Appointments, 3)
	require.True(t, v.Data.Appointments[1].StartTime.Equal(e.at(11)))
	require.True(t, v.Data.Appointments[2].StartTime.Equal(e.at(11).Add(45*time.Minute)))
	require.Equal(t, int64(110000), v.Data.TotalPriceMinor)
	for _, ap := range v.Data.Appointments {
		require.Equal(t, v.Data.ID, ap.VisitID.Value)
	}
	// A single cancel of a visit's appointment is refused.
	_, err = m.c.CancelAppointment(ctx, api.CancelAppointmentParams{ID: v.Data.Appointments[0].ID, XOrganizationID: e.venue.ID,
		IdempotencyKey: uuid.NewString(), UpdatedAt: api.NewOptString(v.Data.Appointments[0].UpdatedAt)})
	requireErr(t, err, http.StatusUnprocessableEntity, "GROUPED_VISIT_REQUIRES_VISIT_ACTION")

	// Another member holds 15:30; a visit from 13:00 whose third service would start at 15:00 books nothing.
	_, err = e.book(ctx, other, e.at(15).Add(30*time.Minute))
	require.NoError(t, err)
	before := e.client.Appointment.Query().CountX(e.op)
	_, err = visit(e.at(13), 1100, e.service.ID, e.service.ID, e.service.ID)
	es := requireErr(t, err, http.StatusConflict, "SLOT_UNAVAILABLE")
	require.Contains(t, es.Response.Error.Details.AdditionalProps, "service_index")
	require.JSONEq(t, "2", string(es.Response.Error.Details.AdditionalProps["service_index"]))
	require.Equal(t, before, e.client.Appointment.Query().CountX(e.op), "no service of the visit is booked")
	require.Equal(t, 1, e.client.Visit.Query().CountX(e.op))

	_, err = visit(e.at(13), 999, e.service.ID, nails.ID)
	requireErr(t, err, http.StatusConflict, "QUOTE_STALE")

	// The whole visit is cancelled with its token; another member does not see it.
	_, err = other.c.GetAppointmentVisit(ctx, api.GetAppointmentVisitParams{VisitId: v.Data.ID, XOrganizationID: e.venue.ID})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	cur, err := m.c.GetAppointmentVisit(ctx, api.GetAppointmentVisitParams{VisitId: v.Data.ID, XOrganizationID: e.venue.ID})
	require.NoError(t, err)
	require.Equal(t, v.Data.UpdatedAt, cur.Data.UpdatedAt)
	cancelVisit := func(tok string) (*api.VisitResponse, error) {
		return m.c.CancelAppointmentVisit(ctx, api.CancelAppointmentVisitParams{VisitId: v.Data.ID, XOrganizationID: e.venue.ID,
			IdempotencyKey: uuid.NewString(), UpdatedAt: api.NewOptString(tok)})
	}
	_, err = cancelVisit(time.Now().UTC().Format(time.RFC3339Nano))
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")
	done, err := cancelVisit(cur.Data.UpdatedAt)
	require.NoError(t, err)
	require.Equal(t, api.VisitStatusCancelled, done.Data.Status)
	for _, ap := range done.Data.Appointments {
		require.Equal(t, api.AppointmentStatusCancelled, ap.Status)
	}
	before = e.client.Appointment.Query().CountX(e.op)
	nine := make([]uuid.UUID, 9)
	for i := range nine {
		nine[i] = nails.ID
	}
	_, err = visit(e.at(9), 1800, nine...)
	require.Error(t, err)
	require.Equal(t, before, e.client.Appointment.Query().CountX(e.op))
}

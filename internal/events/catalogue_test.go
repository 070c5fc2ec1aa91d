package events_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/webhookdelivery"
	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/booking"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/schedule"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
	"github.com/venueplatform/venue/internal/webhooks/dispatch"
	"github.com/venueplatform/venue/internal/webhooks/signature"
)

// catalogueEnv is a venue subscribed to every event type, on a database with River's tables,
// plus a second venue whose users join the first.
type catalogueEnv struct {
	pool   *pgxpool.Pool
	client *ent.Client
	op     context.Context
	other  context.Context
	org    *venue.Venue
	ct     uuid.UUID
	ten    *ent.PassType
	now    time.Time
}

func newCatalogueEnv(t *testing.T) *catalogueEnv {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	_, err := jobs.Migrate(ctx, pool)
	require.NoError(t, err)
	client := db.NewClient(pool)
	a, err := venue.Create(ctx, client, venue.CreateParams{Name: "A", Slug: "cat-a"})
	require.NoError(t, err)
	b, err := venue.Create(ctx, client, venue.CreateParams{Name: "B", Slug: "cat-b"})
	require.NoError(t, err)
	e := &catalogueEnv{pool: pool, client: client, org: a, now: time.Now(),
		op:    viewer.NewContext(ctx, viewer.Operator{Org: a.ID, Name: "test"}),
		other: viewer.NewContext(ctx, viewer.Operator{Org: b.ID, Name: "test"})}
	secret, err := signature.NewSecret()
	require.NoError(t, err)
	client.WebhookSubscription.Create().SetURL("https://hooks.example.com/in").SetEventTypes(events.Types).
		SetSecret(secret).SaveX(e.op)
	e.ct = client.ClassType.Create().SetName("Flow").SaveX(e.op).ID
	e.ten = client.PassType.Create().SetName("Ten").SetSlug("ten").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(1000).SetCurrency("DKK").SetClips(10).SaveX(e.op)
	return e
}

func (e *catalogueEnv) class(t *testing.T, capacity int) *ent.ClassInstance {
	start := e.now.Add(48 * time.Hour).Truncate(time.Second)
	return e.client.ClassInstance.Create().SetClassTypeID(e.ct).SetStartTime(start).
		SetEndTime(start.Add(time.Hour)).SetCapacity(capacity).SaveX(e.op)
}

func (e *catalogueEnv) member(t *testing.T, email string) booking.Actor {
	t.Helper()
	en, err := members.Enroll(e.op, e.client, members.EnrollParams{Email: email, FirstName: "M"})
	require.NoError(t, err)
	e.client.Pass.Create().SetMemberID(en.Member.ID).SetPassTypeID(e.ten.ID).
		SetValidFrom(e.now.AddDate(0, 0, -1)).SetClipsRemaining(5).SaveX(e.op)
	return booking.Actor{Member: en.Member, Via: entbooking.BookedViaAPIKey}
}

// outbox counts the venue's events of typ, their deliveries and all webhook jobs.
func (e *catalogueEnv) outbox(t *testing.T, typ string) (evs []*ent.Event, deliveries, jobCount int) {
	t.Helper()
	evs = e.client.Event.Query().Where(event.Type(typ)).AllX(e.op)
	deliveries = e.client.WebhookDelivery.Query().Where(webhookdelivery.EventType(typ)).CountX(e.op)
	require.NoError(t, e.pool.QueryRow(context.Background(),
		`SELECT count(*) FROM river_job WHERE kind = $1`, dispatch.Kind).Scan(&jobCount))
	return evs, deliveries, jobCount
}

var errAbort = errors.New("abort")

// TestCatalogueRecordedWithTheChange: every event type of the catalogue is recorded by the
// change that causes it, with a delivery and its River job, in the change's transaction: a
// change rolled back after it ran leaves neither the change nor the event, delivery or job;
// committed, exactly one of each.
func TestCatalogueRecordedWithTheChange(t *testing.T) {
	e := newCatalogueEnv(t)
	covered := map[string]bool{}

	type step struct {
		typ string
		// run makes the change in ctx with c (the transaction's client).
		run func(t *testing.T, ctx context.Context, c *ent.Client) error
		// changed reports whether the change is in the database.
		changed func(t *testing.T) bool
		// data names the keys the event's data must carry.
		data []string
	}
	var (
		full     = e.class(t, 1)
		seated   = e.member(t, "seated@example.com")
		waiting  = e.member(t, "waiting@example.com")
		seat     *ent.Booking
		other    = e.class(t, 5)
		edited   = e.class(t, 5)
		joiner   *members.Enrolled
		joinerID uuid.UUID
	)
	en, err := members.Enroll(e.other, e.client, members.EnrollParams{Email: "joiner@example.com", FirstName: "J"})
	require.NoError(t, err)
	joiner, joinerID = en, en.User.ID
	userCtx := func(ctx context.Context) context.Context {
		return viewer.NewContext(ctx, viewer.User{UserID: joinerID, SessionID: uuid.New()})
	}
	svc := e.client.Service.Create().SetName("Massage").SetSlug("massage").SetDurationMinutes(60).
		SetPriceMinor(0).SetCurrency("DKK").SaveX(e.op)
	provider := e.client.Instructor.Create().SetFirstName("Signe").SaveX(e.op)
	e.client.ServiceProvider.Create().SetServiceID(svc.ID).SetProviderID(provider.ID).ExecX(e.op)
	for wd := 0; wd < 7; wd++ {
		e.client.ProviderHours.Create().SetProviderID(provider.ID).SetWeekday(wd).SetStartMinute(0).SetEndMinute(24 * 60).ExecX(e.op)
	}
	var appt *ent.Appointment
	apptStart := e.now.Add(72 * time.Hour).Truncate(time.Hour)
	direct := func(start time.Time) *ent.Appointment {
		return e.client.Appointment.Create().SetMemberID(seated.Member.ID).SetProviderID(provider.ID).SetServiceID(svc.ID).
			SetStartsAt(start).SetEndsAt(start.Add(time.Hour)).SetBusyFrom(start).SetBusyUntil(start.Add(time.Hour)).
			SetPriceMinor(0).SetCurrency("DKK").SetPayment(entappointment.PaymentFree).
			SetBookedVia(entappointment.BookedViaStaff).SaveX(e.op)
	}
	moved, missed := direct(apptStart.Add(2*time.Hour)), direct(apptStart.Add(-24*time.Hour))
	bookingOf := func(a booking.Actor, cl *ent.ClassInstance) func(t *testing.T) bool {
		return func(t *testing.T) bool {
			return e.client.Booking.Query().Where(entbooking.MemberID(a.Member.ID), entbooking.ClassInstanceID(cl.ID)).ExistX(e.op)
		}
	}
	steps := []step{
		{typ: events.BookingCreated, data: []string{"booking_id", "status", "class_instance_id", "member_id"},
			run: func(t *testing.T, ctx context.Context, c *ent.Client) error {
				r, err := booking.Book(ctx, c, seated, booking.Request{ClassID: full.ID}, e.now)
				if err == nil {
					seat = r.Booking
				}
				return err
			}, changed: bookingOf(seated, full)},
		{typ: events.BookingWaitlisted, data: []string{"booking_id", "waitlist_position"},
			run: func(t *testing.T, ctx context.Context, c *ent.Client) error {
				_, err := booking.Book(ctx, c, waiting, booking.Request{ClassID: full.ID}, e.now)
				return err
			}, changed: bookingOf(waiting, full)},
		// Cancelling the seat records booking.cancelled and promotes the waiting member.
		{typ: events.BookingCancelled, data: []string{"booking_id", "reason"},
			run: func(t *testing.T, ctx context.Context, c *ent.Client) error {
				_, err := booking.Cancel(ctx, c, seated, seat.ID, "", e.now)
				return err
			}, changed: func(t *testing.T) bool {
				return e.client.Booking.GetX(e.op, seat.ID).Status == entbooking.StatusCancelled
			}},
		{typ: events.BookingPromoted, data: []string{"booking_id"}, changed: func(t *testing.T) bool {
			return e.client.Booking.Query().Where(entbooking.MemberID(waiting.Member.ID),
				entbooking.StatusEQ(entbooking.StatusConfirmed)).ExistX(e.op)
		}},
		{typ: events.ClassUpdated, data: []string{"class_instance_id"},
			run: func(t *testing.T, ctx context.Context, c *ent.Client) error {
				n := 9
				_, err := schedule.Update(ctx, c, edited.ID, schedule.Patch{Capacity: &n}, e.now)
				return err
			}, changed: func(t *testing.T) bool { return e.client.ClassInstance.GetX(e.op, edited.ID).Capacity == 9 }},
		{typ: events.ClassCancelled, data: []string{"class_instance_id", "cancelled_bookings"},
			run: func(t *testing.T, ctx context.Context, c *ent.Client) error {
				_, err := schedule.Cancel(ctx, c, other.ID, schedule.CancelParams{Reason: "flood"}, e.now)
				return err
			}, changed: func(t *testing.T) bool {
				return e.client.ClassInstance.GetX(e.op, other.ID).Status == classinstance.StatusCancelled
			}},
		{typ: events.AppointmentCreated, data: []string{"appointment_id", "status", "member_id", "provider_id", "service_id", "starts_at"},
			run: func(t *testing.T, ctx context.Context, c *ent.Client) error {
				var err error
				appt, err = appointments.Book(ctx, c, appointments.Actor{Member: seated.Member, Via: entappointment.BookedViaStaff},
					appointments.Request{ServiceID: svc.ID, Start: apptStart}, e.now)
				return err
			}, changed: func(t *testing.T) bool {
				return e.client.Appointment.Query().Where(entappointment.StartsAt(apptStart)).ExistX(e.op)
			}},
		{typ: events.AppointmentCancelled, data: []string{"appointment_id", "status", "reason"},
			run: func(t *testing.T, ctx context.Context, c *ent.Client) error {
				_, err := appointments.Cancel(ctx, c, appointments.Actor{Member: seated.Member, Via: entappointment.BookedViaStaff},
					appt.ID, concurrency.Of(appt.UpdatedAt), "staff", e.now)
				return err
			}, changed: func(t *testing.T) bool {
				return e.client.Appointment.GetX(e.op, appt.ID).Status == entappointment.StatusCancelled
			}},
		{typ: events.AppointmentRescheduled, data: []string{"appointment_id", "rescheduled_to_id", "starts_at"},
			run: func(t *testing.T, ctx context.Context, c *ent.Client) error {
				_, err := appointments.Act(ctx, c, moved.ID, appointments.ActRequest{Action: appointments.ActionReschedule,
					Expected: concurrency.Of(moved.UpdatedAt), Start: apptStart.Add(4 * time.Hour)}, e.now)
				return err
			}, changed: func(t *testing.T) bool {
				return e.client.Appointment.GetX(e.op, moved.ID).Status == entappointment.StatusRescheduled
			}},
		{typ: events.AppointmentNoShow, data: []string{"appointment_id", "status"},
			run: func(t *testing.T, ctx context.Context, c *ent.Client) error {
				_, err := appointments.Act(ctx, c, missed.ID, appointments.ActRequest{Action: appointments.ActionNoShow,
					Expected: concurrency.Of(missed.UpdatedAt)}, missed.StartsAt.Add(time.Hour))
				return err
			}, changed: func(t *testing.T) bool {
				return e.client.Appointment.GetX(e.op, missed.ID).Status == entappointment.StatusNoShow
			}},
		{typ: events.MemberCreated, data: []string{"member_id", "user_id"},
			run: func(t *testing.T, ctx context.Context, c *ent.Client) error {
				_, err := members.Join(userCtx(ctx), c, e.org.Slug, true)
				return err
			}, changed: func(t *testing.T) bool {
				return e.client.Member.Query().Where(member.UserID(joiner.User.ID), member.OrganizationID(e.org.ID)).ExistX(e.op)
			}},
	}
	// booking.promoted comes with the cancellation; it has no run of its own.
	for i, s := range steps {
		if s.run == nil {
			continue
		}
		_, _, jobsBefore := e.outbox(t, s.typ)
		// Rolled back after the change ran: nothing stays.
		err := events.WithTx(e.op, e.client, func(ctx context.Context, tx *ent.Tx) error {
			if err := s.run(t, ctx, tx.Client()); err != nil {
				return err
			}
			return errAbort
		})
		require.ErrorIs(t, err, errAbort, s.typ)
		require.False(t, s.changed(t), "%s: the change rolled back", s.typ)
		for _, after := range steps[i:] {
			if after.typ != s.typ && !(s.typ == events.BookingCancelled && after.typ == events.BookingPromoted) {
				continue
			}
			evs, ds, jobCount := e.outbox(t, after.typ)
			require.Empty(t, evs, "%s: no event for a rolled-back change", after.typ)
			require.Zero(t, ds, after.typ)
			require.Equal(t, jobsBefore, jobCount, "%s: no job", after.typ)
		}
		// Committed: the change, one event, one delivery, one job.
		require.NoError(t, events.WithTx(e.op, e.client, func(ctx context.Context, tx *ent.Tx) error {
			return s.run(t, ctx, tx.Client())
		}), s.typ)
		require.True(t, s.changed(t), s.typ)
		evs, ds, jobCount := e.outbox(t, s.typ)
		require.Len(t, evs, 1, s.typ)
		require.Equal(t, 1, ds, s.typ)
		wantJobs := jobsBefore + 1
		if s.typ == events.BookingCancelled {
			wantJobs++ // and booking.promoted's
		}
		require.Equal(t, wantJobs, jobCount, s.typ)
		for _, k := range s.data {
			require.Contains(t, evs[0].Payload, k, s.typ)
		}
		covered[s.typ] = true
	}
	// The promotion recorded by the committed cancellation.
	p := steps[3]
	require.True(t, p.changed(t))
	evs, ds, _ := e.outbox(t, events.BookingPromoted)
	require.Len(t, evs, 1)
	require.Equal(t, 1, ds)
	require.Contains(t, evs[0].Payload, "booking_id")
	covered[events.BookingPromoted] = true

	for _, typ := range events.Types {
		require.True(t, covered[typ] || coveredElsewhere[typ], "%s has a change that records it", typ)
	}
}

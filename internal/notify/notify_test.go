package notify_test

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/notificationoptout"
	"github.com/venueplatform/venue/ent/pushdevice"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// studio is a venue with one class taught by an instructor with an e-mail address and four
// booked members: phone and a push device; no phone; an unusable phone; opted out of SMS.
type studio struct {
	pool       *pgxpool.Pool
	client     *ent.Client
	ctx        context.Context
	org        uuid.UUID
	class      *ent.ClassInstance
	empty      *ent.ClassInstance // no bookings, an instructor without e-mail
	instructor *ent.Instructor
	members    []*ent.Member
	bookings   []*ent.Booking
}

func newStudio(t testing.TB, pool *pgxpool.Pool, slug string) *studio {
	t.Helper()
	client := db.NewClient(pool)
	v, err := venue.Create(context.Background(), client, venue.CreateParams{Name: slug, Slug: slug})
	require.NoError(t, err)
	ctx := viewer.NewContext(context.Background(), viewer.Operator{Org: v.ID, Name: "test"})
	s := &studio{pool: pool, client: client, ctx: ctx, org: v.ID}
	ct := client.ClassType.Create().SetName("Flow").SaveX(ctx)
	s.instructor = client.Instructor.Create().SetFirstName("Mette").SetEmail("mette@" + slug + ".example").SaveX(ctx)
	mute := client.Instructor.Create().SetFirstName("Ole").SaveX(ctx)
	start := time.Now().Add(48 * time.Hour).Truncate(time.Minute)
	s.class = client.ClassInstance.Create().SetClassTypeID(ct.ID).SetInstructorID(s.instructor.ID).
		SetStartTime(start).SetEndTime(start.Add(time.Hour)).SetCapacity(10).SaveX(ctx)
	s.empty = client.ClassInstance.Create().SetClassTypeID(ct.ID).SetInstructorID(mute.ID).
		SetStartTime(start).SetEndTime(start.Add(time.Hour)).SetCapacity(10).SaveX(ctx)
	for i, phone := range []string{"+45 12 34 56 78", "", "12", "+4587654321"} {
		en, err := members.Enroll(ctx, client, members.EnrollParams{
			Email: slug + "-m" + string(rune('a'+i)) + "@example.com", FirstName: "M", Phone: phone})
		require.NoError(t, err)
		s.members = append(s.members, en.Member)
		s.bookings = append(s.bookings, client.Booking.Create().SetMemberID(en.Member.ID).SetClassInstanceID(s.class.ID).SaveX(ctx))
	}
	client.PushDevice.Create().SetMemberID(s.members[0].ID).SetPlatform(pushdevice.PlatformIos).SetToken("device-a").SaveX(ctx)
	client.PushDevice.Create().SetMemberID(s.members[1].ID).SetPlatform(pushdevice.PlatformIos).SetToken("device-old").
		SetDisabledAt(time.Now()).SaveX(ctx)
	client.NotificationOptOut.Create().SetMemberID(s.members[3].ID).SetChannel(notificationoptout.ChannelSms).SaveX(ctx)
	// A member who cancelled is not told about the class.
	en, err := members.Enroll(ctx, client, members.EnrollParams{Email: slug + "-gone@example.com", FirstName: "G"})
	require.NoError(t, err)
	client.Booking.Create().SetMemberID(en.Member.ID).SetClassInstanceID(s.class.ID).
		SetStatus(booking.StatusCancelled).SetCancelReason("member").SaveX(ctx)
	return s
}

func (s *studio) channels(t *testing.T, on map[string]bool) {
	t.Helper()
	fp := s.client.FeatureProvisioning.Query().OnlyX(s.ctx)
	s.client.FeatureProvisioning.UpdateOne(fp).SetModules(on).ExecX(s.ctx)
}

func (s *studio) rows(t *testing.T) []*ent.NotificationDelivery {
	t.Helper()
	return s.client.NotificationDelivery.Query().Order(notificationdelivery.ByCreatedAt()).AllX(s.ctx)
}

func TestAvailabilityGates(t *testing.T) {
	pool := pgtest.NewPool(t)
	s := newStudio(t, pool, "gates")
	other := newStudio(t, pool, "other")

	all := []notify.Action{notify.ActionCancel, notify.ActionEdit, notify.ActionSubstitute, notify.ActionRestore}
	av, err := notify.Availability(s.ctx, s.client, []uuid.UUID{s.class.ID, s.empty.ID, other.class.ID}, all...)
	require.NoError(t, err)
	require.Len(t, av, 2, "another venue's class is left out")

	cancel := av[s.class.ID][notify.ActionCancel]
	require.Equal(t, notify.Entry{Available: true, Reachable: 4, Total: 4, ReachLabel: "4 of 4 reachable"}, cancel.Clients.Email)
	// SMS and push are off until the venue switches them on.
	require.Equal(t, notify.ReasonVenueCapability, cancel.Clients.SMS.ReasonCode)
	require.Equal(t, notify.GateVenueChannel, cancel.Clients.Push.GateCode)
	require.False(t, cancel.Clients.Push.Available)
	require.True(t, cancel.Instructor.Email.Available)
	require.Equal(t, s.instructor.ID, *cancel.Instructor.Email.RecipientID)
	require.Equal(t, notify.ReasonUnsupported, cancel.Instructor.SMS.ReasonCode)
	require.Equal(t, notify.ReasonUnsupported, cancel.Instructor.Push.ReasonCode)

	sub := av[s.class.ID][notify.ActionSubstitute]
	require.Equal(t, notify.ReasonUnsupported, sub.Clients.Email.ReasonCode, "substitution tells clients by push only")
	require.Equal(t, notify.GateChannelRule, sub.Clients.SMS.GateCode)
	require.True(t, sub.Instructor.Email.Available)

	restore := av[s.class.ID][notify.ActionRestore]
	require.Equal(t, notify.ReasonNoRecipients, restore.Clients.Email.ReasonCode, "nobody was cancelled by a class cancellation")

	empty := av[s.empty.ID][notify.ActionEdit]
	require.Equal(t, notify.ReasonNoRecipients, empty.Clients.Email.ReasonCode)
	require.Equal(t, 0, empty.Clients.Email.Total)
	require.Equal(t, notify.ReasonNoContact, empty.Instructor.Email.ReasonCode, "the instructor has no e-mail")
	require.Equal(t, 1, empty.Instructor.Email.Blocked)

	s.channels(t, map[string]bool{notify.ModuleSMS: true, notify.ModulePush: true})
	av, err = notify.Availability(s.ctx, s.client, []uuid.UUID{s.class.ID}, notify.ActionCancel)
	require.NoError(t, err)
	cancel = av[s.class.ID][notify.ActionCancel]
	require.Equal(t, notify.Entry{Available: true, Reachable: 1, Total: 4, Blocked: 3, ReachLabel: "1 of 4 reachable"}, cancel.Clients.SMS)
	require.Equal(t, 1, cancel.Clients.Push.Reachable, "a disabled device does not count")

	// Only the opted-out member on SMS: the entry closes with that reason.
	solo := s.client.ClassInstance.Create().SetClassTypeID(s.class.ClassTypeID).SetStartTime(s.class.StartTime).
		SetEndTime(s.class.EndTime).SetCapacity(5).SaveX(s.ctx)
	s.client.Booking.Create().SetMemberID(s.members[3].ID).SetClassInstanceID(solo.ID).SaveX(s.ctx)
	s.client.Booking.Create().SetMemberID(s.members[2].ID).SetClassInstanceID(solo.ID).SaveX(s.ctx)
	s.client.Booking.Create().SetMemberID(s.members[1].ID).SetClassInstanceID(solo.ID).SaveX(s.ctx)
	av, err = notify.Availability(s.ctx, s.client, []uuid.UUID{solo.ID}, notify.ActionCancel)
	require.NoError(t, err)
	e := av[solo.ID][notify.ActionCancel].Clients.SMS
	require.False(t, e.Available)
	require.Equal(t, notify.GateContact, e.GateCode)
	require.Contains(t, []string{notify.ReasonUserOptedOut, notify.ReasonInvalidContact, notify.ReasonNoContact}, e.ReasonCode)
	require.Equal(t, 3, e.Blocked)
	require.Equal(t, notify.ReasonNoRegisteredDevice, av[solo.ID][notify.ActionCancel].Clients.Push.ReasonCode)
	require.Equal(t, notify.ReasonNoRecipients, av[solo.ID][notify.ActionCancel].Instructor.Email.ReasonCode)

	require.Equal(t, notify.ReasonAvailabilityError, notify.AvailabilityError().Clients.Email.ReasonCode)
}

func TestEnqueueIsSilentUnlessAskedAndRollsBackWithTheChange(t *testing.T) {
	pool := pgtest.NewPool(t)
	s := newStudio(t, pool, "enqueue")
	msg := notify.Message{Kind: "class.cancelled", Subject: "Cancelled", Body: "The class is cancelled."}

	res, err := notify.EnqueueForClass(s.ctx, s.client, s.class.ID, notify.ActionCancel, notify.Request{}, msg)
	require.NoError(t, err)
	require.Zero(t, res.Queued)
	require.Empty(t, s.rows(t), "a zero request writes nothing")

	// A rolled-back transaction leaves nothing in the outbox.
	var req notify.Request
	req.Audience.Clients, req.Audience.Instructor = true, true
	req.Channels.Email, req.Channels.SMS = true, true
	tx, err := s.client.Tx(s.ctx)
	require.NoError(t, err)
	res, err = notify.EnqueueForClass(s.ctx, tx.Client(), s.class.ID, notify.ActionCancel, req, msg)
	require.NoError(t, err)
	require.Equal(t, 5, res.Queued, "four clients and the instructor by e-mail")
	require.NoError(t, tx.Rollback())
	require.Empty(t, s.rows(t))

	s.channels(t, map[string]bool{notify.ModuleSMS: true})
	res, err = notify.EnqueueForClass(s.ctx, s.client, s.class.ID, notify.ActionCancel, req, msg)
	require.NoError(t, err)
	require.Equal(t, 6, res.Queued, "five e-mails and one SMS")
	reasons := map[string]int{}
	for _, sk := range res.Skipped {
		require.Equal(t, notify.SMS, sk.Channel)
		reasons[sk.Reason]++
	}
	require.Equal(t, map[string]int{notify.ReasonNoContact: 1, notify.ReasonInvalidContact: 1, notify.ReasonUserOptedOut: 1}, reasons)
	rows := s.rows(t)
	require.Len(t, rows, 9)
	var pending, skipped int
	for _, r := range rows {
		require.Equal(t, s.class.ID, *r.ClassInstanceID)
		require.Equal(t, "operator:test", r.CreatedBy)
		switch r.Status {
		case notificationdelivery.StatusPending:
			pending++
			require.NotEmpty(t, r.Address)
			if r.Channel == notificationdelivery.ChannelSms {
				require.Equal(t, "+4512345678", r.Address)
			}
		case notificationdelivery.StatusSkipped:
			skipped++
			require.NotNil(t, r.StatusReason)
		}
	}
	require.Equal(t, 6, pending)
	require.Equal(t, 3, skipped)

	// Front-desk contact of chosen bookings; another venue's booking is not found.
	other := newStudio(t, pool, "other-enq")
	_, err = notify.EnqueueForBookings(s.ctx, s.client, []uuid.UUID{s.bookings[0].ID, other.bookings[0].ID}, notify.Email, msg)
	require.True(t, ent.IsNotFound(err), "%v", err)
	require.Len(t, s.rows(t), 9, "nothing written")
	res, err = notify.EnqueueForBookings(s.ctx, s.client, []uuid.UUID{s.bookings[1].ID}, notify.SMS, msg)
	require.NoError(t, err)
	require.Equal(t, 0, res.Queued)
	require.Equal(t, notify.ReasonNoContact, res.Skipped[0].Reason)
	require.Equal(t, s.bookings[1].ID, *res.Skipped[0].BookingID)
}

func TestAuthorizeAndChannelRules(t *testing.T) {
	org := uuid.New()
	key := viewer.NewContext(context.Background(), viewer.APIKey{Org: org, Scopes: []string{"write:schedule"}})
	requireDenied(t, notify.Authorize(key), notify.ReasonNeedsStaffSession)
	staff := viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New(), Org: org, Role: "staff"})
	requireDenied(t, notify.Authorize(staff), notify.ReasonPermission)
	sender := viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New(), Org: org, Role: "staff",
		Permissions: []string{notify.PermissionSend}})
	require.NoError(t, notify.Authorize(sender))
	owner := viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New(), Org: org, Role: "owner"})
	require.NoError(t, notify.Authorize(owner))
	noVenue := viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New()})
	requireDenied(t, notify.Authorize(noVenue), notify.ReasonNeedsStaffSession)

	var r notify.Request
	require.NoError(t, notify.CheckChannels(notify.ActionCancel, r), "asking nothing passes")
	r.Audience.Clients = true
	requireCode(t, notify.CheckChannels(notify.ActionCancel, r), 400, notify.CodeChannelRequired)
	r.Channels.Push = true
	require.NoError(t, notify.CheckChannels(notify.ActionCancel, r))
	r.Audience.Clients, r.Audience.Instructor = false, true
	requireCode(t, notify.CheckChannels(notify.ActionCancel, r), 422, notify.CodeChannelNotAllowed)
	r.Channels.Push, r.Channels.Email = false, true
	require.NoError(t, notify.CheckChannels(notify.ActionSubstitute, r))
	r.Audience.Clients, r.Audience.Instructor = true, false
	requireCode(t, notify.CheckChannels(notify.ActionSubstitute, r), 422, notify.CodeChannelNotAllowed)
	r.Audience.Instructor = true
	r.Channels.Email, r.Channels.SMS = false, true
	requireCode(t, notify.CheckChannels(notify.ActionSubstitute, r), 422, notify.CodeChannelNotAllowed)
}

func requireDenied(t *testing.T, err error, reason string) {
	t.Helper()
	e := requireCode(t, err, 403, apperr.CodeAccessDenied)
	require.Equal(t, reason, e.Details["reason"])
}

func requireCode(t *testing.T, err error, status int, code string) *apperr.Error {
	t.Helper()
	var e *apperr.Error
	require.True(t, errors.As(err, &e), "%v", err)
	require.Equal(t, status, e.Status)
	require.Equal(t, code, e.Code)
	return e
}

// recorder is a sender that records messages and fails as told.
type recorder struct {
	mu   sync.Mutex
	got  []notify.Outgoing
	fail error
}

func (r *recorder) Send(_ context.Context, m notify.Outgoing) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return "", r.fail
	}
	r.got = append(r.got, m)
	return "prov-" + m.DeliveryID.String()[:8], nil
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.got)
}

func TestRelayAndWorkerDeliverCommittedRowsOnce(t *testing.T) {
	pool := pgtest.NewPool(t)
	ctx := context.Background()
	_, err := jobs.Migrate(ctx, pool)
	require.NoError(t, err)
	s := newStudio(t, pool, "deliver")
	email, sms := &recorder{}, &recorder{fail: errors.New("gateway down")}
	workers := river.NewWorkers()
	log := slog.New(slog.DiscardHandler)
	require.NoError(t, notify.Register(pool, notify.Adapters{Email: email, SMS: sms, Push: notify.LogSink{Log: log}}, log)(workers))
	rc, err := river.NewClient(riverpgxv5.New(pool), &river.Config{
		Logger: log, FetchPollInterval: 20 * time.Millisecond, FetchCooldown: 5 * time.Millisecond,
		Queues: map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 4}}, Workers: workers,
	})
	require.NoError(t, err)

	var req notify.Request
	req.Audience.Clients = true
	req.Channels.Email = true
	res, err := notify.EnqueueForClass(s.ctx, s.client, s.class.ID, notify.ActionCancel, req,
		notify.Message{Kind: "class.cancelled", Subject: "Cancelled", Body: "Sorry."})
	require.NoError(t, err)
	require.Equal(t, 4, res.Queued)

	relay := &notify.Relay{Pool: pool, Log: log} // an insert-only client of its own
	n, err := relay.Once(ctx)
	require.NoError(t, err)
	require.Equal(t, 4, n)
	n, err = relay.Once(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "a dispatched row is not queued twice")

	require.NoError(t, rc.Start(ctx))
	t.Cleanup(func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, rc.Stop(sctx))
	})
	require.Eventually(t, func() bool {
		return s.client.NotificationDelivery.Query().Where(notificationdelivery.StatusEQ(notificationdelivery.StatusSent)).CountX(s.ctx) == 4
	}, 20*time.Second, 20*time.Millisecond)
	require.Equal(t, 4, email.count())
	for _, r := range s.rows(t) {
		require.Equal(t, 1, r.Attempts)
		require.NotNil(t, r.SentAt)
		require.Equal(t, "prov-"+r.ID.String()[:8], *r.ProviderMessageID)
	}

	// Inside events.WithTx the jobs ride on the transaction: no relay pass is needed, and a
	// rolled-back change leaves neither rows nor jobs.
	boom := errors.New("boom")
	err = events.WithTx(s.ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		_, err := notify.EnqueueForClass(ctx, tx.Client(), s.class.ID, notify.ActionEdit, req,
			notify.Message{Kind: "class.updated", Body: "Moved."})
		require.NoError(t, err)
		return boom
	})
	require.ErrorIs(t, err, boom)
	require.Len(t, s.rows(t), 4)
	err = events.WithTx(s.ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		_, err := notify.EnqueueForClass(ctx, tx.Client(), s.class.ID, notify.ActionEdit, req,
			notify.Message{Kind: "class.updated", Body: "Moved."})
		return err
	})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return email.count() == 8 }, 20*time.Second, 20*time.Millisecond)
	n, err = relay.Once(ctx)
	require.NoError(t, err)
	require.Zero(t, n, "rows enqueued in WithTx were dispatched with their change")

	// Work on a row that is no longer pending sends nothing.
	w := notify.NewWorker(pool, notify.Adapters{Email: email}, log)
	require.NoError(t, w.Work(ctx, &river.Job[notify.DeliverArgs]{JobRow: jobRow(1), Args: notify.DeliverArgs{DeliveryID: res.QueuedIDs[0]}}))
	require.Equal(t, 8, email.count())
}

func TestWorkerRetriesTemporaryFailuresAndStopsOnPermanentOnes(t *testing.T) {
	pool := pgtest.NewPool(t)
	ctx := context.Background()
	s := newStudio(t, pool, "retries")
	s.channels(t, map[string]bool{notify.ModuleSMS: true})
	res, err := notify.EnqueueForBookings(s.ctx, s.client, []uuid.UUID{s.bookings[0].ID}, notify.SMS,
		notify.Message{Kind: "checkin.contact", Body: "Running late?"})
	require.NoError(t, err)
	id := res.QueuedIDs[0]
	sms := &recorder{fail: errors.New("gateway down")}
	w := notify.NewWorker(pool, notify.Adapters{SMS: sms}, slog.New(slog.DiscardHandler))

	err = w.Work(ctx, &river.Job[notify.DeliverArgs]{JobRow: jobRow(1), Args: notify.DeliverArgs{DeliveryID: id}})
	require.Error(t, err)
	row := s.client.NotificationDelivery.GetX(s.ctx, id)
	require.Equal(t, notificationdelivery.StatusPending, row.Status, "a temporary failure is retried")
	require.Equal(t, "gateway down", *row.LastError)

	sms.fail = nil
	require.NoError(t, w.Work(ctx, &river.Job[notify.DeliverArgs]{JobRow: jobRow(2), Args: notify.DeliverArgs{DeliveryID: id}}))
	row = s.client.NotificationDelivery.GetX(s.ctx, id)
	require.Equal(t, notificationdelivery.StatusSent, row.Status)
	require.Equal(t, 2, row.Attempts)
	require.Equal(t, "+4512345678", sms.got[0].To)

	res, err = notify.EnqueueForBookings(s.ctx, s.client, []uuid.UUID{s.bookings[0].ID}, notify.SMS,
		notify.Message{Kind: "checkin.contact", Body: "Again"})
	require.NoError(t, err)
	sms.fail = errors.Join(errors.New("number unknown"), notify.ErrPermanent)
	err = w.Work(ctx, &river.Job[notify.DeliverArgs]{JobRow: jobRow(1), Args: notify.DeliverArgs{DeliveryID: res.QueuedIDs[0]}})
	var cancel *river.JobCancelError
	require.ErrorAs(t, err, &cancel)
	row = s.client.NotificationDelivery.GetX(s.ctx, res.QueuedIDs[0])
	require.Equal(t, notificationdelivery.StatusFailed, row.Status)
	require.Equal(t, "rejected", *row.StatusReason)
}

func jobRow(attempt int) *rivertype.JobRow {
	return &rivertype.JobRow{Attempt: attempt, MaxAttempts: notify.MaxAttempts}
}

func TestRejectedPushDeviceIsDisabled(t *testing.T) {
	pool := pgtest.NewPool(t)
	s := newStudio(t, pool, "push")
	s.channels(t, map[string]bool{notify.ModulePush: true})
	res, err := notify.EnqueueForBookings(s.ctx, s.client, []uuid.UUID{s.bookings[0].ID}, notify.Push,
		notify.Message{Kind: "class.updated", Subject: "Moved", Body: "Now at 8."})
	require.NoError(t, err)
	require.Equal(t, 1, res.Queued)
	push := &recorder{fail: errors.Join(errors.New("unregistered"), notify.ErrPermanent)}
	w := notify.NewWorker(pool, notify.Adapters{Push: push}, slog.New(slog.DiscardHandler))
	err = w.Work(context.Background(), &river.Job[notify.DeliverArgs]{JobRow: jobRow(1), Args: notify.DeliverArgs{DeliveryID: res.QueuedIDs[0]}})
	require.Error(t, err)
	require.NotNil(t, s.client.PushDevice.Query().Where(pushdevice.Token("device-a")).OnlyX(s.ctx).DisabledAt)

	av, err := notify.Availability(s.ctx, s.client, []uuid.UUID{s.class.ID}, notify.ActionCancel)
	require.NoError(t, err)
	require.Equal(t, notify.ReasonNoRegisteredDevice, av[s.class.ID][notify.ActionCancel].Clients.Push.ReasonCode)
}

// TestCancellationReachesTheCancelledBookings: a class cancellation enqueued after the change
// (bookings already cancelled by it, in the same transaction) still tells those clients.
func TestCancellationReachesTheCancelledBookings(t *testing.T) {
	pool := pgtest.NewPool(t)
	_, err := jobs.Migrate(context.Background(), pool)
	require.NoError(t, err)
	s := newStudio(t, pool, "cancelled")
	var req notify.Request
	req.Audience.Clients = true
	req.Channels.Email = true
	err = events.WithTx(s.ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		tx.ClassInstance.UpdateOneID(s.class.ID).SetStatus(classinstance.StatusCancelled).ExecX(ctx)
		tx.Booking.Update().Where(booking.ClassInstanceID(s.class.ID), booking.StatusNEQ(booking.StatusCancelled)).
			SetStatus(booking.StatusCancelled).SetCancelReason("class_cancelled").ExecX(ctx)
		res, err := notify.EnqueueForClass(ctx, tx.Client(), s.class.ID, notify.ActionCancel, req,
			notify.Message{Kind: "class.cancelled", Subject: "Cancelled", Body: "Sorry."})
		require.NoError(t, err)
		require.Equal(t, 4, res.Queued, "the four booked members, not the one who had cancelled before")
		return err
	})
	require.NoError(t, err)
}

package schedule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/schedule"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestCountsFollowEveryBookingChange: the booked and waitlist counts a class
// carries follow inserts, status changes, moves between classes, deletes and
// bulk updates.
func TestCountsFollowEveryBookingChange(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	ctx := context.Background()
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Counts", Slug: "counts"})
	require.NoError(t, err)
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID})
	ct := client.ClassType.Create().SetName("Flow").SaveX(op)
	start := time.Now().Add(24 * time.Hour)
	a := client.ClassInstance.Create().SetClassTypeID(ct.ID).SetStartTime(start).SetEndTime(start.Add(time.Hour)).SetCapacity(3).SaveX(op)
	b := client.ClassInstance.Create().SetClassTypeID(ct.ID).SetStartTime(start).SetEndTime(start.Add(time.Hour)).SetCapacity(3).SaveX(op)
	var memberIDs []uuid.UUID
	for _, e := range []string{"a@example.com", "b@example.com", "c@example.com", "d@example.com"} {
		en, err := members.Enroll(op, client, members.EnrollParams{Email: e})
		require.NoError(t, err)
		memberIDs = append(memberIDs, en.Member.ID)
	}
	check := func(class uuid.UUID, booked, waitlisted, available int, bookable bool) {
		t.Helper()
		row, err := schedule.Get(op, client, class, time.Now())
		require.NoError(t, err)
		require.Equal(t, booked, row.Booked, "booked")
		require.Equal(t, waitlisted, row.Waitlisted, "waitlisted")
		require.Equal(t, available, row.Available, "available")
		require.Equal(t, bookable, row.Bookable, "bookable")
	}
	book := func(i int, st booking.Status) uuid.UUID {
		return client.Booking.Create().SetMemberID(memberIDs[i]).SetClassInstanceID(a.ID).SetStatus(st).SaveX(op).ID
	}
	first := book(0, booking.StatusConfirmed)
	book(1, booking.StatusCheckedIn)
	book(2, booking.StatusNoShow)
	waiting := book(3, booking.StatusWaitlisted)
	check(a.ID, 3, 1, 0, false)

	// A cancellation frees a seat; promoting the waitlisted booking takes it.
	client.Booking.UpdateOneID(first).SetStatus(booking.StatusCancelled).ExecX(op)
	check(a.ID, 2, 1, 1, true)
	client.Booking.UpdateOneID(waiting).SetStatus(booking.StatusConfirmed).ExecX(op)
	check(a.ID, 3, 0, 0, false)

	// Moving a booking to another class moves its seat; deleting frees it.
	client.Booking.UpdateOneID(waiting).SetClassInstanceID(b.ID).ExecX(op)
	check(a.ID, 2, 0, 1, true)
	check(b.ID, 1, 0, 2, true)
	client.Booking.DeleteOneID(waiting).ExecX(op)
	check(b.ID, 0, 0, 3, true)

	// Bulk updates count too.
	n := client.Booking.Update().Where(booking.ClassInstanceID(a.ID), booking.StatusNEQ(booking.StatusCancelled)).
		SetStatus(booking.StatusLateCancelled).SaveX(op)
	require.Equal(t, 2, n)
	check(a.ID, 0, 0, 3, true)
}

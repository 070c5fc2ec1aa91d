package notify_test

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/pgtest"
)

// BenchmarkAvailability300 computes the four schedule actions' availability for 300 classes
// of 10 bookings each: the largest window the schedule list computes it for.
func BenchmarkAvailability300(b *testing.B) {
	pool := pgtest.NewPool(b)
	s := newStudio(b, pool, "bench")
	var ms []uuid.UUID
	for i := range 10 {
		en, err := members.Enroll(s.ctx, s.client, members.EnrollParams{Email: "bench" + string(rune('a'+i)) + "@example.com",
			FirstName: "B", Phone: "+4512345678"})
		require.NoError(b, err)
		ms = append(ms, en.Member.ID)
	}
	ids := make([]uuid.UUID, 300)
	start := time.Now().Add(72 * time.Hour)
	for i := range ids {
		c := s.client.ClassInstance.Create().SetClassTypeID(s.class.ClassTypeID).SetInstructorID(s.instructor.ID).
			SetStartTime(start.Add(time.Duration(i) * time.Hour)).SetEndTime(start.Add(time.Duration(i)*time.Hour + time.Hour)).
			SetCapacity(20).SaveX(s.ctx)
		ids[i] = c.ID
		bulk := make([]*ent.BookingCreate, len(ms))
		for j, m := range ms {
			bulk[j] = s.client.Booking.Create().SetMemberID(m).SetClassInstanceID(c.ID)
		}
		s.client.Booking.CreateBulk(bulk...).SaveX(s.ctx)
	}
	actions := []notify.Action{notify.ActionCancel, notify.ActionEdit, notify.ActionSubstitute, notify.ActionRestore}
	b.ResetTimer()
	for b.Loop() {
		av, err := notify.Availability(s.ctx, s.client, ids, actions...)
		if err != nil || len(av) != 300 {
			b.Fatalf("availability: %v (%d)", err, len(av))
		}
	}
}

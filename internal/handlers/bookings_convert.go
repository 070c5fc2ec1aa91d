package handlers

import (
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func bkNilTime(t *time.Time) api.NilDateTime {
	if t == nil {
		return api.NilDateTime{Null: true}
	}
	return api.NewNilDateTime(t.UTC())
}

func bkNilUUID(id *uuid.UUID) api.NilUUID {
	if id == nil {
		return api.NilUUID{Null: true}
	}
	return api.NewNilUUID(*id)
}

func bkNilString(s *string) api.NilString {
	if s == nil {
		return api.NilString{Null: true}
	}
	return api.NewNilString(*s)
}

func bkNilInt(v *int) api.NilInt {
	if v == nil {
		return api.NilInt{Null: true}
	}
	return api.NewNilInt(*v)
}

// bookingItem is the REST view of booking b of class cl at now.
func bookingItem(b *ent.Booking, cl *ent.ClassInstance, now time.Time) api.BookingItem {
	out := api.BookingItem{
		ID: b.ID, OrganizationID: b.OrganizationID, MemberID: b.MemberID, ClassInstanceID: b.ClassInstanceID,
		PassID: bkNilUUID(b.PassID), Status: api.BookingStatus(b.Status), WaitlistPosition: bkNilInt(b.WaitlistPosition),
		BookedVia: api.NilString{Null: true}, ClipCharged: b.ClipCharged, CreatedAt: b.CreatedAt.UTC(),
		CancelledAt: bkNilTime(b.CancelledAt), CheckedInAt: bkNilTime(b.CheckedInAt), PromotedAt: bkNilTime(b.PromotedAt),
		CancelReason: bkNilString(b.CancelReason), LateCancelFeeMinor: api.NilInt64{Null: true},
		FeeStatus: api.NilBookingItemFeeStatus{Null: true}, Watch: api.NilBookingWatch{Null: true},
		Class: api.BookingClass{ID: cl.ID, ClassTypeID: cl.ClassTypeID, StartTime: cl.StartTime.UTC(),
			EndTime: cl.EndTime.UTC(), Status: api.BookingClassStatus(cl.Status), Online: cl.Online},
	}
	if b.BookedVia != nil {
		out.BookedVia = api.NewNilString(string(*b.BookedVia))
	}
	if b.LateCancelFeeMinor != nil {
		out.LateCancelFeeMinor = api.NewNilInt64(*b.LateCancelFeeMinor)
	}
	if b.FeeStatus != nil {
		out.FeeStatus = api.NewNilBookingItemFeeStatus(api.BookingItemFeeStatus(*b.FeeStatus))
	}
	if cl.Online {
		out.Watch = api.NewNilBookingWatch(watchView(booking.WatchWindow(cl, b, now)))
	}
	return out
}

func watchView(w booking.Watch) api.BookingWatch {
	return api.BookingWatch{OpensAt: w.OpensAt.UTC(), ClosesAt: w.ClosesAt.UTC(), RecoverUntil: w.RecoverUntil.UTC(),
		State: api.BookingWatchState(w.State), Admitted: w.Admitted}
}

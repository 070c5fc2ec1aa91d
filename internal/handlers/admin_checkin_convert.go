package handlers

import (
	"strings"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/frontdesk"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/notify"
)

func checkinClass(c frontdesk.Class, now time.Time) api.CheckinClass {
	out := api.CheckinClass{ID: c.ID, StartTime: c.StartTime.UTC(), EndTime: c.EndTime.UTC(),
		Status: api.CheckinClassStatus(c.Status), Capacity: c.Capacity, BookedCount: c.BookedCount,
		WaitlistCount: c.WaitlistCount, CheckedInCount: c.CheckedIn, NoShowCount: c.NoShow,
		Started: c.Started(now), Ended: c.Ended(now), UpdatedAt: concurrency.Format(c.UpdatedAt)}
	if ct := c.Edges.ClassType; ct != nil {
		out.ClassType = api.NamedRef{ID: ct.ID, Name: ct.Name}
	}
	out.Instructor.SetToNull()
	if i := c.Edges.Instructor; i != nil {
		out.Instructor.SetTo(api.NamedRef{ID: i.ID, Name: strings.TrimSpace(i.FirstName + " " + i.LastName)})
	}
	out.Location.SetToNull()
	if l := c.Edges.Location; l != nil {
		out.Location.SetTo(api.NamedRef{ID: l.ID, Name: l.Name})
	}
	out.Room.SetToNull()
	if r := c.Edges.Room; r != nil {
		out.Room.SetTo(api.NamedRef{ID: r.ID, Name: r.Name})
	}
	return out
}

func checkinBooking(b *ent.Booking) api.CheckinBooking {
	out := api.CheckinBooking{ID: b.ID, Status: api.CheckinBookingStatus(b.Status), UpdatedAt: concurrency.Format(b.UpdatedAt)}
	out.Member.ID = b.MemberID
	out.Member.ClientDisplayID.SetToNull()
	if m := b.Edges.Member; m != nil {
		if m.ClientDisplayID != nil {
			out.Member.ClientDisplayID.SetTo(*m.ClientDisplayID)
		}
		if u := m.Edges.User; u != nil {
			out.Member.Name = strings.TrimSpace(u.FirstName + " " + u.LastName)
			if out.Member.Name == "" {
				out.Member.Name = u.Email
			}
		}
	}
	out.Pass.SetToNull()
	if p := b.Edges.Pass; p != nil {
		cp := api.CheckinPass{ID: p.ID, Status: string(p.Status)}
		if pt := p.Edges.PassType; pt != nil {
			cp.Name = pt.Name
		}
		if p.ClipsRemaining != nil {
			cp.ClipsRemaining.SetTo(*p.ClipsRemaining)
		} else {
			cp.ClipsRemaining.SetToNull()
		}
		out.Pass.SetTo(cp)
	}
	setNilTime(&out.CheckedInAt, b.CheckedInAt)
	setNilTime(&out.CancelledAt, b.CancelledAt)
	if b.WaitlistPosition != nil {
		out.WaitlistPosition.SetTo(*b.WaitlistPosition)
	} else {
		out.WaitlistPosition.SetToNull()
	}
	if b.FeeStatus != nil {
		out.FeeStatus.SetTo(string(*b.FeeStatus))
	} else {
		out.FeeStatus.SetToNull()
	}
	return out
}

func setNilTime(dst *api.NilDateTime, t *time.Time) {
	if t == nil {
		dst.SetToNull()
		return
	}
	dst.SetTo(t.UTC())
}

func setNilString(dst *api.NilString, s string) {
	if s == "" {
		dst.SetToNull()
		return
	}
	dst.SetTo(s)
}

func checkinEntry(e notify.Entry) api.CheckinAvailabilityEntry {
	out := api.CheckinAvailabilityEntry{Available: e.Available, Reachable: e.Reachable, Total: e.Total,
		Blocked: e.Blocked, ReachLabel: e.ReachLabel}
	setNilString(&out.ReasonCode, e.ReasonCode)
	setNilString(&out.GateCode, e.GateCode)
	setNilString(&out.Reason, e.Reason)
	if e.RecipientID != nil {
		out.RecipientID.SetTo(*e.RecipientID)
	} else {
		out.RecipientID.SetToNull()
	}
	return out
}

func checkinSkipped(sk []notify.Skip) []api.CheckinSkipped {
	out := make([]api.CheckinSkipped, 0, len(sk))
	for _, s := range sk {
		row := api.CheckinSkipped{MemberID: s.RecipientID, Channel: api.CheckinSkippedChannel(s.Channel), Reason: s.Reason}
		if s.BookingID != nil {
			row.BookingID = *s.BookingID
		}
		out = append(out, row)
	}
	return out
}

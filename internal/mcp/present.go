package mcp

import (
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/schedule"
)

// The JSON shapes of tool results and resource contents. Times are RFC 3339
// in UTC; dates are venue-local YYYY-MM-DD; money carries both the major
// amount and the exact minor units.

const dateLayout = "2006-01-02"

type ref struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

type classOut struct {
	ID         uuid.UUID `json:"id"`
	ClassType  *ref      `json:"class_type"`
	Instructor *ref      `json:"instructor"`
	Location   *ref      `json:"location"`
	Room       *ref      `json:"room"`
	StartTime  time.Time `json:"start_time"`
	EndTime    time.Time `json:"end_time"`
	Status     string    `json:"status"`
	Online     bool      `json:"online"`
	Capacity   int       `json:"capacity"`
	Booked     int       `json:"booked"`
	Waitlisted int       `json:"waitlisted"`
	Available  int       `json:"available"`
	Bookable   bool      `json:"bookable"`
}

func presentClass(r schedule.Row, rs *refs) classOut {
	c := r.Class
	return classOut{
		ID: c.ID, StartTime: c.StartTime.UTC(), EndTime: c.EndTime.UTC(), Status: string(c.Status),
		Online: c.Online, Capacity: c.Capacity, Booked: r.Booked, Waitlisted: r.Waitlisted,
		Available: r.Available, Bookable: r.Bookable,
		ClassType: rs.classType(c.Edges.ClassType), Instructor: rs.instructor(c.Edges.Instructor),
		Location: rs.location(c.Edges.Location), Room: rs.room(c.Edges.Room),
	}
}

// refs presents the edges of a run of classes: an edge that is the same
// entity (pointer) as the previous class's shares its ref, which is only
// read. schedule.List loads each class type, instructor, location and room
// once, so a run of one class type needs one ref instead of one a class.
type refs struct {
	ct   *ent.ClassType
	in   *ent.Instructor
	loc  *ent.Location
	rm   *ent.Room
	last [4]*ref // of ct, in, loc, rm
}

func (rs *refs) classType(ct *ent.ClassType) *ref {
	if ct == nil {
		return nil
	}
	if ct != rs.ct {
		rs.ct, rs.last[0] = ct, &ref{ID: ct.ID, Name: ct.Name}
	}
	return rs.last[0]
}

func (rs *refs) instructor(in *ent.Instructor) *ref {
	if in == nil {
		return nil
	}
	if in != rs.in {
		rs.in, rs.last[1] = in, &ref{ID: in.ID, Name: fullName(in.FirstName, in.LastName)}
	}
	return rs.last[1]
}

func (rs *refs) location(l *ent.Location) *ref {
	if l == nil {
		return nil
	}
	if l != rs.loc {
		rs.loc, rs.last[2] = l, &ref{ID: l.ID, Name: l.Name}
	}
	return rs.last[2]
}

func (rs *refs) room(rm *ent.Room) *ref {
	if rm == nil {
		return nil
	}
	if rm != rs.rm {
		rs.rm, rs.last[3] = rm, &ref{ID: rm.ID, Name: rm.Name}
	}
	return rs.last[3]
}

type scheduleOut struct {
	From      string     `json:"from"`
	To        string     `json:"to"`
	Timezone  string     `json:"timezone"`
	Count     int        `json:"count"`
	Truncated bool       `json:"truncated"`
	Classes   []classOut `json:"classes"`
}

func presentSchedule(rows []schedule.Row, truncated bool, from, to time.Time, tz string) scheduleOut {
	out := scheduleOut{From: from.Format(dateLayout), To: to.Format(dateLayout), Timezone: tz,
		Count: len(rows), Truncated: truncated, Classes: make([]classOut, len(rows))}
	var rs refs
	for i, r := range rows {
		out.Classes[i] = presentClass(r, &rs)
	}
	return out
}

type memberOut struct {
	ID              uuid.UUID `json:"id"`
	FirstName       string    `json:"first_name"`
	LastName        string    `json:"last_name"`
	Email           string    `json:"email"`
	Phone           string    `json:"phone,omitempty"`
	ClientDisplayID *string   `json:"client_display_id"`
	Role            string    `json:"role"`
	Status          string    `json:"status"`
	JoinedAt        *string   `json:"joined_at"`
}

func presentMember(m *ent.Member) memberOut {
	out := memberOut{ID: m.ID, ClientDisplayID: m.ClientDisplayID, Role: string(m.Role), Status: string(m.Status)}
	if u := m.Edges.User; u != nil {
		out.FirstName, out.LastName, out.Email, out.Phone = u.FirstName, u.LastName, u.Email, u.Phone
	}
	if !m.JoinedAt.IsZero() {
		s := m.JoinedAt.UTC().Format(time.RFC3339)
		out.JoinedAt = &s
	}
	return out
}

type passOut struct {
	ID             uuid.UUID `json:"id"`
	PassType       *ref      `json:"pass_type"`
	Status         string    `json:"status"`
	ValidFrom      string    `json:"valid_from"`
	ValidTo        *string   `json:"valid_to"`
	ClipsRemaining *int      `json:"clips_remaining"`
}

type bookingOut struct {
	ID        uuid.UUID  `json:"id"`
	Status    string     `json:"status"`
	Member    *memberRef `json:"member,omitempty"`
	Class     *classRef  `json:"class"`
	Waitlist  *int       `json:"waitlist_position,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
}

type memberRef struct {
	ID   uuid.UUID `json:"id"`
	Name string    `json:"name"`
}

type classRef struct {
	ID        uuid.UUID `json:"id"`
	Name      string    `json:"name"`
	StartTime time.Time `json:"start_time"`
}

func presentBooking(b *ent.Booking, withMember bool) bookingOut {
	out := bookingOut{ID: b.ID, Status: string(b.Status), Waitlist: b.WaitlistPosition, CreatedAt: b.CreatedAt.UTC()}
	if ci := b.Edges.ClassInstance; ci != nil {
		out.Class = &classRef{ID: ci.ID, StartTime: ci.StartTime.UTC()}
		if ct := ci.Edges.ClassType; ct != nil {
			out.Class.Name = ct.Name
		}
	}
	if m := b.Edges.Member; withMember && m != nil {
		out.Member = &memberRef{ID: m.ID}
		if u := m.Edges.User; u != nil {
			out.Member.Name = fullName(u.FirstName, u.LastName)
		}
	}
	return out
}

type passTypeOut struct {
	ID          uuid.UUID `json:"id"`
	Name        string    `json:"name"`
	Slug        string    `json:"slug"`
	Category    string    `json:"category"`
	Price       float64   `json:"price"`
	PriceMinor  int64     `json:"price_minor"`
	Currency    string    `json:"currency"`
	Recurring   bool      `json:"recurring"`
	Interval    *string   `json:"billing_interval"`
	Clips       *int      `json:"clips"`
	ValidityDay *int      `json:"validity_days"`
	Listed      bool      `json:"listed"`
}

func presentPassType(p *ent.PassType) passTypeOut {
	out := passTypeOut{ID: p.ID, Name: p.Name, Slug: p.Slug, Category: string(p.Category),
		Price: money.ToMajor(p.PriceMinor, p.Currency), PriceMinor: p.PriceMinor, Currency: p.Currency,
		Recurring: p.IsRecurring, Clips: p.Clips, ValidityDay: p.ValidityDays, Listed: p.Listed}
	if p.BillingInterval != nil {
		s := string(*p.BillingInterval)
		out.Interval = &s
	}
	return out
}

type alertOut struct {
	ID        uuid.UUID `json:"id"`
	Severity  string    `json:"severity"`
	Title     string    `json:"title"`
	Message   string    `json:"message"`
	CreatedAt time.Time `json:"created_at"`
}

func fullName(first, last string) string {
	return strings.TrimSpace(first + " " + last)
}

func dateString(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := t.Format(dateLayout)
	return &s
}

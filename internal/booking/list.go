package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/predicate"
	"github.com/venueplatform/venue/internal/system"
)

// ListFilter narrows a user's own bookings.
type ListFilter struct {
	// Org keeps one venue's bookings (uuid.Nil: every venue).
	Org uuid.UUID
	// From and To bound the classes' start times, [From, To); zero is open.
	From, To time.Time
	// After continues after the row with this sort key.
	After *Key
	// Limit is the page size; one more row is fetched to learn has_more.
	Limit int
}

// Key is the sort key of the own-bookings list: the class's start time,
// then the booking id.
type Key struct {
	Start time.Time `json:"s"`
	ID    uuid.UUID `json:"i"`
}

// KeyOf returns the sort key of b (loaded with its class).
func KeyOf(b *ent.Booking) Key {
	return Key{Start: b.Edges.ClassInstance.StartTime, ID: b.ID}
}

// ListOwn returns up to f.Limit+1 bookings of the user uid across the venues
// they are related to (or f.Org's only), with their classes and venues,
// ordered by class start time, then id.
func ListOwn(ctx context.Context, client *ent.Client, uid uuid.UUID, f ListFilter) ([]*ent.Booking, error) {
	// System call site: the user lists their own relationships and, through
	// them, their own bookings; both queries are bound to the user's id.
	sctx := system.Allow(ctx, "bookings.own")
	mq := client.Member.Query().Where(member.UserID(uid))
	if f.Org != uuid.Nil {
		mq.Where(member.OrganizationID(f.Org))
	}
	ids, err := mq.IDs(sctx)
	if err != nil {
		return nil, fmt.Errorf("booking: own members: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	var cls []predicate.ClassInstance
	if !f.From.IsZero() {
		cls = append(cls, classinstance.StartTimeGTE(f.From))
	}
	if !f.To.IsZero() {
		cls = append(cls, classinstance.StartTimeLT(f.To))
	}
	q := client.Booking.Query().Where(entbooking.MemberIDIn(ids...))
	if len(cls) > 0 {
		q.Where(entbooking.HasClassInstanceWith(cls...))
	}
	if k := f.After; k != nil {
		q.Where(entbooking.Or(
			entbooking.HasClassInstanceWith(classinstance.StartTimeGT(k.Start)),
			entbooking.And(entbooking.HasClassInstanceWith(classinstance.StartTimeEQ(k.Start)), entbooking.IDGT(k.ID)),
		))
	}
	rows, err := q.Order(entbooking.ByClassInstanceField(classinstance.FieldStartTime), entbooking.ByID()).
		Limit(f.Limit + 1).WithClassInstance().WithOrganization().All(sctx)
	if err != nil {
		return nil, fmt.Errorf("booking: own bookings: %w", err)
	}
	return rows, nil
}

// GetOwn returns the booking id of the user uid (in any venue they are
// related to), with its class; any other booking is ErrBookingNotFound.
func GetOwn(ctx context.Context, client *ent.Client, uid, id uuid.UUID) (*ent.Booking, error) {
	// System call site: bound to the user's own member ids, as ListOwn.
	sctx := system.Allow(ctx, "bookings.own")
	b, err := client.Booking.Query().Where(entbooking.ID(id), entbooking.HasMemberWith(member.UserID(uid))).
		WithClassInstance().Only(sctx)
	if ent.IsNotFound(err) {
		return nil, ErrBookingNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("booking: own booking: %w", err)
	}
	return b, nil
}

// VenueLocationOf returns the time zone of venue org, for a user's own
// lists; an unknown venue is UTC (it has no bookings of theirs either).
func VenueLocationOf(ctx context.Context, client *ent.Client, org uuid.UUID) (*time.Location, error) {
	// System call site: only the venue's time zone is read, bound to the
	// user's own relationships like the list it serves.
	o, err := client.Organization.Query().Where(organization.ID(org)).Only(system.Allow(ctx, "bookings.own"))
	if ent.IsNotFound(err) {
		return time.UTC, nil
	}
	if err != nil {
		return nil, fmt.Errorf("booking: venue: %w", err)
	}
	loc, err := time.LoadLocation(o.Timezone)
	if err != nil {
		return time.UTC, nil
	}
	return loc, nil
}

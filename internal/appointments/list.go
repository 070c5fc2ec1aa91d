package appointments

import (
	"context"
	"fmt"
	"time"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/predicate"
	"github.com/venueplatform/venue/internal/system"
)

// Key is the sort key of appointment lists: the start, then the id.
type Key struct {
	Start time.Time `json:"s"`
	ID    uuid.UUID `json:"i"`
}

// KeyOf returns the sort key of ap.
func KeyOf(ap *ent.Appointment) Key { return Key{Start: ap.StartsAt, ID: ap.ID} }

// OwnFilter narrows a user's own appointments.
type OwnFilter struct {
	// Org keeps one venue's (uuid.Nil: every venue the user is related to).
	Org uuid.UUID
	// Past lists appointments that started before Now, newest first;
	// otherwise those starting at or after Now, soonest first.
	Past   bool
	Now    time.Time
	Status *entappointment.Status
	After  *Key
	// Limit is the page size; one more row is read to learn has_more.
	Limit int
}

// ListOwn returns up to f.Limit+1 appointments of the user uid.
func ListOwn(ctx context.Context, client *ent.Client, uid uuid.UUID, f OwnFilter) ([]*ent.Appointment, error) {
	// System call site: the user's own relationships and, through them,
	// their own appointments; both bound to the user's id.
	sctx := system.Allow(ctx, "appointments.own")
	mq := client.Member.Query().Where(member.UserID(uid))
	if f.Org != uuid.Nil {
		mq.Where(member.OrganizationID(f.Org))
	}
	ids, err := mq.IDs(sctx)
	if err != nil {
		return nil, fmt.Errorf("appointments: own members: %w", err)
	}
	if len(ids) == 0 {
		return nil, nil
	}
	q := client.Appointment.Query().Where(entappointment.MemberIDIn(ids...))
	if f.Status != nil {
		q.Where(entappointment.StatusEQ(*f.Status))
	}
	q.Where(window(f.Past, f.Now, f.After)...)
	rows, err := q.Order(order(f.Past)...).Limit(f.Limit + 1).WithService().All(sctx)
	if err != nil {
		return nil, fmt.Errorf("appointments: own: %w", err)
	}
	return rows, nil
}

// window is the direction's predicates: the side of now, and after the cursor.
func window(past bool, now time.Time, after *Key) []predicate.Appointment {
	var ps []predicate.Appointment
	if past {
		ps = append(ps, entappointment.StartsAtLT(now))
		if after != nil {
			ps = append(ps, entappointment.Or(entappointment.StartsAtLT(after.Start),
				entappointment.And(entappointment.StartsAtEQ(after.Start), entappointment.IDLT(after.ID))))
		}
		return ps
	}
	ps = append(ps, entappointment.StartsAtGTE(now))
	if after != nil {
		ps = append(ps, entappointment.Or(entappointment.StartsAtGT(after.Start),
			entappointment.And(entappointment.StartsAtEQ(after.Start), entappointment.IDGT(after.ID))))
	}
	return ps
}

func order(past bool) []entappointment.OrderOption {
	if past {
		return []entappointment.OrderOption{entappointment.ByStartsAt(sql.OrderDesc()), entappointment.ByID(sql.OrderDesc())}
	}
	return []entappointment.OrderOption{entappointment.ByStartsAt(), entappointment.ByID()}
}

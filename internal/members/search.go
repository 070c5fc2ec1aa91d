package members

import (
	"context"
	"fmt"
	"strings"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/predicate"
	"github.com/venueplatform/venue/ent/user"
)

// MaxSearchResults is the ceiling of one search.
const MaxSearchResults = 25

// DetailRecentBookings is how many bookings Detail returns.
const DetailRecentBookings = 10

// Search returns the members of the viewer's venue matching query, ordered
// by last and first name, at most limit of them (MaxResults when limit is
// zero or larger), and whether more matched. Each whitespace-separated word
// of query must occur (case-insensitively) in the first name, last name,
// email or client display id. The ceiling is part of the query: at most
// limit+1 rows are read.
func Search(ctx context.Context, client *ent.Client, query string, limit int) ([]*ent.Member, bool, error) {
	if limit <= 0 || limit > MaxSearchResults {
		limit = MaxSearchResults
	}
	words := strings.Fields(query)
	if len(words) == 0 {
		return []*ent.Member{}, false, nil
	}
	preds := make([]predicate.Member, 0, len(words))
	for _, w := range words {
		preds = append(preds, member.Or(
			member.ClientDisplayIDContainsFold(w),
			member.HasUserWith(user.Or(
				user.FirstNameContainsFold(w),
				user.LastNameContainsFold(w),
				user.EmailContainsFold(w),
			)),
		))
	}
	ms, err := client.Member.Query().
		Where(preds...).
		WithUser().
		Order(member.ByUserField(user.FieldLastName), member.ByUserField(user.FieldFirstName), ent.Asc(member.FieldID)).
		Limit(limit + 1).
		All(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("search members: %w", err)
	}
	more := len(ms) > limit
	if more {
		ms = ms[:limit]
	}
	return ms, more, nil
}

// Detail is one member with what staff look at first.
type Detail struct {
	Member *ent.Member // with its User edge
	// ActivePasses have status active, with their PassType edge.
	ActivePasses []*ent.Pass
	// RecentBookings are the newest RecentBookings bookings by class start,
	// with their ClassInstance (and its ClassType) edge.
	RecentBookings []*ent.Booking
}

// Get returns the detail of member id of the viewer's venue, or an ent
// not-found error.
func Get(ctx context.Context, client *ent.Client, id uuid.UUID) (*Detail, error) {
	m, err := client.Member.Query().Where(member.ID(id)).WithUser().Only(ctx)
	if err != nil {
		return nil, err
	}
	passes, err := client.Pass.Query().
		Where(pass.MemberID(id), pass.StatusEQ(pass.StatusActive)).
		WithPassType().
		Order(ent.Desc(pass.FieldValidFrom), ent.Asc(pass.FieldID)).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("member passes: %w", err)
	}
	bookings, err := client.Booking.Query().
		Where(booking.MemberID(id)).
		WithClassInstance(func(q *ent.ClassInstanceQuery) { q.WithClassType() }).
		Order(booking.ByClassInstanceField(classinstance.FieldStartTime, sql.OrderDesc()), ent.Asc(booking.FieldID)).
		Limit(DetailRecentBookings).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("member bookings: %w", err)
	}
	return &Detail{Member: m, ActivePasses: passes, RecentBookings: bookings}, nil
}

package members

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// MaxSearchResults is the ceiling of one search.
const MaxSearchResults = 25

// DetailRecentBookings is how many bookings Detail returns.
const DetailRecentBookings = 10

// ShortQuery is the longest normalised query that matches name prefixes
// only: one or two characters would otherwise match most of a large venue
// by its emails, phone numbers and client ids.
const ShortQuery = 2

// MinPhoneDigits is the fewest digits a query must have to match phone
// numbers (by their last digits).
const MinPhoneDigits = 3

// ErrSearchDenied is returned when the caller may not search the venue's
// members: no venue, a public visitor, or a person acting as a member.
var ErrSearchDenied = errors.New("members: only the venue's staff, operators and API keys search members")

// Search returns the members of the viewer's venue matching query, best
// first, at most limit of them (MaxSearchResults when limit is zero or
// larger), and whether more matched.
//
// The query is normalised like the members' stored search columns (accents
// folded, lower case, white space collapsed; venue_search_norm in the
// database). A member matches, in this order of rank, when
//
//  0. a name of theirs, "first last" or "last first", is the query or starts
//     with the query and a space (an exact first name, last name or full
//     name: "anna", "berg", "anna berg", "berg anna");
//  1. a name starts with the query (a name prefix: "ann", "anna b");
//  2. the query is longer than ShortQuery and the member's email or client
//     display id starts with it, or it has at least MinPhoneDigits digits
//     (and nothing but digits, spaces, "+", "-", "(" and ")") and the
//     member's phone number ends with them.
//
// Within a rank, members come by the matching value in byte order (the name
// as matched, the email, client id or reversed phone digits), then by id, so
// the order is total and stable. A member is listed once, at its best rank.
// There is no match inside a word and no typo tolerance: both would cost a
// walk over every member of the venue.
//
// Each rank reads about a page: every matching value is a range of a btree
// index on (organization_id, column text_pattern_ops, id), read from the
// query's prefix, at most limit+1 entries per column; rank 2 is read only
// when the names leave the page short.
func Search(ctx context.Context, client *ent.Client, query string, limit int) ([]*ent.Member, bool, error) {
	if limit <= 0 || limit > MaxSearchResults {
		limit = MaxSearchResults
	}
	if err := canSearch(ctx); err != nil {
		return nil, false, err
	}
	if strings.TrimSpace(query) == "" {
		return []*ent.Member{}, false, nil
	}
	q, err := normalise(ctx, client, query)
	if err != nil {
		return nil, false, err
	}
	if q == "" {
		return []*ent.Member{}, false, nil
	}
	want := limit + 1
	var hits []hit
	for _, column := range []string{member.FieldSearchFirst, member.FieldSearchLast} {
		ms, err := prefixScan(ctx, client, column, q, want)
		if err != nil {
			return nil, false, err
		}
		for _, m := range ms {
			key := m.SearchFirst
			if column == member.FieldSearchLast {
				key = m.SearchLast
			}
			hits = append(hits, hit{m: m, rank: nameRank(q, key), key: key})
		}
	}
	if distinct(hits) < want && utf8.RuneCountInString(q) > ShortQuery {
		scans := map[string]string{member.FieldSearchEmail: q, member.FieldSearchClient: q}
		if digits, ok := phoneDigits(q); ok {
			scans[member.FieldSearchPhone] = digits
		}
		for column, prefix := range scans {
			ms, err := prefixScan(ctx, client, column, prefix, want)
			if err != nil {
				return nil, false, err
			}
			for _, m := range ms {
				hits = append(hits, hit{m: m, rank: 2, key: m.SearchEmail})
				switch column {
				case member.FieldSearchClient:
					hits[len(hits)-1].key = m.SearchClient
				case member.FieldSearchPhone:
					hits[len(hits)-1].key = m.SearchPhone
				}
			}
		}
	}
	page := best(hits, want)
	more := len(page) > limit
	if more {
		page = page[:limit]
	}
	ms, err := load(ctx, client, page)
	return ms, more, err
}

// canSearch refuses callers that are not the venue's staff side.
func canSearch(ctx context.Context) error {
	v := viewer.FromContext(ctx)
	if v == nil {
		return ErrSearchDenied
	}
	if _, ok := v.Venue(); !ok {
		return ErrSearchDenied
	}
	switch u := v.(type) {
	case viewer.Public:
		return ErrSearchDenied
	case viewer.User:
		if _, member := u.ActingMember(); member || u.Role == "" {
			return ErrSearchDenied
		}
	}
	return nil
}

// normalise returns query as the database normalises search text.
func normalise(ctx context.Context, client *ent.Client, query string) (string, error) {
	rows, err := client.QueryContext(system.RawSQL(ctx, "members.search_norm"), `SELECT venue_search_norm($1)`, query)
	if err != nil {
		return "", fmt.Errorf("search members: %w", err)
	}
	defer rows.Close()
	var q string
	if rows.Next() {
		if err := rows.Scan(&q); err != nil {
			return "", fmt.Errorf("search members: %w", err)
		}
	}
	if err := rows.Err(); err != nil {
		return "", fmt.Errorf("search members: %w", err)
	}
	return q, nil
}

// prefixEnd is the smallest string after every string that starts with a
// prefix and a character: U+10FFFF, the largest character, in byte order.
const prefixEnd = "\U0010FFFF"

// searchColumns are the columns a scan reads to rank its rows.
var searchColumns = []string{member.FieldID, member.FieldSearchFirst, member.FieldSearchLast,
	member.FieldSearchEmail, member.FieldSearchPhone, member.FieldSearchClient}

// prefixScan returns up to n members of the venue whose column starts with
// prefix, in the column's byte order, then id: one range of the index
// (organization_id, column text_pattern_ops, id).
func prefixScan(ctx context.Context, client *ent.Client, column, prefix string, n int) ([]*ent.Member, error) {
	ms, err := client.Member.Query().
		Where(func(s *sql.Selector) {
			c := s.C(column)
			s.Where(sql.P(func(b *sql.Builder) {
				b.WriteString(c).WriteString(" ~>=~ ").Arg(prefix).
					WriteString(" AND ").WriteString(c).WriteString(" ~<~ ").Arg(prefix + prefixEnd)
			}))
		}).
		Order(func(s *sql.Selector) {
			s.OrderExpr(sql.Expr(s.C(column) + " USING ~<~"))
			s.OrderBy(s.C(member.FieldID))
		}).
		Select(searchColumns...).
		Limit(n).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("search members: %w", err)
	}
	return ms, nil
}

// phoneDigits returns the query's digits reversed, as search_phone holds a
// phone's, when the query is a phone number (or its end).
func phoneDigits(q string) (string, bool) {
	var d []byte
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case c >= '0' && c <= '9':
			d = append(d, c)
		case c == ' ' || c == '+' || c == '-' || c == '(' || c == ')':
		default:
			return "", false
		}
	}
	if len(d) < MinPhoneDigits {
		return "", false
	}
	slices.Reverse(d)
	return string(d), true
}

// hit is a member found by one scan: its rank and the value that matched.
type hit struct {
	m    *ent.Member
	rank int
	key  string
}

// nameRank returns the rank of name for q: 0 for the same name or a
// whole-word prefix, 1 for another prefix.
func nameRank(q, name string) int {
	if name == q || strings.HasPrefix(name, q+" ") {
		return 0
	}
	return 1
}

// distinct counts the members among hits.
func distinct(hits []hit) int {
	seen := make(map[uuid.UUID]bool, len(hits))
	for _, h := range hits {
		seen[h.m.ID] = true
	}
	return len(seen)
}

// best returns the first n members of hits in Search's order, each once at
// its best hit. Every scan is already in that order (rank 0 rows come first
// within a name scan: in byte order the query itself, then the query and a
// space, sort before any other continuation), and each read n rows, so the
// first n of the merge are the first n overall.
func best(hits []hit, n int) []*ent.Member {
	slices.SortFunc(hits, func(a, b hit) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return bytes.Compare(a.m.ID[:], b.m.ID[:])
	})
	seen := make(map[uuid.UUID]bool, len(hits))
	out := make([]*ent.Member, 0, n)
	for _, h := range hits {
		if len(out) == n {
			break
		}
		if !seen[h.m.ID] {
			seen[h.m.ID] = true
			out = append(out, h.m)
		}
	}
	return out
}

// load reads the page's members with their users, in the order of hits.
func load(ctx context.Context, client *ent.Client, hits []*ent.Member) ([]*ent.Member, error) {
	if len(hits) == 0 {
		return []*ent.Member{}, nil
	}
	ids := make([]uuid.UUID, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	ms, err := client.Member.Query().Where(member.IDIn(ids...)).WithUser().All(ctx)
	if err != nil {
		return nil, fmt.Errorf("search members: %w", err)
	}
	byID := make(map[uuid.UUID]*ent.Member, len(ms))
	for _, m := range ms {
		byID[m.ID] = m
	}
	out := make([]*ent.Member, 0, len(ids))
	for _, id := range ids {
		if m := byID[id]; m != nil {
			out = append(out, m)
		}
	}
	return out, nil
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

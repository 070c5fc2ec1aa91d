package members

import (
	"bytes"
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
// anywhere in an email or phone number.
const ShortQuery = 2

// ErrSearchDenied is returned when the caller may not search the venue's
// members: no venue, a public visitor, or a person acting as a member.
var ErrSearchDenied = errors.New("members: only the venue's staff, operators and API keys search members")

// Search returns the members of the viewer's venue matching query, best
// first, at most limit of them (MaxSearchResults when limit is zero or
// larger), and whether more matched.
//
// The query is normalised like the members' stored search columns (accents
// folded, lower case, white space collapsed; venue_search_norm in the
// database). A member matches when
//
//  0. a name of theirs ("first last" or "last first") equals the query or
//     starts with it followed by a space (an exact first name, last name or
//     full name),
//  1. a name starts with the query (a name prefix), or
//  2. the query has more than ShortQuery characters and each of its words
//     occurs in the member's names, email, phone or client display id.
//
// Matches come in that order: classes 0 and 1 by the matching name in byte
// order ("first last" for a first-name match, "last first" for a last-name
// match), then id; class 2 by trigram word similarity to the query (best
// first), then last and first name, then id. A member is listed once, in its
// best class.
//
// Every step reads about a page: the name classes walk the venue's btree
// indexes on (organization_id, search_first|search_last, id) from the
// query's prefix, at most limit+1 entries each; the word class, asked only
// when the names leave the page short, walks the venue's GiST trigram index
// nearest first (KNN) with a LIMIT.
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
	byFirst, err := namePrefix(ctx, client, member.FieldSearchFirst, q, want)
	if err != nil {
		return nil, false, err
	}
	byLast, err := namePrefix(ctx, client, member.FieldSearchLast, q, want)
	if err != nil {
		return nil, false, err
	}
	hits := mergeNames(q, byFirst, byLast, want)
	if len(hits) < want && utf8.RuneCountInString(q) > ShortQuery {
		words, err := wordMatches(ctx, client, q, want+len(hits))
		if err != nil {
			return nil, false, err
		}
		seen := make(map[uuid.UUID]bool, len(hits))
		for _, h := range hits {
			seen[h.ID] = true
		}
		for _, m := range words {
			if len(hits) == want {
				break
			}
			if !seen[m.ID] {
				hits = append(hits, m)
			}
		}
	}
	more := len(hits) > limit
	if more {
		hits = hits[:limit]
	}
	ms, err := load(ctx, client, hits)
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

// namePrefix returns up to n members of the venue whose column (search_first
// or search_last) starts with q, in the column's byte order, then id: one
// range of the index (organization_id, column text_pattern_ops, id).
func namePrefix(ctx context.Context, client *ent.Client, column, q string, n int) ([]*ent.Member, error) {
	ms, err := client.Member.Query().
		Where(func(s *sql.Selector) {
			c := s.C(column)
			s.Where(sql.P(func(b *sql.Builder) {
				b.WriteString(c).WriteString(" ~>=~ ").Arg(q).
					WriteString(" AND ").WriteString(c).WriteString(" ~<~ ").Arg(q + prefixEnd)
			}))
		}).
		Order(func(s *sql.Selector) {
			s.OrderExpr(sql.Expr(s.C(column) + " USING ~<~"))
			s.OrderBy(s.C(member.FieldID))
		}).
		Select(member.FieldID, member.FieldSearchFirst, member.FieldSearchLast).
		Limit(n).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("search members: %w", err)
	}
	return ms, nil
}

// nameHit is a member found by a name, with its class and the matching name.
type nameHit struct {
	m     *ent.Member
	class int
	key   string
}

// nameClass returns the class of name for q: 0 for the same name or a
// whole-word prefix, 1 for another prefix.
func nameClass(q, name string) int {
	if name == q || strings.HasPrefix(name, q+" ") {
		return 0
	}
	return 1
}

// mergeNames merges the two name scans into at most n members in the order
// of Search's classes 0 and 1. Each scan is already in that order (in byte
// order the query itself, then the query and a space, sort before any other
// continuation of the query), so the first n of the merge are the first n
// overall.
func mergeNames(q string, byFirst, byLast []*ent.Member, n int) []*ent.Member {
	best := map[uuid.UUID]nameHit{}
	add := func(m *ent.Member, key string) {
		h := nameHit{m: m, class: nameClass(q, key), key: key}
		if old, ok := best[m.ID]; ok && !less(h, old) {
			return
		}
		best[m.ID] = h
	}
	for _, m := range byFirst {
		add(m, m.SearchFirst)
	}
	for _, m := range byLast {
		add(m, m.SearchLast)
	}
	hits := make([]nameHit, 0, len(best))
	for _, h := range best {
		hits = append(hits, h)
	}
	slices.SortFunc(hits, func(a, b nameHit) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
	out := make([]*ent.Member, 0, min(n, len(hits)))
	for _, h := range hits[:min(n, len(hits))] {
		out = append(out, h.m)
	}
	return out
}

func less(a, b nameHit) bool {
	if a.class != b.class {
		return a.class < b.class
	}
	if a.key != b.key {
		return a.key < b.key
	}
	return bytes.Compare(a.m.ID[:], b.m.ID[:]) < 0
}

// wordMatches returns up to n members of the venue whose search text holds
// every word of q, nearest to q first by trigram word distance (a KNN walk
// of the GiST index on (organization_id, search_text)), then name and id.
func wordMatches(ctx context.Context, client *ent.Client, q string, n int) ([]*ent.Member, error) {
	words := strings.Fields(q)
	ms, err := client.Member.Query().
		Where(func(s *sql.Selector) {
			c := s.C(member.FieldSearchText)
			for _, w := range words {
				s.Where(sql.P(func(b *sql.Builder) {
					b.WriteString(c).WriteString(" LIKE ").Arg("%" + escapeLike(w) + "%")
				}))
			}
		}).
		Order(func(s *sql.Selector) {
			s.OrderExprFunc(func(b *sql.Builder) {
				b.WriteString(s.C(member.FieldSearchText)).WriteString(" <->> ").Arg(q)
			})
			s.OrderBy(s.C(member.FieldSearchLast), s.C(member.FieldSearchFirst), s.C(member.FieldID))
		}).
		Select(member.FieldID, member.FieldSearchFirst, member.FieldSearchLast).
		Limit(n).
		All(ctx)
	if err != nil {
		return nil, fmt.Errorf("search members: %w", err)
	}
	return ms, nil
}

// escapeLike quotes LIKE's wildcards and escape character in w.
func escapeLike(w string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(w)
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

package me

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/system"
)

// Affinity is one of the user's venues with the signals that rank it.
type Affinity struct {
	OrganizationID uuid.UUID
	Slug, Name     string
	City           string
	Score          int
	Favorite       bool
	ActivePasses   int
	RecentBookings int
	Member         bool
	// RecentAppointments counts appointments booked in the last 90 days
	// (a rescheduled one counts once, through its replacement).
	RecentAppointments int
}

// affinitiesSQL reads the user's own signals across venues: favourites,
// active passes, bookings and appointments of the last 90 days and active
// relationships. It is bound to the user's id and returns public venue
// fields only.
const affinitiesSQL = `
SELECT o.id, o.slug, o.name, coalesce(o.city, ''),
       fv.venue_id IS NOT NULL, p.n, b.n, m.n > 0, a.n
FROM organizations o
LEFT JOIN favorite_venues fv ON fv.venue_id = o.id AND fv.user_id = $1
CROSS JOIN LATERAL (SELECT count(*) AS n FROM passes ps JOIN members mm ON mm.id = ps.member_id
                    WHERE mm.user_id = $1 AND ps.organization_id = o.id AND ps.status = 'active') p
CROSS JOIN LATERAL (SELECT count(*) AS n FROM bookings bk JOIN members mm ON mm.id = bk.member_id
                    WHERE mm.user_id = $1 AND bk.organization_id = o.id
                      AND bk.created_at > now() - interval '90 days') b
CROSS JOIN LATERAL (SELECT count(*) AS n FROM appointments ap JOIN members mm ON mm.id = ap.member_id
                    WHERE mm.user_id = $1 AND ap.organization_id = o.id AND ap.status <> 'rescheduled'
                      AND ap.created_at > now() - interval '90 days') a
CROSS JOIN LATERAL (SELECT count(*) AS n FROM members mm
                    WHERE mm.user_id = $1 AND mm.organization_id = o.id AND mm.status = 'active') m
WHERE o.listed AND (fv.venue_id IS NOT NULL OR p.n > 0 OR b.n > 0 OR m.n > 0 OR a.n > 0)`

// Affinities ranks the user's listed venues by favourite, pass, booking and
// appointment signals (at most 50).
func (s *Service) Affinities(ctx context.Context) ([]Affinity, error) {
	_, u, err := Self(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := s.client.QueryContext(system.RawSQL(ctx, "me.affinities"), affinitiesSQL, u.UserID)
	if err != nil {
		return nil, fmt.Errorf("venue affinities: %w", err)
	}
	defer rows.Close()
	out := []Affinity{}
	for rows.Next() {
		var a Affinity
		if err := rows.Scan(&a.OrganizationID, &a.Slug, &a.Name, &a.City, &a.Favorite, &a.ActivePasses, &a.RecentBookings, &a.Member, &a.RecentAppointments); err != nil {
			return nil, fmt.Errorf("scan affinity: %w", err)
		}
		a.Score = a.ActivePasses*10 + a.RecentBookings + a.RecentAppointments
		if a.Favorite {
			a.Score += 100
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sortAffinities(out)
	if len(out) > 50 {
		out = out[:50]
	}
	return out, nil
}

func sortAffinities(a []Affinity) {
	slices.SortStableFunc(a, func(x, y Affinity) int {
		if x.Score != y.Score {
			return y.Score - x.Score
		}
		return strings.Compare(x.Name, y.Name)
	})
}

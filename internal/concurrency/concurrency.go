package concurrency

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/input"
)

// Param is the name of the token a write sends back.
const Param = "expected_updated_at"

// Layout is the format of a token: RFC 3339, UTC, six fractional digits
// (the microseconds PostgreSQL keeps).
const Layout = "2006-01-02T15:04:05.000000Z07:00"

// errNoRows marks a guarded bulk update that changed nothing.
var errNoRows = errors.New("concurrency: no row changed")

// Format returns the read token of a row updated at t.
func Format(t time.Time) string { return normalize(t).Format(Layout) }

// normalize cuts t to the precision PostgreSQL stores, in UTC.
func normalize(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// Token is a parsed expected_updated_at.
type Token struct {
	at time.Time
}

// Of returns the token of a row updated at t (for a body field the generated
// server already decoded as a date-time).
func Of(t time.Time) Token { return Token{at: normalize(t)} }

// Time is the updated_at the row must still carry, for a predicate such as
// alert.UpdatedAt(tok.Time()).
func (t Token) Time() time.Time { return t.at }

// String formats t as a token.
func (t Token) String() string { return Format(t.at) }

// IsZero reports whether t holds no time.
func (t Token) IsZero() bool { return t.at.IsZero() }

// Matches reports whether a row updated at updatedAt still carries t.
func (t Token) Matches(updatedAt time.Time) bool { return t.at.Equal(normalize(updatedAt)) }

// Parse parses the token s of the parameter Param.
func Parse(s string) (Token, error) { return ParseParam(Param, s) }

// ParseParam parses the token s of the parameter name: 400 VALIDATION_ERROR
// naming it when it is missing or not RFC 3339.
func ParseParam(name, s string) (Token, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Token{}, Missing(name)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil || input.Date(t) != nil {
		// No row was ever written outside the years input.Date allows: such
		// a token is malformed, not merely stale.
		return Token{}, apperr.Validation(name, name+" must be an RFC 3339 timestamp, as returned in updated_at").With("reason", "malformed")
	}
	return Of(t), nil
}

// Save runs a guarded write and classifies its failure. save must apply
// tok.Time() as a predicate of the update, e.g.
//
//	client.Alert.UpdateOneID(id).Where(alert.UpdatedAt(at)).SetResolved(true).Save(ctx)
//
// and current must read the row's updated_at now. When save finds no row
// (ent's not-found), Save reads current: a missing row stays not-found (404),
// a row with another updated_at is Stale. Other errors pass through.
func Save[T any](ctx context.Context, tok Token, save func(ctx context.Context, at time.Time) (T, error), current func(ctx context.Context) (time.Time, error)) (T, error) {
	var zero T
	if tok.IsZero() {
		return zero, Missing(Param)
	}
	v, err := save(ctx, tok.Time())
	if err == nil || !(ent.IsNotFound(err) || errors.Is(err, errNoRows)) {
		return v, err
	}
	now, cerr := current(ctx)
	if cerr != nil {
		return zero, cerr
	}
	// Equal can only mean the row changed and changed back within the check,
	// or save's predicate was not tok: still not this write's to apply.
	return zero, Stale(now)
}

// SaveCount is Save for a guarded bulk update, whose save reports the number
// of rows changed (Update().Where(ID(id), UpdatedAt(at)).Save): zero rows is
// classified like Save's not-found.
func SaveCount(ctx context.Context, tok Token, save func(ctx context.Context, at time.Time) (int, error), current func(ctx context.Context) (time.Time, error)) (int, error) {
	return Save(ctx, tok, func(ctx context.Context, at time.Time) (int, error) {
		n, err := save(ctx, at)
		if err == nil && n == 0 {
			return 0, errNoRows
		}
		return n, err
	}, current)
}

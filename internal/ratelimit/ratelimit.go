package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/venueplatform/venue/internal/system"
)

// The contract's default window: 100 requests per minute per key.
const (
	DefaultLimit  = 100
	DefaultPeriod = time.Minute
)

// Querier runs one statement returning one row; *pgxpool.Pool, *pgx.Conn and
// pgx.Tx satisfy it.
type Querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// Decision is the outcome of one request against a key's window.
type Decision struct {
	// Allowed reports whether the request may proceed.
	Allowed bool
	// Limit is the number of requests a full window allows.
	Limit int
	// Remaining is how many more requests the key may make right now.
	Remaining int
	// RetryAfter is how long a refused caller should wait (zero when allowed).
	RetryAfter time.Duration
	// Reset is how long until the window is whole again.
	Reset time.Duration
}

// RetryAfterSeconds is RetryAfter rounded up to whole seconds, at least 1 for
// a refused request: the value of a Retry-After header or of MCP's
// retry_after_seconds.
func (d Decision) RetryAfterSeconds() int {
	if d.Allowed {
		return 0
	}
	s := int((d.RetryAfter + time.Second - 1) / time.Second)
	return max(s, 1)
}

// Limiter applies one limit to every key.
type Limiter struct {
	q      Querier
	limit  int
	period time.Duration
	// interval is the emission interval T = period/limit; tolerance is the
	// burst tolerance tau = period - T (a full window may arrive at once).
	interval, tolerance time.Duration
}

// New returns a Limiter allowing limit requests per period per key, with q
// running the statements. A limit or period of zero or less takes the default.
func New(q Querier, limit int, period time.Duration) *Limiter {
	if limit <= 0 {
		limit = DefaultLimit
	}
	if period <= 0 {
		period = DefaultPeriod
	}
	interval := period / time.Duration(limit)
	return &Limiter{q: q, limit: limit, period: period, interval: interval, tolerance: period - interval}
}

// APIKey is the limited key of an API key: REST and MCP both use it, so they
// share one window.
func APIKey(id uuid.UUID) string { return "api_key:" + id.String() }

// allowSQL is GCRA in one statement. $1 key, $2 emission interval and $3 burst
// tolerance in microseconds. Every SET expression reads the old row (r), so
// allowed and tat are decided from the same TAT. RETURNING yields the new TAT
// relative to the database clock, in microseconds.
const allowSQL = `INSERT INTO rate_limits AS r (key, tat, allowed)
VALUES ($1, now() + $2 * interval '1 microsecond', true)
ON CONFLICT (key) DO UPDATE SET
  allowed = greatest(r.tat, now()) - now() <= $3 * interval '1 microsecond',
  tat = CASE WHEN greatest(r.tat, now()) - now() <= $3 * interval '1 microsecond'
    THEN greatest(r.tat, now()) + $2 * interval '1 microsecond'
    ELSE r.tat END
RETURNING allowed, (extract(epoch FROM r.tat - now()) * 1000000)::bigint`

// Allow counts one request of key and reports whether it may proceed.
func (l *Limiter) Allow(ctx context.Context, key string) (Decision, error) {
	if key == "" {
		return Decision{}, errors.New("ratelimit: empty key")
	}
	var (
		allowed bool
		aheadUS int64
	)
	err := l.q.QueryRow(system.RawSQL(ctx, "ratelimit.gcra"), allowSQL, key, l.interval.Microseconds(), l.tolerance.Microseconds()).Scan(&allowed, &aheadUS)
	if err != nil {
		return Decision{}, fmt.Errorf("ratelimit: %w", err)
	}
	return l.decide(allowed, time.Duration(aheadUS)*time.Microsecond), nil
}

// decide derives a Decision from the statement's verdict and how far the new
// TAT lies ahead of now.
func (l *Limiter) decide(allowed bool, ahead time.Duration) Decision {
	d := Decision{Allowed: allowed, Limit: l.limit, Reset: max(ahead, 0)}
	if allowed {
		// The bucket holds period-ahead of capacity: that many intervals fit.
		d.Remaining = min(max(int((l.period-ahead)/l.interval), 0), l.limit)
		return d
	}
	d.RetryAfter = max(ahead-l.tolerance, time.Microsecond)
	return d
}

// Prune deletes the rows of keys whose window is whole again (their TAT has
// passed): such a row decides nothing a missing row would not. It returns the
// number of rows deleted; run it now and then, e.g. hourly.
func (l *Limiter) Prune(ctx context.Context) (int64, error) {
	var n int64
	err := l.q.QueryRow(system.RawSQL(ctx, "ratelimit.gcra"), `WITH d AS (DELETE FROM rate_limits WHERE tat < now() RETURNING 1) SELECT count(*) FROM d`).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("ratelimit: prune: %w", err)
	}
	return n, nil
}

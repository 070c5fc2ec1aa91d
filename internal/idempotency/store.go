package idempotency

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/venueplatform/venue/internal/system"
)

// Defaults of the lock and the retention of a key.
const (
	DefaultLock = 60 * time.Second
	DefaultTTL  = 24 * time.Hour
)

// DB runs the store's statements; *pgxpool.Pool satisfies it.
type DB interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Store keeps claimed keys in the table idempotency_keys. Times come from
// the database clock, so instances with skewed clocks agree.
type Store struct {
	db        DB
	lock, ttl time.Duration
}

// NewStore returns a Store over db whose claims lock for lock and whose keys
// live for ttl after their answer; zero takes DefaultLock and DefaultTTL.
func NewStore(db DB, lock, ttl time.Duration) *Store {
	if lock <= 0 {
		lock = DefaultLock
	}
	if ttl <= 0 {
		ttl = DefaultTTL
	}
	return &Store{db: db, lock: lock, ttl: ttl}
}

// Key identifies a claimed key: the same key in another scope or from
// another principal is another key.
type Key struct {
	Scope, Principal, Key string
}

// Outcome is the result of a claim.
type Outcome int

// The outcomes of Claim.
const (
	// Claimed: the caller owns the key and runs the request.
	Claimed Outcome = iota + 1
	// Replay: the key has a final answer for this request.
	Replay
	// Mismatch: the key was first used with another request.
	Mismatch
	// InFlight: the key's first request is still running.
	InFlight
)

// Response is a stored final answer.
type Response struct {
	Status int
	Header map[string]string
	Body   []byte
}

// Claim is the result of Store.Claim.
type Claim struct {
	Outcome Outcome
	// ID of the claim (Claimed): Complete and Release take it; a claim taken
	// over after its lock expired gets a new id, so a late first request
	// cannot overwrite its successor.
	ID uuid.UUID
	// Response to replay (Replay).
	Response *Response
}

// claimSQL inserts a claim, or takes over the row of an expired key or of a
// lock past its time for the same request; it returns a row only when the
// caller now holds the key. $6 lock and $7 ttl in microseconds.
const claimSQL = `INSERT INTO idempotency_keys AS k
  (id, created_at, updated_at, scope, principal, key, request_hash, state, locked_until, expires_at)
VALUES ($1, now(), now(), $2, $3, $4, $5, 'in_flight',
  now() + $6 * interval '1 microsecond', now() + $7 * interval '1 microsecond')
ON CONFLICT (scope, principal, key) DO UPDATE SET
  id = EXCLUDED.id, created_at = now(), updated_at = now(), request_hash = EXCLUDED.request_hash,
  state = 'in_flight', response_status = NULL, response_headers = NULL, response_body = NULL,
  locked_until = EXCLUDED.locked_until, expires_at = EXCLUDED.expires_at
WHERE k.expires_at <= now()
   OR (k.state = 'in_flight' AND k.locked_until <= now() AND k.request_hash = EXCLUDED.request_hash)
RETURNING k.id`

// readSQL reads the row a claim conflicted with.
const readSQL = `SELECT request_hash, state, response_status, response_headers, response_body,
  expires_at <= now(), locked_until <= now()
FROM idempotency_keys WHERE scope = $1 AND principal = $2 AND key = $3`

// maxClaimAttempts bounds the retries of a claim whose conflicting row
// changed between the two statements (released, expired or unlocked).
const maxClaimAttempts = 4

// Claim claims k for the request with hash, or reports why not.
func (s *Store) Claim(ctx context.Context, k Key, hash []byte) (Claim, error) {
	ctx = system.RawSQL(ctx, "idempotency.keys")
	for range maxClaimAttempts {
		id := uuid.New()
		var got uuid.UUID
		err := s.db.QueryRow(ctx, claimSQL, id, k.Scope, k.Principal, k.Key, hash,
			s.lock.Microseconds(), s.ttl.Microseconds()).Scan(&got)
		if err == nil {
			return Claim{Outcome: Claimed, ID: got}, nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return Claim{}, fmt.Errorf("idempotency: claim: %w", err)
		}
		var (
			storedHash      []byte
			state           string
			status          *int
			headers, body   []byte
			expired, unlock bool
		)
		err = s.db.QueryRow(ctx, readSQL, k.Scope, k.Principal, k.Key).
			Scan(&storedHash, &state, &status, &headers, &body, &expired, &unlock)
		if errors.Is(err, pgx.ErrNoRows) {
			continue // released or swept since: claim again
		}
		if err != nil {
			return Claim{}, fmt.Errorf("idempotency: read claim: %w", err)
		}
		switch {
		case expired:
			continue
		case !bytes.Equal(storedHash, hash):
			return Claim{Outcome: Mismatch}, nil
		case state == "completed" && status != nil:
			r := &Response{Status: *status, Body: body}
			if len(headers) > 0 {
				if err := json.Unmarshal(headers, &r.Header); err != nil {
					return Claim{}, fmt.Errorf("idempotency: stored headers: %w", err)
				}
			}
			return Claim{Outcome: Replay, Response: r}, nil
		case unlock:
			continue
		default:
			return Claim{Outcome: InFlight}, nil
		}
	}
	// The row keeps changing under us: some other request is busy with it.
	return Claim{Outcome: InFlight}, nil
}

// Complete stores the final answer of the claim id and keeps the key for the
// TTL from now. It reports false when the claim was no longer held (its lock
// expired and a retry took it over).
func (s *Store) Complete(ctx context.Context, id uuid.UUID, r Response) (bool, error) {
	headers, err := json.Marshal(r.Header)
	if err != nil {
		return false, fmt.Errorf("idempotency: headers: %w", err)
	}
	if r.Body == nil {
		r.Body = []byte{}
	}
	tag, err := s.db.Exec(system.RawSQL(ctx, "idempotency.keys"), `UPDATE idempotency_keys SET state = 'completed', response_status = $2,
  response_headers = $3::jsonb, response_body = $4, updated_at = now(), locked_until = now(),
  expires_at = now() + $5 * interval '1 microsecond'
WHERE id = $1 AND state = 'in_flight'`, id, r.Status, string(headers), r.Body, s.ttl.Microseconds())
	if err != nil {
		return false, fmt.Errorf("idempotency: complete: %w", err)
	}
	return tag.RowsAffected() == 1, nil
}

// Release gives the claim id up, so the key may be used again.
func (s *Store) Release(ctx context.Context, id uuid.UUID) error {
	if _, err := s.db.Exec(system.RawSQL(ctx, "idempotency.keys"), `DELETE FROM idempotency_keys WHERE id = $1 AND state = 'in_flight'`, id); err != nil {
		return fmt.Errorf("idempotency: release: %w", err)
	}
	return nil
}

// Sweep deletes expired keys and returns how many.
func (s *Store) Sweep(ctx context.Context) (int64, error) {
	tag, err := s.db.Exec(system.RawSQL(ctx, "idempotency.keys"), `DELETE FROM idempotency_keys WHERE expires_at <= now()`)
	if err != nil {
		return 0, fmt.Errorf("idempotency: sweep: %w", err)
	}
	return tag.RowsAffected(), nil
}

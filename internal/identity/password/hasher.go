package password

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"runtime"

	"golang.org/x/crypto/argon2"
	"golang.org/x/text/unicode/norm"
)

// maxInputBytes bounds the bytes of a password given to Hash or Verify.
// argon2id first digests the password, so a huge input costs time before
// any policy check could refuse it; 4 KiB is far above MaxLength characters
// in any encoding.
const maxInputBytes = 4096

// Hasher hashes and verifies passwords with one set of parameters and bounds
// how many argon2id computations run at once. It is safe for concurrent use.
type Hasher struct {
	params Params
	sem    chan struct{}
	dummy  decoded
}

// NewHasher returns a Hasher for p that runs at most maxConcurrent argon2id
// computations at once; 0 means runtime.GOMAXPROCS(0). It computes one hash
// of a random password for DummyVerify, so it costs one hash.
func NewHasher(p Params, maxConcurrent int) (*Hasher, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if maxConcurrent < 0 {
		return nil, fmt.Errorf("password: maxConcurrent %d is negative", maxConcurrent)
	}
	if maxConcurrent == 0 {
		maxConcurrent = runtime.GOMAXPROCS(0)
	}
	h := &Hasher{params: p, sem: make(chan struct{}, maxConcurrent)}
	enc, err := h.Hash(context.Background(), rand.Text())
	if err != nil {
		return nil, err
	}
	if h.dummy, err = decode(enc); err != nil {
		return nil, err
	}
	return h, nil
}

// Params returns the parameters new hashes use.
func (h *Hasher) Params() Params { return h.params }

// Hash returns the PHC string of password with a fresh random salt. It does
// not apply the policy: call CheckPolicy first where a password is chosen.
// It fails only when ctx ends while waiting for a free slot, or with
// ErrTooLong for input above 4 KiB.
func (h *Hasher) Hash(ctx context.Context, password string) (string, error) {
	if len(password) > maxInputBytes {
		return "", &PolicyError{Field: "password", Reason: ReasonTooLong, Err: ErrTooLong}
	}
	salt := make([]byte, h.params.SaltLength)
	_, _ = rand.Read(salt) // crypto/rand.Read never fails; it aborts the program instead.
	key, err := h.derive(ctx, password, salt, h.params)
	if err != nil {
		return "", err
	}
	return encode(h.params, salt, key), nil
}

// Verify reports whether password matches the PHC string encoded: nil on a
// match, ErrMismatch on a wrong password, an error wrapping ErrMalformedHash
// for a hash it cannot read, or the context's error. The key comparison takes
// constant time. Verify uses the parameters of encoded, not the Hasher's;
// call NeedsRehash after a match.
func (h *Hasher) Verify(ctx context.Context, password, encoded string) error {
	d, err := decode(encoded)
	if err != nil {
		return err
	}
	return h.verify(ctx, password, d)
}

// DummyVerify does the work of a Verify with the Hasher's parameters against
// a hash no password matches, and returns ErrMismatch (or the context's
// error). Call it when the account does not exist or has no password, so the
// answer takes as long as for a wrong password.
func (h *Hasher) DummyVerify(ctx context.Context, password string) error {
	if err := h.verify(ctx, password, h.dummy); err != nil {
		return err
	}
	return ErrMismatch // unreachable: the dummy password is random and discarded.
}

// NeedsRehash reports whether encoded was made with parameters other than the
// Hasher's (or cannot be read). After a successful Verify, the login handler
// hashes the password again and stores the new hash.
func (h *Hasher) NeedsRehash(encoded string) bool {
	d, err := decode(encoded)
	if err != nil {
		return true
	}
	return d.params != h.params
}

func (h *Hasher) verify(ctx context.Context, password string, d decoded) error {
	if len(password) > maxInputBytes {
		return ErrMismatch
	}
	key, err := h.derive(ctx, password, d.salt, d.params)
	if err != nil {
		return err
	}
	if subtle.ConstantTimeCompare(key, d.key) != 1 {
		return ErrMismatch
	}
	return nil
}

// derive normalises password and runs argon2id once a slot is free.
func (h *Hasher) derive(ctx context.Context, password string, salt []byte, p Params) ([]byte, error) {
	select {
	case h.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("password: waiting to hash: %w", ctx.Err())
	}
	defer func() { <-h.sem }()
	pw := []byte(norm.NFKC.String(password))
	return argon2.IDKey(pw, salt, p.Iterations, p.Memory, p.Parallelism, p.KeyLength), nil
}

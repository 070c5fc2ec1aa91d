package password_test

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/password"
)

// cheap are parameters that keep tests fast; production uses DefaultParams.
var cheap = password.Params{Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}

func newHasher(t testing.TB, p password.Params) *password.Hasher {
	t.Helper()
	h, err := password.NewHasher(p, 0)
	require.NoError(t, err)
	return h
}

var phc = regexp.MustCompile(`^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$`)

func TestRoundTripDefaultParams(t *testing.T) {
	ctx := context.Background()
	h := newHasher(t, password.DefaultParams)

	enc, err := h.Hash(ctx, "correct horse battery staple")
	require.NoError(t, err)
	require.Regexp(t, phc, enc)
	require.NoError(t, h.Verify(ctx, "correct horse battery staple", enc))
	require.ErrorIs(t, h.Verify(ctx, "correct horse battery stapler", enc), password.ErrMismatch)
	require.ErrorIs(t, h.Verify(ctx, "", enc), password.ErrMismatch)
	require.False(t, h.NeedsRehash(enc))

	again, err := h.Hash(ctx, "correct horse battery staple")
	require.NoError(t, err)
	require.NotEqual(t, enc, again, "every hash has its own salt")
}

// The reference implementation (phc-winner-argon2, test.c) hashes
// "password" with salt "somesalt", m=64 MiB, t=2, p=1 to this string.
func TestVerifiesReferenceImplementationHash(t *testing.T) {
	const ref = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
	h := newHasher(t, cheap)
	require.NoError(t, h.Verify(context.Background(), "password", ref))
	require.ErrorIs(t, h.Verify(context.Background(), "Password", ref), password.ErrMismatch)
	require.True(t, h.NeedsRehash(ref))
}

func TestWrongPassword(t *testing.T) {
	ctx := context.Background()
	h := newHasher(t, cheap)
	enc, err := h.Hash(ctx, "a long enough password")
	require.NoError(t, err)
	for _, wrong := range []string{"", "a long enough passwor", "a long enough password ", "A long enough password", strings.Repeat("x", 5000)} {
		require.ErrorIs(t, h.Verify(ctx, wrong, enc), password.ErrMismatch, "%q", wrong)
	}
}

func TestNormalisesToNFKC(t *testing.T) {
	ctx := context.Background()
	h := newHasher(t, cheap)
	composed := "caf\u00e9 au lait 2024"                      // é as one code point
	decomposed := "cafe\u0301 au lait 2024"                   // e + combining acute
	fullWidth := "caf\u00e9 au lait \uff12\uff10\uff12\uff14" // full-width digits
	enc, err := h.Hash(ctx, composed)
	require.NoError(t, err)
	require.NoError(t, h.Verify(ctx, decomposed, enc))
	require.NoError(t, h.Verify(ctx, fullWidth, enc))
}

func TestNeedsRehash(t *testing.T) {
	ctx := context.Background()
	old := newHasher(t, cheap)
	enc, err := old.Hash(ctx, "a long enough password")
	require.NoError(t, err)
	require.False(t, old.NeedsRehash(enc))

	for name, p := range map[string]password.Params{
		"memory":      {Memory: 128, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32},
		"iterations":  {Memory: 64, Iterations: 2, Parallelism: 1, SaltLength: 16, KeyLength: 32},
		"parallelism": {Memory: 64, Iterations: 1, Parallelism: 2, SaltLength: 16, KeyLength: 32},
		"salt length": {Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 32, KeyLength: 32},
		"key length":  {Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 64},
	} {
		t.Run(name, func(t *testing.T) {
			h := newHasher(t, p)
			require.True(t, h.NeedsRehash(enc))
			// The old hash still verifies with its own parameters.
			require.NoError(t, h.Verify(ctx, "a long enough password", enc))
			fresh, err := h.Hash(ctx, "a long enough password")
			require.NoError(t, err)
			require.False(t, h.NeedsRehash(fresh))
		})
	}
	require.True(t, old.NeedsRehash("not a hash"))
}

func TestDummyVerify(t *testing.T) {
	h := newHasher(t, cheap)
	require.ErrorIs(t, h.DummyVerify(context.Background(), "anything at all"), password.ErrMismatch)
	require.ErrorIs(t, h.DummyVerify(context.Background(), ""), password.ErrMismatch)
}

func TestMalformedHashes(t *testing.T) {
	const good = "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
	h := newHasher(t, cheap)
	for name, enc := range map[string]string{
		"empty":               "",
		"argon2i":             strings.Replace(good, "argon2id", "argon2i", 1),
		"argon2d":             strings.Replace(good, "argon2id", "argon2d", 1),
		"version 16":          strings.Replace(good, "v=19", "v=16", 1),
		"no version":          strings.Replace(good, "v=19$", "", 1),
		"params out of order": strings.Replace(good, "m=65536,t=2,p=1", "t=2,m=65536,p=1", 1),
		"extra param":         strings.Replace(good, "p=1", "p=1,keyid=abc", 1),
		"leading zero":        strings.Replace(good, "m=65536", "m=065536", 1),
		"plus sign":           strings.Replace(good, "t=2", "t=+2", 1),
		"memory too large":    strings.Replace(good, "m=65536", "m=4194304", 1),
		"memory overflows":    strings.Replace(good, "m=65536", "m=99999999999", 1),
		"zero iterations":     strings.Replace(good, "t=2", "t=0", 1),
		"too many iterations": strings.Replace(good, "t=2", "t=1000", 1),
		"zero lanes":          strings.Replace(good, "p=1", "p=0", 1),
		"too many lanes":      strings.Replace(good, "p=1", "p=255", 1),
		"lanes overflow":      strings.Replace(good, "p=1", "p=257", 1),
		"padded salt":         strings.Replace(good, "c29tZXNhbHQ", "c29tZXNhbHQ=", 1),
		"url-safe alphabet":   strings.Replace(good, "GRPPc", "GRPP-", 1),
		"line break":          strings.Replace(good, "CTFhFdXPJO1a", "CTFhFdXP\nJO1a", 1),
		"short salt":          strings.Replace(good, "c29tZXNhbHQ", "c29tZQ", 1),
		"short key":           good[:len(good)-30],
		"extra field":         good + "$AAAA",
		"trailing space":      good + " ",
		"bcrypt":              "$2y$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy",
	} {
		t.Run(name, func(t *testing.T) {
			err := h.Verify(context.Background(), "password", enc)
			require.ErrorIs(t, err, password.ErrMalformedHash)
			require.False(t, errors.Is(err, password.ErrMismatch))
			require.True(t, h.NeedsRehash(enc))
		})
	}
}

func TestHashRefusesHugeInput(t *testing.T) {
	h := newHasher(t, cheap)
	_, err := h.Hash(context.Background(), strings.Repeat("a", 5000))
	require.ErrorIs(t, err, password.ErrTooLong)
}

func TestInvalidParams(t *testing.T) {
	for name, p := range map[string]password.Params{
		"zero":          {},
		"memory < 8p":   {Memory: 8, Iterations: 1, Parallelism: 2, SaltLength: 16, KeyLength: 32},
		"huge memory":   {Memory: 1<<20 + 1, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32},
		"short salt":    {Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 4, KeyLength: 32},
		"short key":     {Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 8},
		"no iterations": {Memory: 64, Iterations: 0, Parallelism: 1, SaltLength: 16, KeyLength: 32},
	} {
		_, err := password.NewHasher(p, 0)
		require.ErrorIs(t, err, password.ErrInvalidParams, name)
	}
	_, err := password.NewHasher(cheap, -1)
	require.Error(t, err)
	require.NoError(t, password.DefaultParams.Validate())
}

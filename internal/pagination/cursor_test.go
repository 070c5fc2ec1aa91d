package pagination_test

import (
	"bytes"
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/pagination"
)

var secret = bytes.Repeat([]byte("s"), pagination.MinSecretLen)

func TestNewSignerRefusesShortSecrets(t *testing.T) {
	require.Panics(t, func() { pagination.NewSigner([]byte("short")) })
	require.NotPanics(t, func() { pagination.NewSigner(secret) })
}

// randomKey is a sort key with a random instant (nanoseconds, any zone) and id.
func randomKey(r *rand.Rand) pagination.TimeID {
	zone := time.FixedZone("", (r.IntN(27)-12)*3600)
	at := time.Unix(r.Int64N(4_000_000_000), r.Int64N(1_000_000_000)).In(zone)
	var id uuid.UUID
	for i := range id {
		id[i] = byte(r.UintN(256))
	}
	return pagination.TimeID{At: at, ID: id}
}

func TestCursorRoundTrips(t *testing.T) {
	s := pagination.NewSigner(secret)
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		list := strings.Repeat("x", r.IntN(20)) + ":" + uuid.NewString()
		want := randomKey(r)
		c, err := s.Encode(list, want)
		require.NoError(t, err)
		require.NotContains(t, c, "=", "unpadded")
		require.NotContains(t, c, "+")
		require.NotContains(t, c, "/")
		var got pagination.TimeID
		require.NoError(t, s.Decode(list, c, &got))
		require.True(t, want.At.Equal(got.At), "%v != %v", want.At, got.At)
		require.Equal(t, want.ID, got.ID)

		// The same cursor under another list, or another secret, is refused.
		requireValidation(t, s.Decode(list+"!", c, &got), "after")
		other := pagination.NewSigner(append(bytes.Clone(secret), 'x'))
		requireValidation(t, other.Decode(list, c, &got), "after")
	}
}

func TestCursorOtherKeyTypes(t *testing.T) {
	s := pagination.NewSigner(secret)
	type nameKey struct {
		Name string `json:"n"`
		Seq  int64  `json:"s"`
	}
	c, err := s.Encode("venues", nameKey{Name: "Åre \"yoga\" ✓", Seq: -7})
	require.NoError(t, err)
	var got nameKey
	require.NoError(t, s.Decode("venues", c, &got))
	require.Equal(t, nameKey{Name: "Åre \"yoga\" ✓", Seq: -7}, got)

	// A key of another shape does not decode into this one.
	c, err = s.Encode("venues", map[string]any{"n": "a", "z": 1})
	require.NoError(t, err)
	requireValidation(t, s.Decode("venues", c, &got), "after")
	_, err = s.Encode("venues", func() {})
	require.Error(t, err, "unencodable keys fail loudly")
}

func TestCursorTamperAndTruncation(t *testing.T) {
	s := pagination.NewSigner(secret)
	c, err := s.Encode("invoices", pagination.TimeID{At: time.Date(2026, 11, 22, 10, 0, 0, 123456000, time.UTC), ID: uuid.New()})
	require.NoError(t, err)
	var key pagination.TimeID
	require.NoError(t, s.Decode("invoices", c, &key))

	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for i := range len(c) {
		for _, ch := range alphabet {
			if byte(ch) == c[i] {
				continue
			}
			bad := c[:i] + string(ch) + c[i+1:]
			requireValidation(t, s.Decode("invoices", bad, &key), "after")
		}
	}
	for n := range len(c) {
		requireValidation(t, s.Decode("invoices", c[:n], &key), "after")
	}
	for _, bad := range []string{
		c + "A", c + "==", c + " ", " " + c, strings.ToUpper(c),
		base64.StdEncoding.EncodeToString([]byte("not a cursor at all, but long enough to pass a length check")),
		"%%%", "null", "{}",
	} {
		requireValidation(t, s.Decode("invoices", bad, &key), "after")
	}

	// A cursor of another version is refused even with a valid tag layout.
	raw, err := base64.RawURLEncoding.DecodeString(c)
	require.NoError(t, err)
	raw[0] = 2
	requireValidation(t, s.Decode("invoices", base64.RawURLEncoding.EncodeToString(raw), &key), "after")
}

func TestAfterAndNext(t *testing.T) {
	s := pagination.NewSigner(secret)
	var key pagination.TimeID
	ok, err := s.After("payments", "", &key)
	require.NoError(t, err)
	require.False(t, ok)
	_, err = s.After("payments", "garbage", &key)
	requireValidation(t, err, "after")

	rows := []int{1, 2, 3, 4}
	keyOf := func(v int) any { return map[string]int{"v": v} }
	got, meta, err := pagination.Next(s, "payments", rows, 4, keyOf)
	require.NoError(t, err)
	require.Equal(t, rows, got)
	require.Equal(t, pagination.CursorMeta{Limit: 4}, meta)

	got, meta, err = pagination.Next(s, "payments", rows, 3, keyOf)
	require.NoError(t, err)
	require.Equal(t, []int{1, 2, 3}, got)
	require.True(t, meta.HasMore)
	require.NotNil(t, meta.NextCursor)
	var last map[string]int
	require.NoError(t, s.Decode("payments", *meta.NextCursor, &last))
	require.Equal(t, 3, last["v"])
}

func TestLoadSecret(t *testing.T) {
	env := func(v string) func(string) string {
		return func(name string) string {
			if name == pagination.SecretEnv {
				return v
			}
			return ""
		}
	}
	s, generated, err := pagination.LoadSecret(env(""))
	require.NoError(t, err)
	require.True(t, generated)
	require.Len(t, s, pagination.MinSecretLen)
	s2, _, err := pagination.LoadSecret(env(""))
	require.NoError(t, err)
	require.NotEqual(t, s, s2, "a fresh secret per start")

	long := strings.Repeat("k", 40)
	s, generated, err = pagination.LoadSecret(env(long))
	require.NoError(t, err)
	require.False(t, generated)
	require.Equal(t, []byte(long), s)

	_, _, err = pagination.LoadSecret(env("too-short"))
	require.ErrorContains(t, err, pagination.SecretEnv)
}

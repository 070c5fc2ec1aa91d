package password

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A Hasher never runs more argon2id computations than its bound; waiting
// callers give up when their context ends.
func TestConcurrencyBound(t *testing.T) {
	h, err := NewHasher(Params{Memory: 64, Iterations: 1, Parallelism: 1, SaltLength: 16, KeyLength: 32}, 1)
	require.NoError(t, err)
	h.sem <- struct{}{} // occupy the only slot

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = h.Hash(ctx, "a long enough password")
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorIs(t, h.DummyVerify(ctx, "x"), context.DeadlineExceeded)

	<-h.sem
	_, err = h.Hash(context.Background(), "a long enough password")
	require.NoError(t, err)
}

func TestDummyUsesCurrentParams(t *testing.T) {
	h, err := NewHasher(DefaultParams, 0)
	require.NoError(t, err)
	require.Equal(t, DefaultParams, h.dummy.params)
}

func TestEncodeDecode(t *testing.T) {
	salt := []byte("0123456789abcdef")
	key := []byte("0123456789abcdef0123456789abcdef")
	s := encode(DefaultParams, salt, key)
	require.Equal(t, "$argon2id$v=19$m=19456,t=2,p=1$MDEyMzQ1Njc4OWFiY2RlZg$MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY", s)
	d, err := decode(s)
	require.NoError(t, err)
	require.Equal(t, DefaultParams, d.params)
	require.Equal(t, salt, d.salt)
	require.Equal(t, key, d.key)
}

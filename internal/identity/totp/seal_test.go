package totp_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/totp"
)

func TestSealRoundTripAndBinding(t *testing.T) {
	key := bytes.Repeat([]byte{7}, totp.KeySize)
	s, err := totp.NewSealer(key)
	require.NoError(t, err)
	secret := totp.GenerateSecret()

	sealed, err := s.Seal(secret, "user-a")
	require.NoError(t, err)
	require.True(t, totp.IsSealed(sealed))
	require.NotContains(t, strings.ToUpper(sealed), secret)
	again, err := s.Seal(secret, "user-a")
	require.NoError(t, err)
	require.NotEqual(t, sealed, again, "a fresh nonce every time")

	got, stale, err := s.Open(sealed, "user-a")
	require.NoError(t, err)
	require.False(t, stale)
	require.Equal(t, secret, got)

	// Moved to another user's row, or tampered: does not open.
	_, _, err = s.Open(sealed, "user-b")
	require.ErrorIs(t, err, totp.ErrSealed)
	tampered := sealed[:len(sealed)-2] + "AA"
	_, _, err = s.Open(tampered, "user-a")
	require.ErrorIs(t, err, totp.ErrSealed)

	// Keys of the wrong size are refused.
	_, err = totp.NewSealer(key[:16])
	require.Error(t, err)
}

func TestSealRotationAndPlaintext(t *testing.T) {
	oldKey := bytes.Repeat([]byte{1}, totp.KeySize)
	newKey := bytes.Repeat([]byte{2}, totp.KeySize)
	old, err := totp.NewSealer(oldKey)
	require.NoError(t, err)
	secret := totp.GenerateSecret()
	sealed, err := old.Seal(secret, "u")
	require.NoError(t, err)

	// The new key alone cannot open it.
	fresh, err := totp.NewSealer(newKey)
	require.NoError(t, err)
	_, _, err = fresh.Open(sealed, "u")
	require.ErrorIs(t, err, totp.ErrUnknownKey)

	// New key current, old key previous: opens, and says to reseal.
	rotated, err := totp.NewSealer(newKey, oldKey)
	require.NoError(t, err)
	got, stale, err := rotated.Open(sealed, "u")
	require.NoError(t, err)
	require.True(t, stale)
	require.Equal(t, secret, got)
	resealed, err := rotated.Seal(got, "u")
	require.NoError(t, err)
	_, stale, err = fresh.Open(resealed, "u")
	require.NoError(t, err)
	require.False(t, stale)

	// A plaintext secret stored before sealing: readable, and stale.
	got, stale, err = rotated.Open(secret, "u")
	require.NoError(t, err)
	require.True(t, stale)
	require.Equal(t, secret, got)
	_, _, err = rotated.Open("not a secret!", "u")
	require.Error(t, err)

	// A key derived from a pepper is stable.
	pepper := bytes.Repeat([]byte{9}, 32)
	k1, err := totp.DeriveKey(pepper)
	require.NoError(t, err)
	k2, err := totp.DeriveKey(pepper)
	require.NoError(t, err)
	require.Equal(t, k1, k2)
	require.Len(t, k1, totp.KeySize)
	require.NotEqual(t, pepper, k1)
}

// TestSealerOpensValuesOfItsOwnSealingCode: a value sealed by this
// package's sealer before it used secretbox (key 32 x 0x5a) still opens.
func TestSealerOpensValuesOfItsOwnSealingCode(t *testing.T) {
	s, err := totp.NewSealer(bytes.Repeat([]byte{0x5a}, totp.KeySize))
	require.NoError(t, err)
	got, stale, err := s.Open("totp1:60bf07c488aad18f:8SYJPMfhagP_y6JjadSGJ-usFO_AtupEI6Qg5Tru5bRsnxZRYBGVg0F5x6AN1NVtMAwSFBH5kvzgp4YP",
		"9f1c0b8e-0000-4000-8000-000000000001")
	require.NoError(t, err)
	require.False(t, stale)
	require.Equal(t, "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", got)
}

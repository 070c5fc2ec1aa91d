package secretbox_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/secretbox"
)

func TestSealOpenRotate(t *testing.T) {
	k1, k2 := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)
	b1, err := secretbox.New(secretbox.FormatWebhook, k1)
	require.NoError(t, err)
	sealed, err := b1.Seal("whsec_c2VjcmV0", "sub-1")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(sealed, "wsk1:"))
	require.True(t, secretbox.IsSealed(sealed))
	require.NotContains(t, sealed, "c2VjcmV0")

	got, stale, err := b1.Open(sealed, "sub-1")
	require.NoError(t, err)
	require.False(t, stale)
	require.Equal(t, "whsec_c2VjcmV0", got)
	_, _, err = b1.Open(sealed, "sub-2")
	require.ErrorIs(t, err, secretbox.ErrSealed, "bound to its row")
	_, _, err = b1.Open(sealed[:len(sealed)-2]+"AA", "sub-1")
	require.ErrorIs(t, err, secretbox.ErrSealed, "tampered")

	// A new key opens nothing of the old one until the old is configured as previous.
	b2, err := secretbox.New(secretbox.FormatWebhook, k2)
	require.NoError(t, err)
	_, _, err = b2.Open(sealed, "sub-1")
	require.ErrorIs(t, err, secretbox.ErrUnknownKey)
	b21, err := secretbox.New(secretbox.FormatWebhook, k2, k1)
	require.NoError(t, err)
	got, stale, err = b21.Open(sealed, "sub-1")
	require.NoError(t, err)
	require.True(t, stale, "sealed with a previous key: seal again")
	require.Equal(t, "whsec_c2VjcmV0", got)

	// Without a key: stored as is, and plaintext always opens.
	var none *secretbox.Box
	plain, err := none.Seal("whsec_eA==", "x")
	require.NoError(t, err)
	require.Equal(t, "whsec_eA==", plain)
	require.False(t, secretbox.IsSealed(plain))
	got, stale, err = b1.Open("whsec_eA==", "x")
	require.NoError(t, err)
	require.True(t, stale, "a box with a key seals a plaintext value when it is stored again")
	require.Equal(t, "whsec_eA==", got)
	_, _, err = none.Open(sealed, "sub-1")
	require.ErrorIs(t, err, secretbox.ErrUnknownKey)

	_, err = secretbox.New(secretbox.FormatWebhook, []byte("short"))
	require.Error(t, err)
	_, err = secretbox.New("nope1", k1)
	require.Error(t, err)
}

// TestOldFormatsOpen holds values written by the sealers the service had
// before this package was shared: the webhook secretbox (wsk1) and the TOTP
// sealer of identity/totp (totp1), both with the key 32 x 0x5a. Sealed
// secrets already in a database must keep opening, whichever format their
// row holds.
func TestOldFormatsOpen(t *testing.T) {
	key := bytes.Repeat([]byte{0x5a}, 32)
	const (
		totpValue   = "totp1:60bf07c488aad18f:8SYJPMfhagP_y6JjadSGJ-usFO_AtupEI6Qg5Tru5bRsnxZRYBGVg0F5x6AN1NVtMAwSFBH5kvzgp4YP"
		totpUser    = "9f1c0b8e-0000-4000-8000-000000000001"
		webhook     = "wsk1:60bf07c488aad18f:XpGC_piPpuumntJQNsW7SklHdm6LZAGEGh2_K6aaqqHzmXEjsuJdCuJKzqYP1t20KCdEYlPN6umL4poLZPjMiIiB"
		webhookSub  = "2b7e1516-0000-4000-8000-000000000002"
		totpSecret  = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
		whookSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	)
	for _, format := range []string{secretbox.FormatWebhook, secretbox.FormatTOTP} {
		b, err := secretbox.New(format, key)
		require.NoError(t, err)
		got, stale, err := b.Open(totpValue, totpUser)
		require.NoError(t, err, format)
		require.False(t, stale, format)
		require.Equal(t, totpSecret, got, format)
		got, stale, err = b.Open(webhook, webhookSub)
		require.NoError(t, err, format)
		require.False(t, stale, format)
		require.Equal(t, whookSecret, got, format)
	}

	// What a box seals now has the layout of the old values.
	b, err := secretbox.New(secretbox.FormatTOTP, key)
	require.NoError(t, err)
	sealed, err := b.Seal(totpSecret, totpUser)
	require.NoError(t, err)
	require.Equal(t, strings.Split(totpValue, ":")[:2], strings.Split(sealed, ":")[:2])
	require.Len(t, sealed, len(totpValue))
}

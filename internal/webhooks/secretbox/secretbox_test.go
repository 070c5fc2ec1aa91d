package secretbox_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/webhooks/secretbox"
)

func TestSealOpenRotate(t *testing.T) {
	k1, k2 := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32)
	b1, err := secretbox.New(k1)
	require.NoError(t, err)
	sealed, err := b1.Seal("whsec_c2VjcmV0", "sub-1")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(sealed, "wsk1:"))
	require.NotContains(t, sealed, "c2VjcmV0")

	got, err := b1.Open(sealed, "sub-1")
	require.NoError(t, err)
	require.Equal(t, "whsec_c2VjcmV0", got)
	_, err = b1.Open(sealed, "sub-2")
	require.ErrorIs(t, err, secretbox.ErrSealed, "bound to its row")

	// A new key opens nothing of the old one until the old is configured as previous.
	b2, err := secretbox.New(k2)
	require.NoError(t, err)
	_, err = b2.Open(sealed, "sub-1")
	require.ErrorIs(t, err, secretbox.ErrUnknownKey)
	b21, err := secretbox.New(k2, k1)
	require.NoError(t, err)
	got, err = b21.Open(sealed, "sub-1")
	require.NoError(t, err)
	require.Equal(t, "whsec_c2VjcmV0", got)

	// Without a key: stored as is, and plaintext always opens.
	var none *secretbox.Box
	plain, err := none.Seal("whsec_eA==", "x")
	require.NoError(t, err)
	require.Equal(t, "whsec_eA==", plain)
	got, err = b1.Open("whsec_eA==", "x")
	require.NoError(t, err)
	require.Equal(t, "whsec_eA==", got)

	_, err = secretbox.New([]byte("short"))
	require.Error(t, err)
}

package codes_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/codes"
)

// RFC 7636 appendix B.
const (
	rfcVerifier  = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	rfcChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
)

func TestPKCE(t *testing.T) {
	require.Equal(t, rfcChallenge, codes.PKCEChallenge(rfcVerifier))
	require.NoError(t, codes.ValidatePKCEChallenge("S256", rfcChallenge))
	require.NoError(t, codes.VerifyPKCE(rfcVerifier, rfcChallenge))

	v := codes.NewPKCEVerifier()
	require.Len(t, v, 43)
	require.NoError(t, codes.VerifyPKCE(v, codes.PKCEChallenge(v)))

	long := strings.Repeat("a-._~Z9", 19)[:128]
	require.NoError(t, codes.VerifyPKCE(long, codes.PKCEChallenge(long)))

	for name, tc := range map[string][2]string{
		"other verifier":       {v, rfcChallenge},
		"42 characters":        {rfcVerifier[:42], codes.PKCEChallenge(rfcVerifier[:42])},
		"129 characters":       {long + "a", codes.PKCEChallenge(long + "a")},
		"reserved character":   {rfcVerifier[:42] + "+", codes.PKCEChallenge(rfcVerifier[:42] + "+")},
		"space":                {rfcVerifier[:42] + " ", codes.PKCEChallenge(rfcVerifier[:42] + " ")},
		"plain: verifier sent": {rfcVerifier, rfcVerifier},
		"empty challenge":      {rfcVerifier, ""},
		"empty verifier":       {"", rfcChallenge},
		"challenge case":       {rfcVerifier, strings.ToLower(rfcChallenge)},
	} {
		require.ErrorIs(t, codes.VerifyPKCE(tc[0], tc[1]), codes.ErrInvalidCode, name)
	}

	for _, m := range []string{"plain", "", "s256", "S512"} {
		require.ErrorIs(t, codes.ValidatePKCEChallenge(m, rfcChallenge), codes.ErrUnsupportedMethod, m)
	}
	for _, c := range []string{"", rfcChallenge[:42], rfcChallenge + "A", rfcChallenge[:42] + "+", rfcChallenge[:42] + "="} {
		require.ErrorIs(t, codes.ValidatePKCEChallenge("S256", c), codes.ErrInvalidCode, c)
	}
}

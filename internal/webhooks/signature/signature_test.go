package signature_test

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/webhooks/signature"
)

// The published Standard Webhooks test vector: a receiver library that follows the standard
// reproduces this signature, so ours must too.
const (
	vectorSecret    = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	vectorID        = "msg_p5jXN8AQM9LWM0D4loKWxJek"
	vectorTimestamp = 1614265330
	vectorBody      = `{"test": 2432232314}`
	vectorSignature = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
)

func vectorHeaders() http.Header {
	h := http.Header{}
	h.Set(signature.HeaderID, vectorID)
	h.Set(signature.HeaderTimestamp, strconv.Itoa(vectorTimestamp))
	h.Set(signature.HeaderSignature, vectorSignature)
	return h
}

func verifierAt(t *testing.T, unix int64, secrets ...string) *signature.Verifier {
	t.Helper()
	v, err := signature.NewVerifier(secrets...)
	require.NoError(t, err)
	v.Now = func() time.Time { return time.Unix(unix, 0) }
	return v
}

func TestSignReproducesTheStandardTestVector(t *testing.T) {
	sig, err := signature.Sign(vectorID, time.Unix(vectorTimestamp, 0), []byte(vectorBody), vectorSecret)
	require.NoError(t, err)
	require.Equal(t, vectorSignature, sig)
}

func TestVerifyAcceptsTheStandardTestVector(t *testing.T) {
	v := verifierAt(t, vectorTimestamp, vectorSecret)
	require.NoError(t, v.Verify(vectorHeaders(), []byte(vectorBody)))
}

func TestVerifyRefusesTampering(t *testing.T) {
	v := verifierAt(t, vectorTimestamp, vectorSecret)
	cases := map[string]func(h http.Header) []byte{
		"body": func(http.Header) []byte { return []byte(`{"test": 2432232315}`) },
		"id": func(h http.Header) []byte {
			h.Set(signature.HeaderID, vectorID+"x")
			return []byte(vectorBody)
		},
		"timestamp": func(h http.Header) []byte {
			h.Set(signature.HeaderTimestamp, strconv.Itoa(vectorTimestamp+1))
			return []byte(vectorBody)
		},
		"signature": func(h http.Header) []byte {
			h.Set(signature.HeaderSignature, "v1,"+base64.StdEncoding.EncodeToString(make([]byte, 32)))
			return []byte(vectorBody)
		},
		"scheme": func(h http.Header) []byte {
			h.Set(signature.HeaderSignature, strings.Replace(vectorSignature, "v1,", "v2,", 1))
			return []byte(vectorBody)
		},
	}
	for name, tamper := range cases {
		t.Run(name, func(t *testing.T) {
			h := vectorHeaders()
			body := tamper(h)
			require.ErrorIs(t, v.Verify(h, body), signature.ErrNoMatchingSignature)
		})
	}
}

func TestVerifyRefusesWrongSecret(t *testing.T) {
	other, err := signature.NewSecret()
	require.NoError(t, err)
	v := verifierAt(t, vectorTimestamp, other)
	require.ErrorIs(t, v.Verify(vectorHeaders(), []byte(vectorBody)), signature.ErrNoMatchingSignature)
}

func TestVerifyTimestampTolerance(t *testing.T) {
	for _, tc := range []struct {
		offset int64
		ok     bool
	}{{0, true}, {299, true}, {-300, true}, {301, false}, {-301, false}, {-86400, false}} {
		v := verifierAt(t, vectorTimestamp+tc.offset, vectorSecret)
		err := v.Verify(vectorHeaders(), []byte(vectorBody))
		if tc.ok {
			require.NoError(t, err, "offset %d", tc.offset)
		} else {
			require.ErrorIs(t, err, signature.ErrTimestampOutOfRange, "offset %d", tc.offset)
		}
	}
}

func TestVerifyMissingAndMalformedHeaders(t *testing.T) {
	v := verifierAt(t, vectorTimestamp, vectorSecret)
	for _, name := range []string{signature.HeaderID, signature.HeaderTimestamp, signature.HeaderSignature} {
		h := vectorHeaders()
		h.Del(name)
		require.ErrorIs(t, v.Verify(h, []byte(vectorBody)), signature.ErrMissingHeaders, name)
	}
	h := vectorHeaders()
	h.Set(signature.HeaderTimestamp, "yesterday")
	require.ErrorIs(t, v.Verify(h, []byte(vectorBody)), signature.ErrInvalidTimestamp)
}

// During a rotation the sender signs with both secrets and receivers holding either accept.
func TestRotationSeveralSignaturesAndSecrets(t *testing.T) {
	oldSecret, err := signature.NewSecret()
	require.NoError(t, err)
	newSecret, err := signature.NewSecret()
	require.NoError(t, err)
	now := time.Now()
	body := []byte(`{"id":"evt_1"}`)

	h, err := signature.Headers("msg_1", now, body, newSecret, oldSecret)
	require.NoError(t, err)
	require.Len(t, strings.Fields(h.Get(signature.HeaderSignature)), 2)
	for _, s := range []string{oldSecret, newSecret} {
		require.NoError(t, signature.Verify(h, body, s))
	}

	// Signed with the new secret only: a receiver holding both accepts, one holding only
	// the old refuses.
	h, err = signature.Headers("msg_1", now, body, newSecret)
	require.NoError(t, err)
	require.NoError(t, signature.Verify(h, body, oldSecret, newSecret))
	require.ErrorIs(t, signature.Verify(h, body, oldSecret), signature.ErrNoMatchingSignature)

	// Unknown schemes and garbage next to a valid signature are ignored.
	h.Set(signature.HeaderSignature, "v1a,abc v1,!!! "+h.Get(signature.HeaderSignature))
	require.NoError(t, signature.Verify(h, body, newSecret))
}

func TestSecrets(t *testing.T) {
	s, err := signature.NewSecret()
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(s, signature.SecretPrefix))
	key, err := signature.ParseSecret(s)
	require.NoError(t, err)
	require.Len(t, key, signature.SecretBytes)
	s2, err := signature.NewSecret()
	require.NoError(t, err)
	require.NotEqual(t, s, s2)

	for _, bad := range []string{
		"",
		"MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", // no prefix
		"whsec_not base64!",
		"whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 16)), // too short
		"whsec_" + base64.StdEncoding.EncodeToString(make([]byte, 65)), // too long
	} {
		_, err := signature.ParseSecret(bad)
		require.ErrorIs(t, err, signature.ErrInvalidSecret, bad)
	}
	_, err = signature.Sign("msg", time.Now(), nil)
	require.ErrorIs(t, err, signature.ErrInvalidSecret)
}

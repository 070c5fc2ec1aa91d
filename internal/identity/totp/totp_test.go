package totp_test

import (
	"encoding/base32"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/identity/totp"
)

// rfcSecret is the SHA1 seed of RFC 6238 appendix B, "12345678901234567890",
// in base32.
var rfcSecret = base32.StdEncoding.EncodeToString([]byte("12345678901234567890"))

// The RFC 6238 appendix B SHA1 vectors. The RFC prints 8 digits; a 6-digit
// code is the same number modulo 10^6, its last six digits.
var rfcVectors = []struct {
	unix  int64
	step  int64
	code8 string
}{
	{59, 1, "94287082"},
	{1111111109, 37037036, "07081804"},
	{1111111111, 37037037, "14050471"},
	{1234567890, 41152263, "89005924"},
	{2000000000, 66666666, "69279037"},
	{20000000000, 666666666, "65353130"},
}

func TestRFC6238Vectors(t *testing.T) {
	require.Equal(t, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", rfcSecret)
	for _, v := range rfcVectors {
		now := time.Unix(v.unix, 0)
		require.Equal(t, v.step, totp.Step(now), "step at %d", v.unix)
		code, err := totp.Code(rfcSecret, now)
		require.NoError(t, err)
		require.Equal(t, v.code8[2:], code, "code at %d", v.unix)

		step, err := totp.Verify(rfcSecret, v.code8[2:], now, 0)
		require.NoError(t, err, "verify at %d", v.unix)
		require.Equal(t, v.step, step)
	}
}

func TestWindow(t *testing.T) {
	now := time.Unix(1111111111, 0) // step 37037037
	at := func(d time.Duration) string {
		c, err := totp.Code(rfcSecret, now.Add(d))
		require.NoError(t, err)
		return c
	}
	for name, tc := range map[string]struct {
		code string
		step int64
		ok   bool
	}{
		"previous step": {at(-30 * time.Second), 37037036, true},
		"current step":  {at(0), 37037037, true},
		"next step":     {at(30 * time.Second), 37037038, true},
		"two back":      {at(-60 * time.Second), 0, false},
		"two ahead":     {at(60 * time.Second), 0, false},
		"an hour ago":   {at(-time.Hour), 0, false},
	} {
		step, err := totp.Verify(rfcSecret, tc.code, now, 0)
		if tc.ok {
			require.NoError(t, err, name)
			require.Equal(t, tc.step, step, name)
		} else {
			require.ErrorIs(t, err, totp.ErrInvalidCode, name)
			require.NotErrorIs(t, err, totp.ErrReused, name)
		}
	}
}

func TestStepReuse(t *testing.T) {
	now := time.Unix(1111111111, 0) // step 37037037
	code, err := totp.Code(rfcSecret, now)
	require.NoError(t, err)

	last, err := totp.Verify(rfcSecret, code, now, 0)
	require.NoError(t, err)

	// The same code again, in the same step and while still in the window.
	for _, later := range []time.Duration{0, 10 * time.Second, 30 * time.Second, 48 * time.Second} {
		_, err = totp.Verify(rfcSecret, code, now.Add(later), last)
		require.ErrorIs(t, err, totp.ErrReused, "after %v", later)
		require.ErrorIs(t, err, totp.ErrInvalidCode, "a reused code is an invalid code")
	}

	// An older code, still inside the window, after a newer one was used.
	prev, err := totp.Code(rfcSecret, now.Add(-30*time.Second))
	require.NoError(t, err)
	_, err = totp.Verify(rfcSecret, prev, now, last)
	require.ErrorIs(t, err, totp.ErrReused)

	// The next step's code is fresh.
	next, err := totp.Code(rfcSecret, now.Add(30*time.Second))
	require.NoError(t, err)
	step, err := totp.Verify(rfcSecret, next, now.Add(30*time.Second), last)
	require.NoError(t, err)
	require.Equal(t, last+1, step)
}

func TestMalformedCodes(t *testing.T) {
	now := time.Unix(59, 0)
	for _, code := range []string{"", "28708", "2870820", "28708a", "-28708", "２８７０８２", "٢٨٧٠٨٢", "287082\n", "0x1234"} {
		_, err := totp.Verify(rfcSecret, code, now, 0)
		require.ErrorIs(t, err, totp.ErrInvalidCode, "%q", code)
	}
	step, err := totp.Verify(rfcSecret, "287 082", now, 0)
	require.NoError(t, err, "spaces are ignored")
	require.Equal(t, int64(1), step)
}

func TestSecrets(t *testing.T) {
	s := totp.GenerateSecret()
	require.Regexp(t, `^[A-Z2-7]{32}$`, s)
	key, err := totp.DecodeSecret(s)
	require.NoError(t, err)
	require.Len(t, key, totp.SecretSize)
	require.NotEqual(t, s, totp.GenerateSecret())

	for name, form := range map[string]string{
		"lower case": "gezdgnbvgy3tqojqgezdgnbvgy3tqojq",
		"grouped":    "GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ",
		"dashed":     "GEZD-GNBV-GY3T-QOJQ-GEZD-GNBV-GY3T-QOJQ",
	} {
		key, err := totp.DecodeSecret(form)
		require.NoError(t, err, name)
		require.Equal(t, []byte("12345678901234567890"), key, name)
	}
	for name, bad := range map[string]string{
		"empty":      "",
		"not base32": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJ1",
		"80 bits":    base32.StdEncoding.EncodeToString(make([]byte, 10)),
		"too long":   base32.StdEncoding.EncodeToString(make([]byte, 65)),
		"lone char":  "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQG",
		"stray bits": "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQGF",
	} {
		_, err := totp.DecodeSecret(bad)
		require.ErrorIs(t, err, totp.ErrInvalidSecret, name)
		_, err = totp.Verify(bad, "123456", time.Now(), 0)
		require.ErrorIs(t, err, totp.ErrInvalidSecret, name)
	}
}

func TestProvisioningURI(t *testing.T) {
	uri, err := totp.ProvisioningURI("gezd gnbv gy3t qojq gezd gnbv gy3t qojq", "Venue Studio", "ana+test@example.com")
	require.NoError(t, err)
	require.Equal(t, "otpauth://totp/Venue%20Studio:ana+test@example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Venue%20Studio&algorithm=SHA1&digits=6&period=30", uri)

	u, err := url.Parse(uri)
	require.NoError(t, err)
	require.Equal(t, "otpauth", u.Scheme)
	require.Equal(t, "totp", u.Host)
	require.Equal(t, "/Venue Studio:ana+test@example.com", u.Path)
	q := u.Query()
	require.Equal(t, "Venue Studio", q.Get("issuer"))
	require.Equal(t, rfcSecret, q.Get("secret"))

	uri, err = totp.ProvisioningURI(rfcSecret, "A&B=C?", "x/y#z")
	require.NoError(t, err)
	u, err = url.Parse(uri)
	require.NoError(t, err)
	require.Equal(t, "A&B=C?", u.Query().Get("issuer"))
	require.Equal(t, "/A&B=C?:x/y#z", u.Path)

	for name, args := range map[string][3]string{
		"colon in issuer":  {rfcSecret, "a:b", "x"},
		"colon in account": {rfcSecret, "a", "x:y"},
		"empty issuer":     {rfcSecret, "", "x"},
		"empty account":    {rfcSecret, "a", ""},
	} {
		_, err := totp.ProvisioningURI(args[0], args[1], args[2])
		require.ErrorIs(t, err, totp.ErrInvalidLabel, name)
	}
	_, err = totp.ProvisioningURI("short", "a", "b")
	require.ErrorIs(t, err, totp.ErrInvalidSecret)
}

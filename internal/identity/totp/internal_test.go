package totp

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// RFC 4226 appendix D: HOTP values of the secret "12345678901234567890"
// for counters 0 to 9.
func TestRFC4226Vectors(t *testing.T) {
	key := []byte("12345678901234567890")
	want := []string{"755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"}
	for i, w := range want {
		require.Equal(t, w, hotp(key, uint64(i), 6), "counter %d", i)
	}
}

// RFC 6238 appendix B with the 8 digits the RFC prints.
func TestRFC6238EightDigits(t *testing.T) {
	key := []byte("12345678901234567890")
	for step, want := range map[uint64]string{
		1:         "94287082",
		37037036:  "07081804",
		37037037:  "14050471",
		41152263:  "89005924",
		66666666:  "69279037",
		666666666: "65353130",
	} {
		require.Equal(t, want, hotp(key, step, 8), "step %d", step)
	}
}

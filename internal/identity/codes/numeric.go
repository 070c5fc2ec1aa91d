package codes

import (
	"fmt"
	"strings"
)

// NumericCodeDigits is the length of single-use numeric codes.
const NumericCodeDigits = 6

// NewNumericCode returns a single-use code of six decimal digits, each drawn
// uniformly (so every code from 000000 to 999999 is equally likely), for
// password reset, password change and email OTP. Store
// Hasher.Sum(purpose, subject, code) with an expiry and an attempt counter:
// with a million values only the rate limits and the attempt limit protect
// it, and the pepper keeps a database copy from giving it away.
func NewNumericCode() string {
	return randomString("0123456789", NumericCodeDigits)
}

// NormalizeNumericCode returns a typed numeric code without white space or
// dashes, checking it is exactly six ASCII digits.
func NormalizeNumericCode(s string) (string, error) {
	var b strings.Builder
	for _, r := range s {
		if isSeparator(r) {
			continue
		}
		if r < '0' || r > '9' {
			return "", fmt.Errorf("%w: numeric code has a non-digit", ErrInvalidCode)
		}
		b.WriteRune(r)
	}
	if b.Len() != NumericCodeDigits {
		return "", fmt.Errorf("%w: numeric code has %d digits, want %d", ErrInvalidCode, b.Len(), NumericCodeDigits)
	}
	return b.String(), nil
}

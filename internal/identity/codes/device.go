package codes

import (
	"fmt"
	"strings"
)

// UserCodeAlphabet is the alphabet of device user codes: the twenty
// consonants RFC 8628 section 6.1 suggests. No vowels (no words), no digits,
// nothing that looks like 0, O, 1 or I.
const UserCodeAlphabet = "BCDFGHJKLMNPQRSTVWXZ"

// userCodeLen is the number of symbols of a user code: 20^8 ≈ 2^34.6. With
// 5 attempts per code and a 10-minute life, a guess succeeds with
// probability about 5 × (active codes) / 2.56e10.
const userCodeLen = 8

// NewUserCode returns the user_code of a TV device authorization, shown as
// "XXXX-XXXX". Store its normalised form (NormalizeUserCode) or a
// Hasher.Sum(PurposeDeviceUser, "", normalised) of it, unique among
// pending authorizations; draw again on a collision.
func NewUserCode() string {
	c := randomString(UserCodeAlphabet, userCodeLen)
	return c[:4] + "-" + c[4:]
}

// NormalizeUserCode returns the canonical form of a typed user code: eight
// upper-case letters of UserCodeAlphabet, without dashes or spaces. It
// ignores case, dashes and white space; anything else is ErrInvalidCode.
func NormalizeUserCode(s string) (string, error) {
	var b strings.Builder
	for _, r := range s {
		if isSeparator(r) {
			continue
		}
		if 'a' <= r && r <= 'z' {
			r -= 'a' - 'A'
		}
		if r > 0x7f || !strings.ContainsRune(UserCodeAlphabet, r) {
			return "", fmt.Errorf("%w: user code has a character outside its alphabet", ErrInvalidCode)
		}
		if b.Len() == userCodeLen {
			return "", fmt.Errorf("%w: user code longer than %d characters", ErrInvalidCode, userCodeLen)
		}
		b.WriteRune(r)
	}
	if b.Len() != userCodeLen {
		return "", fmt.Errorf("%w: user code has %d characters, want %d", ErrInvalidCode, b.Len(), userCodeLen)
	}
	return b.String(), nil
}

// FormatUserCode returns a normalised user code for display, "XXXX-XXXX".
func FormatUserCode(normalized string) string {
	if len(normalized) != userCodeLen {
		return normalized
	}
	return normalized[:4] + "-" + normalized[4:]
}

package codes

import (
	"fmt"
	"strings"
)

// BackupCodeCount is the number of backup codes in a set.
const BackupCodeCount = 10

// backupAlphabet is Crockford's base32 in lower case: digits and letters
// without i, l, o and u, so no two symbols look alike.
const backupAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

// backupLen is the number of symbols of a backup code: 8 × 5 = 40 bits.
const backupLen = 8

// NewBackupCodes returns a set of BackupCodeCount distinct backup codes,
// each "xxxx-xxxx" in lower-case Crockford base32 (40 random bits). Show
// them once; store Hasher.BackupCodeHash of each; a new set replaces (and
// invalidates) the old one.
func NewBackupCodes() []string {
	seen := make(map[string]bool, BackupCodeCount)
	out := make([]string, 0, BackupCodeCount)
	for len(out) < BackupCodeCount {
		c := randomString(backupAlphabet, backupLen)
		if seen[c] {
			continue
		}
		seen[c] = true
		out = append(out, c[:4]+"-"+c[4:])
	}
	return out
}

// NormalizeBackupCode returns the canonical form of a typed backup code:
// eight lower-case symbols without separators. It ignores case, dashes and
// white space, and reads o as 0 and i or l as 1, as Crockford's base32 does.
func NormalizeBackupCode(s string) (string, error) {
	var b strings.Builder
	for _, r := range s {
		if isSeparator(r) {
			continue
		}
		switch r = toLowerASCII(r); r {
		case 'o':
			r = '0'
		case 'i', 'l':
			r = '1'
		}
		if r > 0x7f || !strings.ContainsRune(backupAlphabet, r) {
			return "", fmt.Errorf("%w: backup code has a character outside its alphabet", ErrInvalidCode)
		}
		if b.Len() == backupLen {
			return "", fmt.Errorf("%w: backup code longer than %d characters", ErrInvalidCode, backupLen)
		}
		b.WriteRune(r)
	}
	if b.Len() != backupLen {
		return "", fmt.Errorf("%w: backup code has %d characters, want %d", ErrInvalidCode, b.Len(), backupLen)
	}
	return b.String(), nil
}

// BackupCodeHash returns the stored hash of a backup code of user userID:
// Sum(PurposeBackupCode, userID, normalised code). Binding the user means
// equal codes of two users have different hashes. Lookup by this hash
// (WHERE user_id = $1 AND hash = $2 AND used_at IS NULL) is safe; mark the
// row used in the same statement to keep it single-use.
func (h *Hasher) BackupCodeHash(userID, code string) ([]byte, error) {
	n, err := NormalizeBackupCode(code)
	if err != nil {
		return nil, err
	}
	return h.Sum(PurposeBackupCode, userID, n), nil
}

// MatchBackupCode compares a typed code with the stored hashes of the
// user's unused codes, all of them in constant time, and returns the index
// of the match. For callers that load the set rather than look up by hash.
func (h *Hasher) MatchBackupCode(userID, code string, stored [][]byte) (int, error) {
	sum, err := h.BackupCodeHash(userID, code)
	if err != nil {
		return -1, err
	}
	found := -1
	for i, s := range stored {
		if Equal(sum, s) && found < 0 {
			found = i
		}
	}
	if found < 0 {
		return -1, fmt.Errorf("%w: no matching backup code", ErrInvalidCode)
	}
	return found, nil
}

// isSeparator reports whether r may separate groups of a typed code:
// white space and the dashes a phone keyboard may substitute for '-'.
func isSeparator(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\u00a0', '-', '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2212':
		return true
	}
	return false
}

func toLowerASCII(r rune) rune {
	if 'A' <= r && r <= 'Z' {
		return r + 'a' - 'A'
	}
	return r
}

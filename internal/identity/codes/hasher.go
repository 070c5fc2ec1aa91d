package codes

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/binary"
)

// MinPepperSize is the minimum size of the server pepper, in bytes.
const MinPepperSize = 32

// Purpose separates the hashes of codes of different flows, so a code (or
// its hash) from one flow is worthless in another.
type Purpose string

// The purposes of the flows of the contract.
const (
	PurposeBackupCode     Purpose = "backup_code"
	PurposePasswordReset  Purpose = "password_reset"
	PurposePasswordChange Purpose = "password_change"
	PurposeEmailOTP       Purpose = "email_otp"
	PurposeDeviceUser     Purpose = "device_user_code"
)

// Hasher keys the hashes of short codes with a server pepper: HMAC-SHA256
// over the purpose, the subject and the code. A short code (six digits,
// eight base32 characters) is cheap to brute-force from a plain SHA-256, so
// a copy of the database alone must not be enough; the pepper lives in
// configuration, not in the database. It is safe for concurrent use.
type Hasher struct {
	key []byte
}

// NewHasher returns a Hasher keyed with pepper, at least MinPepperSize
// random bytes (for example 32 bytes from `openssl rand -base64 32`,
// decoded). Changing the pepper invalidates every stored code hash: backup
// codes must then be regenerated, pending numeric codes re-sent.
func NewHasher(pepper []byte) (*Hasher, error) {
	if len(pepper) < MinPepperSize {
		return nil, ErrWeakPepper
	}
	return &Hasher{key: append([]byte(nil), pepper...)}, nil
}

// Sum returns the keyed hash of a normalised code for purpose and subject
// (a user id, a request id, or "" when the code alone identifies the row).
// Each part is length-prefixed, so no two different triples share an input.
func (h *Hasher) Sum(purpose Purpose, subject, code string) []byte {
	m := hmac.New(sha256.New, h.key)
	for _, part := range [...]string{string(purpose), subject, code} {
		var n [4]byte
		binary.BigEndian.PutUint32(n[:], uint32(len(part)))
		m.Write(n[:])
		m.Write([]byte(part))
	}
	return m.Sum(nil)
}

// Equal compares two hashes in constant time; empty hashes never match.
func Equal(a, b []byte) bool {
	return len(a) > 0 && subtle.ConstantTimeCompare(a, b) == 1
}

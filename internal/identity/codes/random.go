package codes

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// randomIndex returns a uniformly distributed integer in [0, n) for
// 0 < n <= 256, from crypto/rand bytes.
func randomIndex(n int) int {
	var b [1]byte
	for {
		_, _ = rand.Read(b[:]) // crypto/rand.Read never fails; it aborts the program instead.
		if i, ok := indexFromByte(b[0], n); ok {
			return i
		}
	}
}

// indexFromByte maps a uniform random byte to [0, n), rejecting the bytes
// at or above the largest multiple of n that fits in a byte: the accepted
// bytes map to every index the same number of times, so there is no modulo
// bias. For n = 10 it accepts 250 of 256 bytes, for n = 20 it accepts 240.
func indexFromByte(b byte, n int) (int, bool) {
	limit := 256 - 256%n
	if int(b) >= limit {
		return 0, false
	}
	return int(b) % n, true
}

// randomString returns n characters drawn uniformly from alphabet.
func randomString(alphabet string, n int) string {
	out := make([]byte, n)
	for i := range out {
		out[i] = alphabet[randomIndex(len(alphabet))]
	}
	return string(out)
}

// opaqueBytes is the entropy of opaque codes: 256 bits.
const opaqueBytes = 32

// OpaqueLen is the length of an opaque code: 32 bytes in base64url without
// padding.
const OpaqueLen = 43

var b64 = base64.RawURLEncoding.Strict()

// newOpaque returns 256 random bits in base64url without padding.
func newOpaque() string {
	b := make([]byte, opaqueBytes)
	_, _ = rand.Read(b)
	return b64.EncodeToString(b)
}

// NewDeviceCode returns the device_code of a TV device authorization: 256
// random bits, base64url (43 characters). Only the TV knows it; store
// HashOpaque of it.
func NewDeviceCode() string { return newOpaque() }

// NewHandoffCode returns a one-time SSO hand-off code: 256 random bits,
// base64url. Store HashOpaque of it with its destination and a 60-second
// expiry; consume it once.
func NewHandoffCode() string { return newOpaque() }

// HashOpaque validates a presented device or hand-off code and returns its
// SHA-256, the value to look up: 256 random bits need no slow hash and no
// pepper. A string of the wrong length or alphabet is ErrInvalidCode before
// any database work.
func HashOpaque(code string) ([]byte, error) {
	if len(code) != OpaqueLen {
		return nil, ErrInvalidCode
	}
	raw, err := b64.DecodeString(code)
	if err != nil || len(raw) != opaqueBytes || b64.EncodeToString(raw) != code {
		return nil, ErrInvalidCode
	}
	sum := sha256.Sum256([]byte(code))
	return sum[:], nil
}

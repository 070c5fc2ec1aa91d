package totp

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha1" // RFC 6238 as apps implement it; HMAC-SHA1 does not rely on SHA-1 collision resistance.
	"crypto/subtle"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Parameters of the codes, fixed for compatibility with authenticator apps.
const (
	// Digits is the length of a code.
	Digits = 6
	// Period is the length of a time step.
	Period = 30 * time.Second
	// Skew is how many steps before and after the current one are accepted.
	Skew = 1
	// SecretSize is the size of generated secrets in bytes (160 bits, the
	// size RFC 4226 recommends and the HMAC-SHA1 block-friendly default).
	SecretSize = 20
)

// Bounds of secrets DecodeSecret accepts: RFC 4226 requires at least 128 bits.
const (
	minSecretSize = 16
	maxSecretSize = 64
)

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// GenerateSecret returns a new random 160-bit secret in upper-case base32
// without padding (32 characters), the form authenticator apps expect.
func GenerateSecret() string {
	b := make([]byte, SecretSize)
	_, _ = rand.Read(b) // crypto/rand.Read never fails; it aborts the program instead.
	return b32.EncodeToString(b)
}

// DecodeSecret decodes a base32 secret, ignoring case, spaces, dashes and
// padding, and checks its size (16 to 64 bytes).
func DecodeSecret(secret string) ([]byte, error) {
	s := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '=':
			return -1
		}
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, secret)
	key, err := b32.DecodeString(s)
	if err != nil || b32.EncodeToString(key) != s {
		// The decoder drops a lone trailing character and ignores set
		// trailing bits; only the canonical encoding of the key is accepted.
		return nil, fmt.Errorf("%w: not base32", ErrInvalidSecret)
	}
	if len(key) < minSecretSize || len(key) > maxSecretSize {
		return nil, fmt.Errorf("%w: %d bytes, want %d to %d", ErrInvalidSecret, len(key), minSecretSize, maxSecretSize)
	}
	return key, nil
}

// ProvisioningURI returns the otpauth:// URI of a secret (Google
// Authenticator key URI format): the label "issuer:account" and the
// parameters secret, issuer, algorithm, digits and period. issuer is the
// service name shown in the app; account is usually the email. Neither may
// be empty or contain a colon.
func ProvisioningURI(secret, issuer, account string) (string, error) {
	key, err := DecodeSecret(secret)
	if err != nil {
		return "", err
	}
	if issuer == "" || account == "" || strings.Contains(issuer, ":") || strings.Contains(account, ":") {
		return "", ErrInvalidLabel
	}
	q := "secret=" + b32.EncodeToString(key) +
		"&issuer=" + queryEscape(issuer) +
		"&algorithm=SHA1&digits=6&period=30"
	return "otpauth://totp/" + url.PathEscape(issuer) + ":" + url.PathEscape(account) + "?" + q, nil
}

// queryEscape escapes s for a query value with %20 for spaces: some apps
// show a '+' literally.
func queryEscape(s string) string {
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}

// Step returns the time step of t: whole periods since the Unix epoch.
func Step(t time.Time) int64 {
	return t.Unix() / int64(Period/time.Second)
}

// Code returns the code of secret at time t, for tests and tools; a server
// only ever verifies.
func Code(secret string, t time.Time) (string, error) {
	key, err := DecodeSecret(secret)
	if err != nil {
		return "", err
	}
	return hotp(key, uint64(Step(t)), Digits), nil
}

// Verify checks code against secret at time now, accepting the steps from
// Skew before to Skew after the current one that come after lastStep (the
// step of the last accepted code of this factor, 0 if none). It returns the
// step of the code, to be stored as the new lastStep (see the package
// documentation for the conditional update). Spaces in code are ignored.
// Errors: ErrInvalidSecret, ErrInvalidCode, and ErrReused for a right code
// whose step is not after lastStep. Every candidate step is compared, in
// constant time, whatever the outcome.
func Verify(secret, code string, now time.Time, lastStep int64) (int64, error) {
	key, err := DecodeSecret(secret)
	if err != nil {
		return 0, err
	}
	code = strings.ReplaceAll(code, " ", "")
	if !isDigits(code, Digits) {
		return 0, ErrInvalidCode
	}
	cur := Step(now)
	matched, reused := int64(-1), false
	for s := cur - Skew; s <= cur+Skew; s++ {
		if s < 0 {
			continue
		}
		if subtle.ConstantTimeCompare([]byte(hotp(key, uint64(s), Digits)), []byte(code)) != 1 {
			continue
		}
		switch {
		case s <= lastStep:
			reused = true
		case matched < 0:
			matched = s
		}
	}
	switch {
	case matched >= 0:
		return matched, nil
	case reused:
		return 0, ErrReused
	}
	return 0, ErrInvalidCode
}

// hotp is RFC 4226 HOTP with HMAC-SHA1 and dynamic truncation.
func hotp(key []byte, counter uint64, digits int) string {
	var msg [8]byte
	binary.BigEndian.PutUint64(msg[:], counter)
	m := hmac.New(sha1.New, key)
	m.Write(msg[:])
	sum := m.Sum(nil)
	off := sum[len(sum)-1] & 0x0f
	bin := binary.BigEndian.Uint32(sum[off:off+4]) & 0x7fffffff
	mod := uint32(1)
	for range digits {
		mod *= 10
	}
	return fmt.Sprintf("%0*d", digits, bin%mod)
}

func isDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

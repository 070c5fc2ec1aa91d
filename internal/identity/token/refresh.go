package token

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"strings"
)

// Refresh tokens look like rt_<lookup>_<secret>: a 16-character lookup id
// (80 random bits) and a 52-character secret (256 random bits), both
// lowercase base32. The lookup id is stored in clear in an indexed column
// and may be logged; the whole token is stored only as its SHA-256.
const (
	refreshPrefix    = "rt_"
	refreshLookupLen = 16 // 10 bytes
	refreshSecretLen = 52 // 32 bytes
	// RefreshTokenLen is the length of a refresh token string.
	RefreshTokenLen = len(refreshPrefix) + refreshLookupLen + 1 + refreshSecretLen
)

var b32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// RefreshToken is a newly minted refresh token. Token goes to the client
// once; Lookup and Hash go to the database. String and GoString print the
// lookup id only.
type RefreshToken struct {
	// Token is the secret string for the client. Never store or log it.
	Token string
	// Lookup finds the stored row; it is not secret.
	Lookup string
	// Hash is the SHA-256 of Token, the stored verifier.
	Hash []byte
}

// String returns the lookup id only.
func (t RefreshToken) String() string { return refreshPrefix + t.Lookup + "_…" }

// GoString returns the lookup id only.
func (t RefreshToken) GoString() string { return "token.RefreshToken{" + t.Lookup + "}" }

// NewRefreshToken mints a refresh token from crypto/rand (which cannot fail:
// since Go 1.24 it aborts the program instead of returning an error).
func NewRefreshToken() RefreshToken {
	lookup := make([]byte, 10)
	secret := make([]byte, 32)
	_, _ = rand.Read(lookup)
	_, _ = rand.Read(secret)
	t := RefreshToken{Lookup: strings.ToLower(b32.EncodeToString(lookup))}
	t.Token = refreshPrefix + t.Lookup + "_" + strings.ToLower(b32.EncodeToString(secret))
	t.Hash = hashRefresh(t.Token)
	return t
}

// ParseRefreshToken checks the format of a presented refresh token and
// returns its lookup id and hash. Any malformed input, including surrounding
// white space or upper case, is ErrInvalidRefreshToken; answer it exactly as
// an unknown token.
func ParseRefreshToken(s string) (lookup string, hash []byte, err error) {
	rest, ok := strings.CutPrefix(s, refreshPrefix)
	if !ok || len(s) != RefreshTokenLen || rest[refreshLookupLen] != '_' {
		return "", nil, ErrInvalidRefreshToken
	}
	lookup, secret := rest[:refreshLookupLen], rest[refreshLookupLen+1:]
	if !isBase32Lower(lookup) || !isBase32Lower(secret) {
		return "", nil, ErrInvalidRefreshToken
	}
	return lookup, hashRefresh(s), nil
}

// RefreshHashEqual compares a presented token's hash with the stored one in
// constant time.
func RefreshHashEqual(presented, stored []byte) bool {
	return len(stored) == sha256.Size && subtle.ConstantTimeCompare(presented, stored) == 1
}

func hashRefresh(s string) []byte {
	sum := sha256.Sum256([]byte(s))
	return sum[:]
}

func isBase32Lower(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '2' <= c && c <= '7') {
			return false
		}
	}
	return true
}

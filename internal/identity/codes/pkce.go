package codes

import (
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
)

// PKCE (RFC 7636) binds the mobile token-hash exchange to the client that
// started it: the client keeps a random code_verifier and sends only its
// S256 code_challenge; the exchange must present the verifier.

// PKCEMethodS256 is the only accepted code_challenge_method. "plain" would
// put the verifier itself on the wire and defeat the point.
const PKCEMethodS256 = "S256"

// Bounds of a code_verifier (RFC 7636 section 4.1).
const (
	MinVerifierLen = 43
	MaxVerifierLen = 128
)

// NewPKCEVerifier returns a code_verifier of 256 random bits (43
// characters), as a client would make one; for tests and tools.
func NewPKCEVerifier() string { return newOpaque() }

// PKCEChallenge returns the S256 code_challenge of verifier:
// base64url(SHA-256(verifier)) without padding.
func PKCEChallenge(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return b64.EncodeToString(sum[:])
}

// ValidatePKCEChallenge checks what a client sends when a flow starts:
// method S256 (ErrUnsupportedMethod otherwise; an empty method is refused
// too, since RFC 7636 would default it to plain) and a challenge of 43
// base64url characters (ErrInvalidCode otherwise).
func ValidatePKCEChallenge(method, challenge string) error {
	if method != PKCEMethodS256 {
		return fmt.Errorf("%w: %q", ErrUnsupportedMethod, truncate(method))
	}
	if len(challenge) != OpaqueLen {
		return fmt.Errorf("%w: code_challenge of %d characters, want %d", ErrInvalidCode, len(challenge), OpaqueLen)
	}
	raw, err := b64.DecodeString(challenge)
	if err != nil || b64.EncodeToString(raw) != challenge {
		return fmt.Errorf("%w: code_challenge is not base64url", ErrInvalidCode)
	}
	return nil
}

// VerifyPKCE checks a code_verifier against the stored S256 challenge: 43 to
// 128 characters of [A-Za-z0-9-._~], and base64url(SHA-256(verifier)) equal
// to challenge, compared in constant time. Every failure is ErrInvalidCode.
func VerifyPKCE(verifier, challenge string) error {
	if len(verifier) < MinVerifierLen || len(verifier) > MaxVerifierLen {
		return fmt.Errorf("%w: code_verifier of %d characters", ErrInvalidCode, len(verifier))
	}
	for i := 0; i < len(verifier); i++ {
		if !isUnreserved(verifier[i]) {
			return fmt.Errorf("%w: code_verifier has a reserved character", ErrInvalidCode)
		}
	}
	if len(challenge) != OpaqueLen {
		return fmt.Errorf("%w: stored code_challenge is malformed", ErrInvalidCode)
	}
	if subtle.ConstantTimeCompare([]byte(PKCEChallenge(verifier)), []byte(challenge)) != 1 {
		return fmt.Errorf("%w: code_verifier does not match", ErrInvalidCode)
	}
	return nil
}

// isUnreserved reports whether c is an RFC 3986 unreserved character.
func isUnreserved(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

func truncate(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}

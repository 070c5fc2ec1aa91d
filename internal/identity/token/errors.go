package token

import (
	"errors"
	"fmt"
)

// Errors of the package.
var (
	// ErrInvalidToken is the one error class of Verify: every rejected access
	// token wraps it, whatever the reason, and every one is a 401. The
	// *VerifyError carrying it names the reason for logs only.
	ErrInvalidToken = errors.New("invalid token")
	// ErrInvalidKey means key material could not be parsed or is not Ed25519.
	ErrInvalidKey = errors.New("invalid ed25519 key")
	// ErrNoSigningKey means Issue was called on a Service whose KeySet only
	// verifies.
	ErrNoSigningKey = errors.New("no signing key")
	// ErrInvalidClaims means Issue was given claims it cannot sign (no
	// subject or session).
	ErrInvalidClaims = errors.New("invalid claims")
	// ErrInvalidRefreshToken means a string is not a refresh token of this
	// package's format. Callers answer it like an unknown or spent token.
	ErrInvalidRefreshToken = errors.New("invalid refresh token")
)

// Reason says why Verify rejected a token. Reasons are for logs and metrics;
// a client only ever learns that the token is invalid.
type Reason string

// The reasons of a VerifyError.
const (
	// ReasonMalformed: empty, too large, not three segments, bad base64url or
	// JSON, wrong signature length.
	ReasonMalformed Reason = "malformed"
	// ReasonAlgorithm: the header's alg is not EdDSA (none, HS*, RS*, ES*, ...).
	ReasonAlgorithm Reason = "algorithm"
	// ReasonHeader: typ is not JWT, kid is missing, or the header has
	// parameters this package does not write (crit, jku, jwk, x5u, ...).
	ReasonHeader Reason = "header"
	// ReasonUnknownKey: kid names no key of the KeySet.
	ReasonUnknownKey Reason = "unknown_key"
	// ReasonSignature: the signature does not verify.
	ReasonSignature Reason = "signature"
	// ReasonIssuer: iss is not the configured issuer.
	ReasonIssuer Reason = "issuer"
	// ReasonAudience: aud is not the configured audience.
	ReasonAudience Reason = "audience"
	// ReasonMissingClaim: exp, iat, sub, sid or jti is absent.
	ReasonMissingClaim Reason = "missing_claim"
	// ReasonExpired: exp is past, beyond the leeway.
	ReasonExpired Reason = "expired"
	// ReasonNotYetValid: nbf is in the future, beyond the leeway.
	ReasonNotYetValid Reason = "not_yet_valid"
	// ReasonIssuedInFuture: iat is in the future, beyond the leeway.
	ReasonIssuedInFuture Reason = "issued_in_future"
	// ReasonLifetime: exp is further ahead than the configured TTL allows.
	ReasonLifetime Reason = "lifetime"
)

// VerifyError is the error Verify returns. errors.Is(err, ErrInvalidToken)
// holds for every one. Detail may quote attacker-controlled header values
// (quoted and truncated); it never contains the token.
type VerifyError struct {
	// Reason is the class of the failure.
	Reason Reason
	// Detail says more, for logs.
	Detail string
}

// Error returns "invalid token: <reason>: <detail>".
func (e *VerifyError) Error() string {
	if e.Detail == "" {
		return ErrInvalidToken.Error() + ": " + string(e.Reason)
	}
	return ErrInvalidToken.Error() + ": " + string(e.Reason) + ": " + e.Detail
}

// Is reports whether target is ErrInvalidToken.
func (e *VerifyError) Is(target error) bool { return target == ErrInvalidToken }

// ReasonOf returns the Reason of a Verify error, or "" for any other error.
func ReasonOf(err error) Reason {
	var ve *VerifyError
	if errors.As(err, &ve) {
		return ve.Reason
	}
	return ""
}

func reject(r Reason, format string, args ...any) *VerifyError {
	return &VerifyError{Reason: r, Detail: fmt.Sprintf(format, args...)}
}

// quote renders an untrusted value for a log line: quoted, at most 40 bytes.
func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return fmt.Sprintf("%q", s)
}

package token

import (
	"slices"
	"time"
)

// Authentication methods for Claims.AMR, from RFC 8176.
const (
	AMRPassword = "pwd" // password
	AMROTP      = "otp" // TOTP code
	AMRMFA      = "mfa" // more than one factor
	AMRBackup   = "kba" // backup code (knowledge-based)
)

// Claims are the claims of an access token. Issue fills Issuer, Audience,
// IssuedAt, NotBefore, ExpiresAt and, when empty, ID.
type Claims struct {
	// Issuer (iss) is the configured issuer.
	Issuer string
	// Audience (aud) is the configured audience, a single string.
	Audience string
	// Subject (sub) is the user id.
	Subject string
	// SessionID (sid) is the session the token belongs to; refresh and logout
	// act on it.
	SessionID string
	// ID (jti) is unique per token.
	ID string
	// IssuedAt (iat) is when the token was issued, in whole seconds.
	IssuedAt time.Time
	// NotBefore (nbf) is when the token becomes valid: IssuedAt.
	NotBefore time.Time
	// ExpiresAt (exp) is IssuedAt plus the TTL.
	ExpiresAt time.Time
	// AMR (amr) lists the methods the session was authenticated with.
	AMR []string
	// MFA (mfa) is true once the session passed a second factor.
	MFA bool
	// AuthTime (auth_time) is when the user signed in with the first factor.
	AuthTime time.Time
	// StepUpAt (stepup_at) is when the session last passed a second-factor
	// check; operations that require step-up accept it only when recent.
	StepUpAt time.Time
}

// SteppedUpWithin reports whether the session passed a second factor within
// maxAge of now: the check of operations that require step-up.
func (c Claims) SteppedUpWithin(now time.Time, maxAge time.Duration) bool {
	return c.MFA && !c.StepUpAt.IsZero() && now.Sub(c.StepUpAt) <= maxAge
}

// HasAMR reports whether method is one of the session's methods.
func (c Claims) HasAMR(method string) bool { return slices.Contains(c.AMR, method) }

// wireClaims is the JSON payload. Pointers tell a missing claim from zero.
type wireClaims struct {
	Iss      string   `json:"iss"`
	Aud      string   `json:"aud"`
	Sub      string   `json:"sub"`
	Sid      string   `json:"sid"`
	Jti      string   `json:"jti"`
	Iat      *int64   `json:"iat"`
	Nbf      *int64   `json:"nbf,omitempty"`
	Exp      *int64   `json:"exp"`
	AMR      []string `json:"amr,omitempty"`
	MFA      bool     `json:"mfa,omitempty"`
	AuthTime *int64   `json:"auth_time,omitempty"`
	StepUpAt *int64   `json:"stepup_at,omitempty"`
}

func toWire(c Claims) wireClaims {
	return wireClaims{
		Iss: c.Issuer, Aud: c.Audience, Sub: c.Subject, Sid: c.SessionID, Jti: c.ID,
		Iat: unix(c.IssuedAt), Nbf: unix(c.NotBefore), Exp: unix(c.ExpiresAt),
		AMR: c.AMR, MFA: c.MFA, AuthTime: unix(c.AuthTime), StepUpAt: unix(c.StepUpAt),
	}
}

func (w wireClaims) claims() Claims {
	return Claims{
		Issuer: w.Iss, Audience: w.Aud, Subject: w.Sub, SessionID: w.Sid, ID: w.Jti,
		IssuedAt: fromUnix(w.Iat), NotBefore: fromUnix(w.Nbf), ExpiresAt: fromUnix(w.Exp),
		AMR: w.AMR, MFA: w.MFA, AuthTime: fromUnix(w.AuthTime), StepUpAt: fromUnix(w.StepUpAt),
	}
}

func unix(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	s := t.Unix()
	return &s
}

func fromUnix(s *int64) time.Time {
	if s == nil {
		return time.Time{}
	}
	return time.Unix(*s, 0).UTC()
}

package token

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
)

// Defaults and bounds of Config.
const (
	// DefaultTTL is the lifetime of an access token. Logout cannot revoke an
	// access token, so it stays short; the refresh token renews it.
	DefaultTTL = 15 * time.Minute
	// MaxTTL bounds Config.TTL.
	MaxTTL = time.Hour
	// DefaultLeeway is the clock skew tolerated between instances.
	DefaultLeeway = 30 * time.Second
	// MaxLeeway bounds Config.Leeway.
	MaxLeeway = 5 * time.Minute
	// maxTokenBytes bounds the input of Verify; our tokens are ~450 bytes.
	maxTokenBytes = 4096
)

// algEdDSA is the only algorithm written and accepted (RFC 8037).
const algEdDSA = "EdDSA"

// Config configures a Service.
type Config struct {
	// Issuer is the iss of issued tokens and the only one accepted.
	Issuer string
	// Audience is the aud of issued tokens and the only one accepted.
	Audience string
	// TTL is the access-token lifetime; 0 means DefaultTTL. Verify also
	// refuses tokens whose exp lies further ahead than TTL (plus leeway).
	TTL time.Duration
	// Leeway is the tolerated clock skew; 0 means DefaultLeeway.
	Leeway time.Duration
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
}

// Service issues and verifies access tokens: EdDSA (Ed25519) JWTs. It is
// safe for concurrent use.
type Service struct {
	keys     *KeySet
	issuer   string
	audience string
	ttl      time.Duration
	leeway   time.Duration
	now      func() time.Time
}

// New returns a Service over keys.
func New(keys *KeySet, cfg Config) (*Service, error) {
	if keys == nil {
		return nil, errors.New("token: nil key set")
	}
	if cfg.Issuer == "" || cfg.Audience == "" {
		return nil, errors.New("token: issuer and audience are required")
	}
	if cfg.TTL == 0 {
		cfg.TTL = DefaultTTL
	}
	if cfg.Leeway == 0 {
		cfg.Leeway = DefaultLeeway
	}
	if cfg.TTL < time.Second || cfg.TTL > MaxTTL {
		return nil, fmt.Errorf("token: TTL %v not in 1s..%v", cfg.TTL, MaxTTL)
	}
	if cfg.Leeway < 0 || cfg.Leeway > MaxLeeway {
		return nil, fmt.Errorf("token: leeway %v not in 0..%v", cfg.Leeway, MaxLeeway)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Service{keys: keys, issuer: cfg.Issuer, audience: cfg.Audience, ttl: cfg.TTL, leeway: cfg.Leeway, now: cfg.Now}, nil
}

// TTL returns the lifetime of issued tokens, for an expires_in field.
func (s *Service) TTL() time.Duration { return s.ttl }

// header is the JOSE header; these three parameters are all we write and all
// we accept.
type header struct {
	Alg string `json:"alg"`
	Typ string `json:"typ"`
	Kid string `json:"kid"`
}

var b64 = base64.RawURLEncoding.Strict()

// Issue signs an access token for c, which must name a Subject and a
// SessionID. It sets iss, aud, iat, nbf and exp (now, whole seconds), and
// jti when c.ID is empty, and returns the token with the claims it carries.
func (s *Service) Issue(c Claims) (string, Claims, error) {
	if s.keys.signing == nil {
		return "", Claims{}, ErrNoSigningKey
	}
	if c.Subject == "" || c.SessionID == "" {
		return "", Claims{}, fmt.Errorf("%w: subject and session id are required", ErrInvalidClaims)
	}
	now := s.now().Truncate(time.Second).UTC()
	c.Issuer, c.Audience = s.issuer, s.audience
	c.IssuedAt, c.NotBefore, c.ExpiresAt = now, now, now.Add(s.ttl)
	if c.ID == "" {
		c.ID = rand.Text() // 128 bits, base32
	}
	h, err := json.Marshal(header{Alg: algEdDSA, Typ: "JWT", Kid: s.keys.signing.id})
	if err != nil {
		return "", Claims{}, fmt.Errorf("token: encode header: %w", err)
	}
	p, err := json.Marshal(toWire(c))
	if err != nil {
		return "", Claims{}, fmt.Errorf("token: encode claims: %w", err)
	}
	input := b64.EncodeToString(h) + "." + b64.EncodeToString(p)
	sig := ed25519.Sign(s.keys.signing.priv, []byte(input))
	return input + "." + b64.EncodeToString(sig), c, nil
}

// Verify checks token and returns its claims. The checks, in order: at most
// 4 KiB and three non-empty base64url segments; a header of exactly alg, typ
// and kid with alg EdDSA (nothing else: not none, not HMAC, RSA or ECDSA)
// and typ JWT; a kid of the KeySet; a valid Ed25519 signature over the first
// two segments; then the claims: iss and aud equal to the configuration;
// exp, iat, sub, sid and jti present; exp not past, nbf and iat not in the
// future (each with the leeway); exp no further ahead than the TTL. Every
// failure is a *VerifyError matching ErrInvalidToken.
func (s *Service) Verify(token string) (Claims, error) {
	if token == "" {
		return Claims{}, reject(ReasonMalformed, "empty")
	}
	if len(token) > maxTokenBytes {
		return Claims{}, reject(ReasonMalformed, "%d bytes", len(token))
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return Claims{}, reject(ReasonMalformed, "%d segments", len(parts))
	}
	for i, p := range parts {
		if (p == "" && i != 2) || !isBase64URL(p) {
			return Claims{}, reject(ReasonMalformed, "segment %d is not base64url", i+1)
		}
	}

	raw, err := b64.DecodeString(parts[0])
	if err != nil {
		return Claims{}, reject(ReasonMalformed, "header: %v", err)
	}
	var h header
	if err := decodeStrict(raw, &h); err != nil {
		return Claims{}, reject(ReasonHeader, "%v", err)
	}
	if h.Alg != algEdDSA {
		return Claims{}, reject(ReasonAlgorithm, "alg %s", quote(h.Alg))
	}
	if h.Typ != "JWT" {
		return Claims{}, reject(ReasonHeader, "typ %s", quote(h.Typ))
	}
	if h.Kid == "" {
		return Claims{}, reject(ReasonHeader, "no kid")
	}
	pub, ok := s.keys.lookup(h.Kid)
	if !ok {
		return Claims{}, reject(ReasonUnknownKey, "kid %s", quote(h.Kid))
	}
	sig, err := b64.DecodeString(parts[2])
	if err != nil || len(sig) != ed25519.SignatureSize {
		return Claims{}, reject(ReasonMalformed, "signature of %d bytes", len(sig))
	}
	if !ed25519.Verify(pub, []byte(parts[0]+"."+parts[1]), sig) {
		return Claims{}, reject(ReasonSignature, "kid %s", quote(h.Kid))
	}

	raw, err = b64.DecodeString(parts[1])
	if err != nil {
		return Claims{}, reject(ReasonMalformed, "payload: %v", err)
	}
	var w wireClaims
	if err := json.Unmarshal(raw, &w); err != nil {
		return Claims{}, reject(ReasonMalformed, "payload: %v", err)
	}
	if err := s.checkClaims(w); err != nil {
		return Claims{}, err
	}
	return w.claims(), nil
}

func (s *Service) checkClaims(w wireClaims) error {
	switch {
	case w.Iss != s.issuer:
		return reject(ReasonIssuer, "iss %s", quote(w.Iss))
	case w.Aud != s.audience:
		return reject(ReasonAudience, "aud %s", quote(w.Aud))
	case w.Exp == nil:
		return reject(ReasonMissingClaim, "exp")
	case w.Iat == nil:
		return reject(ReasonMissingClaim, "iat")
	case w.Sub == "":
		return reject(ReasonMissingClaim, "sub")
	case w.Sid == "":
		return reject(ReasonMissingClaim, "sid")
	case w.Jti == "":
		return reject(ReasonMissingClaim, "jti")
	}
	now := s.now()
	lee := s.leeway
	exp := time.Unix(*w.Exp, 0)
	switch {
	case !now.Add(-lee).Before(exp):
		return reject(ReasonExpired, "exp %d, now %d", *w.Exp, now.Unix())
	case w.Nbf != nil && now.Add(lee).Before(time.Unix(*w.Nbf, 0)):
		return reject(ReasonNotYetValid, "nbf %d, now %d", *w.Nbf, now.Unix())
	case now.Add(lee).Before(time.Unix(*w.Iat, 0)):
		return reject(ReasonIssuedInFuture, "iat %d, now %d", *w.Iat, now.Unix())
	case exp.After(now.Add(s.ttl + lee)):
		return reject(ReasonLifetime, "exp %d, now %d, ttl %v", *w.Exp, now.Unix(), s.ttl)
	}
	return nil
}

// decodeStrict decodes one JSON object into v, refusing unknown fields and
// trailing data.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data")
	}
	return nil
}

// isBase64URL reports whether s uses only the base64url alphabet. The
// decoder alone would skip '\r' and '\n' and accept '=' padding in other
// modes; a token has neither.
func isBase64URL(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

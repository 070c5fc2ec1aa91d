package accounts

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/identity/codes"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/identity/totp"
)

// Lifetimes of sessions and codes.
const (
	// SessionTTL is a session's absolute lifetime from sign-in.
	SessionTTL = 30 * 24 * time.Hour
	// CodeTTL is how long an emailed code is valid.
	CodeTTL = 15 * time.Minute
	// MaxCodeAttempts is how many wrong guesses a code survives.
	MaxCodeAttempts = 5
)

// Defaults of the token issuer and audience.
const (
	DefaultIssuer   = "venue-platform"
	DefaultAudience = "venue-api"
)

// Config configures a Service.
type Config struct {
	// SigningKey is the Ed25519 key that signs access tokens (nil: a random
	// key per process, so tokens die with the process; set
	// VENUE_JWT_SIGNING_KEY when running several instances).
	SigningKey *token.SigningKey
	// VerificationKeys are further accepted keys (rotation).
	VerificationKeys []token.VerificationKey
	Issuer, Audience string
	// Pepper keys the hashes of short codes (nil: random per process).
	Pepper []byte
	// MFAKey seals TOTP secrets at rest (AES-256-GCM, 32 bytes; nil: derived
	// from Pepper, see package identity/totp). MFAPreviousKeys still open
	// secrets sealed before a rotation; those are sealed again with MFAKey
	// when next used.
	MFAKey          []byte
	MFAPreviousKeys [][]byte
	// Sink delivers codes (nil: LogSink on Log).
	Sink CodeSink
	Log  *slog.Logger
	// DeviceVerificationURI is where users type TV user codes
	// (DefaultDeviceVerificationURI when empty).
	DeviceVerificationURI string
	// HandoffDomains are the hosts SSO hand-off codes may be minted for
	// (none: hand-off refused).
	HandoffDomains []string
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// ConfigFrom builds a Config from the sign-in settings (package config:
// VENUE_JWT_SIGNING_KEY as a base64 seed or PKCS #8 PEM, VENUE_JWT_VERIFICATION_KEYS,
// VENUE_JWT_ISSUER, VENUE_JWT_AUDIENCE, VENUE_CODE_PEPPER as the base64 of at
// least 32 bytes, VENUE_MFA_KEY and VENUE_MFA_PREVIOUS_KEYS as base64 of 32
// bytes, VENUE_DEVICE_VERIFICATION_URI, VENUE_HANDOFF_DOMAINS) and refuses a
// malformed key. Unset secrets are random per process, except the MFA key,
// which is derived from the pepper; the server fills them from the
// installation's stored secrets first, so they are shared by its instances
// and restarts.
func ConfigFrom(t config.Tokens, log *slog.Logger) (Config, error) {
	cfg := Config{
		Issuer:   t.Issuer,
		Audience: t.Audience,
		Log:      log,

		DeviceVerificationURI: t.DeviceVerificationURI,
		HandoffDomains:        t.HandoffDomains,
	}
	if cfg.Issuer == "" {
		cfg.Issuer = DefaultIssuer
	}
	if cfg.Audience == "" {
		cfg.Audience = DefaultAudience
	}
	if s := t.SigningKey; s != "" {
		k, err := token.ParseSigningKey(s)
		if err != nil {
			return cfg, fmt.Errorf("VENUE_JWT_SIGNING_KEY: %w", err)
		}
		cfg.SigningKey = k
	}
	for _, s := range t.VerificationKeys {
		if strings.TrimSpace(s) == "" {
			continue
		}
		k, err := token.ParseVerificationKey(s)
		if err != nil {
			return cfg, fmt.Errorf("VENUE_JWT_VERIFICATION_KEYS: %w", err)
		}
		cfg.VerificationKeys = append(cfg.VerificationKeys, k)
	}
	if s := t.Pepper; s != "" {
		p, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(p) < codes.MinPepperSize {
			return cfg, fmt.Errorf("VENUE_CODE_PEPPER: want the base64 of at least %d bytes", codes.MinPepperSize)
		}
		cfg.Pepper = p
	}
	if s := t.MFAKey; s != "" {
		k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
		if err != nil || len(k) != totp.KeySize {
			return cfg, fmt.Errorf("VENUE_MFA_KEY: want the base64 of %d bytes", totp.KeySize)
		}
		cfg.MFAKey = k
	}
	for _, s := range t.MFAPreviousKeys {
		if strings.TrimSpace(s) == "" {
			continue
		}
		k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
		if err != nil || len(k) != totp.KeySize {
			return cfg, fmt.Errorf("VENUE_MFA_PREVIOUS_KEYS: want comma-separated base64 of %d bytes each", totp.KeySize)
		}
		cfg.MFAPreviousKeys = append(cfg.MFAPreviousKeys, k)
	}
	return cfg, nil
}

func randomPepper() []byte {
	p := make([]byte, codes.MinPepperSize)
	_, _ = rand.Read(p)
	return p
}

// normalizeHosts lower-cases and trims hosts, dropping empty ones.
func normalizeHosts(hosts []string) []string {
	var out []string
	for _, h := range hosts {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			out = append(out, h)
		}
	}
	return out
}

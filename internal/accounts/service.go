package accounts

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/identity/codes"
	"github.com/venueplatform/venue/internal/identity/password"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/identity/totp"
	"github.com/venueplatform/venue/internal/system"
)

// Errors of the flows, as the client sees them.
var (
	// ErrInvalidCredentials is every failed login.
	ErrInvalidCredentials = &apperr.Error{Status: http.StatusUnauthorized, Code: "INVALID_CREDENTIALS", Message: "email or password is wrong"}
	// ErrInvalidRefresh is every refused refresh token.
	ErrInvalidRefresh = apperr.Unauthorized("invalid refresh token")
	// ErrInvalidCode is every refused emailed code.
	ErrInvalidCode = &apperr.Error{Status: http.StatusBadRequest, Code: "INVALID_CODE", Message: "the code is invalid or expired"}
	// ErrAccountExists is a sign-up with a registered email.
	ErrAccountExists = &apperr.Error{Status: http.StatusConflict, Code: "ACCOUNT_EXISTS", Message: "an account with this email exists; sign in or reset the password"}
)

// Service runs the account and session flows.
type Service struct {
	client *ent.Client
	hasher *password.Hasher
	tokens *token.Service
	codes  *codes.Hasher
	sink   CodeSink
	log    *slog.Logger
	now    func() time.Time
	// deviceURI is the verification_uri of the device flow.
	deviceURI string
	// handoffDomains are the lower-case hosts hand-off codes may target.
	handoffDomains []string
	// sealer encrypts TOTP secrets at rest.
	sealer *totp.Sealer
}

// New returns a Service over client.
func New(client *ent.Client, cfg Config) (*Service, error) {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Issuer == "" {
		cfg.Issuer = DefaultIssuer
	}
	if cfg.Audience == "" {
		cfg.Audience = DefaultAudience
	}
	if cfg.SigningKey == nil {
		k, err := token.GenerateSigningKey()
		if err != nil {
			return nil, fmt.Errorf("accounts: signing key: %w", err)
		}
		cfg.SigningKey = k
	}
	if cfg.Pepper == nil {
		cfg.Pepper = randomPepper()
	}
	if cfg.Sink == nil {
		cfg.Sink = LogSink{Log: cfg.Log}
	}
	keys, err := token.NewKeySet(cfg.SigningKey, cfg.VerificationKeys...)
	if err != nil {
		return nil, fmt.Errorf("accounts: keys: %w", err)
	}
	tokens, err := token.New(keys, token.Config{Issuer: cfg.Issuer, Audience: cfg.Audience, Now: cfg.Now})
	if err != nil {
		return nil, fmt.Errorf("accounts: tokens: %w", err)
	}
	hasher, err := password.NewHasher(password.DefaultParams, 0)
	if err != nil {
		return nil, fmt.Errorf("accounts: password hasher: %w", err)
	}
	ch, err := codes.NewHasher(cfg.Pepper)
	if err != nil {
		return nil, fmt.Errorf("accounts: code hasher: %w", err)
	}
	if cfg.DeviceVerificationURI == "" {
		cfg.DeviceVerificationURI = DefaultDeviceVerificationURI
	}
	sealer, err := newSealer(cfg)
	if err != nil {
		return nil, err
	}
	return &Service{client: client, hasher: hasher, tokens: tokens, codes: ch, sink: cfg.Sink, log: cfg.Log, now: cfg.Now,
		deviceURI: cfg.DeviceVerificationURI, handoffDomains: normalizeHosts(cfg.HandoffDomains), sealer: sealer}, nil
}

// Tokens returns the access-token service, for the bearer security handler.
func (s *Service) Tokens() *token.Service { return s.tokens }

// Client returns the ent client.
func (s *Service) Client() *ent.Client { return s.client }

// Session is what a sign-in answers.
type Session struct {
	AccessToken  string
	ExpiresIn    int
	RefreshToken string
	SessionID    uuid.UUID
	User         *ent.User
	MFARequired  bool
}

// issue opens a session for u signed in with amr and returns its first
// tokens.
func (s *Service) issue(ctx context.Context, u *ent.User, amr []string) (*Session, error) {
	ctx = system.Allow(ctx, "sessions.issue")
	tx, err := s.client.Tx(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	sess, refresh, err := s.openSession(ctx, tx, u, amr)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return s.answer(sess, u, refresh)
}

// openSession creates a session of u and its first refresh token in tx and
// returns the session and the refresh token. ctx must be a system context.
func (s *Service) openSession(ctx context.Context, tx *ent.Tx, u *ent.User, amr []string) (*ent.Session, string, error) {
	now := s.now()
	sess, err := tx.Session.Create().SetUserID(u.ID).SetAuthTime(now).SetAmr(amr).
		SetExpiresAt(now.Add(SessionTTL)).SetLastUsedAt(now).Save(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("create session: %w", err)
	}
	rt := token.NewRefreshToken()
	if err := tx.RefreshToken.Create().SetSessionID(sess.ID).SetUserID(u.ID).SetLookup(rt.Lookup).
		SetHash(rt.Hash).SetExpiresAt(sess.ExpiresAt).Exec(ctx); err != nil {
		return nil, "", fmt.Errorf("create refresh token: %w", err)
	}
	return sess, rt.Token, nil
}

// answer signs an access token for sess and builds the session answer.
func (s *Service) answer(sess *ent.Session, u *ent.User, refresh string) (*Session, error) {
	c := token.Claims{Subject: u.ID.String(), SessionID: sess.ID.String(), AMR: sess.Amr, AuthTime: sess.AuthTime}
	if sess.MfaAt != nil {
		c.MFA, c.StepUpAt = true, *sess.MfaAt
	}
	access, _, err := s.tokens.Issue(c)
	if err != nil {
		return nil, fmt.Errorf("issue access token: %w", err)
	}
	return &Session{
		AccessToken:  access,
		ExpiresIn:    int(s.tokens.TTL() / time.Second),
		RefreshToken: refresh,
		SessionID:    sess.ID,
		User:         u,
	}, nil
}

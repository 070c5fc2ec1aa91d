package accounts

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/venueplatform/venue/ent/handoffcode"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/identity/codes"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/system"
)

// Settings of the SSO hand-off.
const (
	// HandoffTTL is how long a hand-off code can be exchanged.
	HandoffTTL = 60 * time.Second
	// AMRHandoff is the amr of a session opened by a hand-off.
	AMRHandoff = "handoff"
)

// Handoff is a minted hand-off code.
type Handoff struct {
	Code        string
	ExpiresAt   time.Time
	Destination string
}

// MintHandoff issues a hand-off code of the signed-in user for destination,
// an https URL on an allowlisted host.
func (s *Service) MintHandoff(ctx context.Context, destination string) (*Handoff, error) {
	v, err := userViewer(ctx)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(destination)
	if err != nil || u.Scheme != "https" || u.User != nil || !s.handoffAllowed(u.Hostname()) {
		return nil, apperr.Validation("destination", "destination must be an https URL on an allowed domain")
	}
	code := codes.NewHandoffCode()
	hash, err := codes.HashOpaque(code)
	if err != nil {
		return nil, err
	}
	exp := s.now().Add(HandoffTTL)
	create := s.client.HandoffCode.Create().SetUserID(v.UserID).SetCodeHash(hash).
		SetDestinationHost(strings.ToLower(u.Hostname())).SetExpiresAt(exp)
	if v.MFA && !v.StepUpAt.IsZero() {
		create.SetMfaAt(v.StepUpAt)
	}
	if err := create.Exec(system.Allow(ctx, "handoff.mint")); err != nil {
		return nil, err
	}
	return &Handoff{Code: code, ExpiresAt: exp, Destination: u.String()}, nil
}

// ExchangeHandoff spends a hand-off code for destination (a host, or a URL
// whose host is used) and opens a session. Every refusal is ErrInvalidCode.
func (s *Service) ExchangeHandoff(ctx context.Context, code, destination string) (*Session, error) {
	hash, err := codes.HashOpaque(code)
	if err != nil {
		return nil, ErrInvalidCode
	}
	host := destination
	if u, err := url.Parse(destination); err == nil && u.Host != "" {
		host = u.Hostname()
	}
	host = strings.ToLower(host)
	ctx = system.Allow(ctx, "handoff.exchange")
	now := s.now()
	tx, err := s.client.Tx(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	hc, err := tx.HandoffCode.Query().Where(handoffcode.CodeHash(hash)).Only(ctx)
	if err != nil {
		return nil, notFoundAsInvalid(err)
	}
	if hc.DestinationHost != host || !now.Before(hc.ExpiresAt) {
		return nil, ErrInvalidCode
	}
	n, err := tx.HandoffCode.Update().Where(handoffcode.ID(hc.ID), handoffcode.UsedAtIsNil()).SetUsedAt(now).Save(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, ErrInvalidCode
	}
	u, err := tx.User.Get(ctx, hc.UserID)
	if err != nil {
		return nil, err
	}
	amr := []string{AMRHandoff}
	if hc.MfaAt != nil {
		amr = append(amr, token.AMRMFA)
	}
	sess, refresh, err := s.openSession(ctx, tx, u, amr)
	if err != nil {
		return nil, err
	}
	if hc.MfaAt != nil {
		if sess, err = tx.Session.UpdateOne(sess).SetMfaAt(*hc.MfaAt).Save(ctx); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	out, err := s.answer(sess, u, refresh)
	if err != nil || hc.MfaAt != nil {
		return out, err
	}
	return s.flagMFA(ctx, out, nil)
}

// handoffAllowed reports whether host is on the hand-off allowlist.
func (s *Service) handoffAllowed(host string) bool {
	return host != "" && slices.Contains(s.handoffDomains, strings.ToLower(host))
}

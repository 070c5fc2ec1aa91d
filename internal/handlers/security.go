package handlers

import (
	"context"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/auth"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/limits"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/viewer"
)

// Security implements api.SecurityHandler: it authenticates the key, applies
// the access gates, checks the operation's scopes (from the OpenAPI security
// requirement) and puts the key's viewer in the context.
type Security struct {
	auth *auth.Authenticator
}

var _ api.SecurityHandler = (*Security)(nil)

// HandleApiKeyAuth implements api.SecurityHandler.
func (s *Security) HandleApiKeyAuth(ctx context.Context, _ api.OperationName, t api.ApiKeyAuth) (context.Context, error) {
	res, err := s.auth.Authenticate(ctx, t.APIKey)
	if err != nil {
		return nil, err
	}
	// The per-key window is shared with MCP and held in PostgreSQL; the
	// RateLimit headers are set by the limits middleware either way.
	if err := limits.ChargeAPIKey(ctx, res.Viewer.KeyID); err != nil {
		return nil, err
	}
	if missing := scope.Missing(res.Viewer.Scopes, t.Roles); len(missing) > 0 {
		return nil, apperr.MissingScopes(t.Roles)
	}
	return viewer.NewContext(ctx, res.Viewer), nil
}

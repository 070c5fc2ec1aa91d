// Package auth authenticates API keys for every entry point (the REST
// security handler and the MCP endpoint) and applies the access gates of the
// contract in order: the key, the platform kill switch, then the venue's plan
// and API feature flag. Scope checks follow in the caller, which knows what
// the operation needs.
//
// It also owns the credential rules every entry point shares:
//
//   - One credential per request: a request carrying both a bearer token and
//     an X-API-Key, to an operation that authenticates its caller, is 401
//     UNAUTHORIZED with details.reason mixed_credentials (CredentialGuard,
//     CheckCredentials).
//   - JWT-only operations (`x-jwt-only: true` in the OpenAPI document, or
//     RegisterJWTOnly) refuse API keys with 403 ACCESS_DENIED, reason
//     jwt_only, even where their security lists ApiKeyAuth (JWTOnly).
//
// Checks that depend only on who the caller is (who may send client
// notifications: notify.Authorize; step-up freshness: accounts.RequireStepUp)
// belong to the domain and read the viewer, so every face answers alike.
package auth

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/featureprovisioning"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/platformsetting"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// KillSwitchKey is the PlatformSetting key of the emergency kill switch.
const KillSwitchKey = "kill_switch"

// killSwitchTTL bounds how stale an instance's view of the kill switch may be;
// the contract asks for every instance to obey within 5 seconds.
const killSwitchTTL = 2 * time.Second

// Authenticator checks API keys against the database.
type Authenticator struct {
	client *ent.Client
	now    func() time.Time

	mu         sync.Mutex
	killOn     bool
	killReadAt time.Time
}

// New returns an Authenticator over client.
func New(client *ent.Client) *Authenticator {
	return &Authenticator{client: client, now: time.Now}
}

// Result is an authenticated key and the venue it is bound to.
type Result struct {
	Viewer viewer.APIKey
	Key    *ent.APIKey
	Venue  *ent.Organization
}

// Authenticate verifies a presented key and the gates that apply to every
// key request. Errors are *apperr.Error: 401 for a bad key, 403
// ACCESS_DENIED with reason kill_switch, plan or feature_flag.
func (a *Authenticator) Authenticate(ctx context.Context, presented string) (*Result, error) {
	if presented == "" {
		return nil, apperr.Unauthorized("missing API key")
	}
	k, err := apikey.Lookup(ctx, a.client, presented)
	if errors.Is(err, apikey.ErrInvalid) {
		return nil, apperr.Unauthorized("invalid or revoked API key")
	}
	if err != nil {
		return nil, apperr.Internal(err)
	}
	on, err := a.killSwitch(ctx)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if on {
		return nil, apperr.AccessDenied(apperr.ReasonKillSwitch, "API access is suspended platform-wide")
	}
	v := apikey.Viewer(k)
	vctx := system.Identify(ctx, "auth.api_key", v)
	org, err := a.client.Organization.Query().Where(organization.ID(k.OrganizationID)).Only(vctx)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if org.Plan != organization.PlanPro && org.Plan != organization.PlanEnterprise {
		return nil, apperr.AccessDenied(apperr.ReasonPlan, "the venue's plan does not include API access")
	}
	enabled, err := a.client.FeatureProvisioning.Query().
		Where(featureprovisioning.APIEnabled(true)).Exist(vctx)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	if !enabled {
		return nil, apperr.AccessDenied(apperr.ReasonFeatureFlag, "API access is not enabled for this venue")
	}
	_ = apikey.Touch(ctx, a.client, k) // best effort: a failed touch must not fail the request
	return &Result{Viewer: v, Key: k, Venue: org}, nil
}

// killSwitch reads the kill switch, cached for killSwitchTTL.
func (a *Authenticator) killSwitch(ctx context.Context) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := a.now()
	if now.Sub(a.killReadAt) < killSwitchTTL {
		return a.killOn, nil
	}
	s, err := a.client.PlatformSetting.Query().Where(platformsetting.Key(KillSwitchKey)).Only(ctx)
	switch {
	case ent.IsNotFound(err):
		a.killOn = false
	case err != nil:
		return false, err
	default:
		a.killOn = s.Enabled
	}
	a.killReadAt = now
	return a.killOn, nil
}

package auth

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/ogen-go/ogen/middleware"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/gen/openapi"
)

// Credential headers of the REST API.
const (
	HeaderAPIKey        = "X-API-Key"
	HeaderAuthorization = "Authorization"
)

// Security scheme names of the OpenAPI document.
const (
	SchemeBearer = "BearerAuth"
	SchemeAPIKey = "ApiKeyAuth"
)

// ExtensionJWTOnly is the OpenAPI operation extension that marks an
// operation JWT-only: `x-jwt-only: true`.
const ExtensionJWTOnly = "x-jwt-only"

// Reasons of credential refusals (details.reason).
const (
	// ReasonMixedCredentials: a request carried both a bearer token and an
	// API key (401).
	ReasonMixedCredentials = "mixed_credentials"
	// ReasonJWTOnly: an API key on an operation that takes only a staff
	// session's bearer token (403, apperr.JWTOnly).
	ReasonJWTOnly = apperr.ReasonJWTOnly
)

// MixedCredentials is the 401 of a request carrying both an
// `Authorization: Bearer` token and an `X-API-Key` on an operation that
// authenticates its caller: the caller must be one identity, and the service
// never guesses which one was meant.
func MixedCredentials() *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnauthorized, Code: apperr.CodeUnauthorized,
		Message: "send either a bearer token or an API key, not both"}).With("reason", ReasonMixedCredentials)
}

// registry is what the security layer knows of each operation.
type registry struct {
	once    sync.Once
	err     error
	schemes map[string][]string // operationId -> schemes its security names
	paths   map[string]string   // operationId -> path template
	jwtOnly map[string]bool
}

var ops = &registry{jwtOnly: map[string]bool{}}

// jwtOnlyOperations are marked JWT-only here rather than in the document:
// operations of the root document, which keeps no x-jwt-only markers. None
// today: POST /auth/mfa/reset is "Bearer or API key" in the contract (an
// API key acts with its issuer's admin.users.manage, see accounts.ResetMFA),
// and the fragments mark their own operations.
var jwtOnlyOperations []string

// RegisterJWTOnly marks operations JWT-only from code (call it from init()
// in the file that owns the operation); `x-jwt-only: true` in the operation's
// OpenAPI fragment does the same and is preferred, since clients see it.
func RegisterJWTOnly(operationIDs ...string) {
	for _, id := range operationIDs {
		ops.jwtOnly[opKey(id)] = true
	}
}

func init() { RegisterJWTOnly(jwtOnlyOperations...) }

// load reads the security of every operation of the bundled document once.
func (r *registry) load() error {
	r.once.Do(func() {
		schemes, marked, paths, err := parseOperations(openapi.JSON)
		if err != nil {
			r.err = err
			return
		}
		r.schemes, r.paths = schemes, paths
		for id := range marked {
			r.jwtOnly[opKey(id)] = true
		}
	})
	return r.err
}

// parseOperations returns, per operation id, the security schemes named by
// its security requirements (or the document's), the operations marked
// x-jwt-only, and each operation's path template.
func parseOperations(doc []byte) (map[string][]string, map[string]bool, map[string]string, error) {
	type operation struct {
		OperationID string                 `json:"operationId"`
		Security    *[]map[string][]string `json:"security"`
		JWTOnly     bool                   `json:"x-jwt-only"`
	}
	var d struct {
		Security []map[string][]string                 `json:"security"`
		Paths    map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, nil, nil, fmt.Errorf("auth: read the OpenAPI document: %w", err)
	}
	schemes, marked, paths := map[string][]string{}, map[string]bool{}, map[string]string{}
	for path, item := range d.Paths {
		for method, raw := range item {
			switch method {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
			default:
				continue
			}
			var op operation
			if err := json.Unmarshal(raw, &op); err != nil {
				return nil, nil, nil, fmt.Errorf("auth: read operation %s: %w", method, err)
			}
			reqs := d.Security
			if op.Security != nil {
				reqs = *op.Security
			}
			var names []string
			for _, req := range reqs {
				for name := range req {
					if !slices.Contains(names, name) {
						names = append(names, name)
					}
				}
			}
			slices.Sort(names)
			schemes[opKey(op.OperationID)] = names
			paths[opKey(op.OperationID)] = path
			if op.JWTOnly {
				marked[opKey(op.OperationID)] = true
			}
		}
	}
	return schemes, marked, paths, nil
}

// OperationPath returns the path template of the operation (its id or
// generated name) below /api/v1, "" for an unknown one.
func OperationPath(operationID string) string {
	_ = ops.load()
	return ops.paths[opKey(operationID)]
}

// StaffOperation reports whether the operation (its id or generated name)
// acts with staff powers: the /admin operations, /calendar and the admin
// reset of a user's second factor.
func StaffOperation(operationID string) bool {
	_ = ops.load()
	p := ops.paths[opKey(operationID)]
	return strings.HasPrefix(p, "/admin/") || p == "/calendar" || strings.HasPrefix(p, "/calendar/") ||
		p == "/auth/mfa/reset"
}

// opKey folds an operation id (authMfaReset) and the generated server's
// operation name (AuthMfaReset) to one key.
func opKey(id string) string {
	b := make([]byte, 0, len(id))
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
		}
	}
	return string(b)
}

// JWTOnly reports whether the operation (its id or generated name) accepts only a bearer token: API keys
// are refused (apperr.JWTOnly) even where its security lists ApiKeyAuth.
func JWTOnly(operationID string) bool {
	_ = ops.load()
	return ops.jwtOnly[opKey(operationID)]
}

// Authenticates reports whether the operation's security names any scheme,
// that is whether it authenticates a caller when credentials are sent.
func Authenticates(operationID string) bool {
	_ = ops.load()
	return len(ops.schemes[opKey(operationID)]) > 0
}

// CredentialGuard is the ogen middleware that refuses mixed credentials: a
// request to an operation that authenticates its caller, carrying both an
// Authorization header and an X-API-Key header, is 401 UNAUTHORIZED with
// details.reason mixed_credentials, whichever schemes the operation accepts
// (a bearer-only operation would otherwise ignore the key, and one accepting
// either would have to pick an identity). Install it first, before the rate
// limit and idempotency hooks, so a refused request claims nothing.
func CredentialGuard() middleware.Middleware {
	return func(req middleware.Request, next middleware.Next) (middleware.Response, error) {
		if err := CheckCredentials(req.OperationID, req.Raw.Header); err != nil {
			return middleware.Response{}, err
		}
		return next(req)
	}
}

// CheckCredentials applies the mixed-credential rule of CredentialGuard to
// one request's headers.
func CheckCredentials(operationID string, h http.Header) error {
	if !Authenticates(operationID) {
		return nil
	}
	if len(h.Values(HeaderAPIKey)) > 0 && len(h.Values(HeaderAuthorization)) > 0 {
		return MixedCredentials()
	}
	return nil
}

// OperationsLoaded reports an error reading the embedded OpenAPI document
// (for a start-up check); the document is generated, so it is a build bug.
func OperationsLoaded() error { return ops.load() }

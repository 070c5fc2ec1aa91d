package limits

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/venueplatform/venue/internal/ratelimit"
)

// Policy is one limit: Limit requests per Window, in the bucket Name.
type Policy struct {
	// Name identifies the policy in RateLimit headers and bucket keys
	// (letters, digits, '-' and '_').
	Name   string
	Limit  int
	Window time.Duration
}

// The policies of the contract's Limits table and of the anonymous public API.
var (
	// APIKeyDefault is the contract's per-key default: 100 per minute.
	APIKeyDefault = Policy{Name: "default", Limit: ratelimit.DefaultLimit, Window: ratelimit.DefaultPeriod}
	// AnonymousDefault limits anonymous calls per client IP: 300 per minute.
	AnonymousDefault = Policy{Name: "anonymous", Limit: 300, Window: time.Minute}
	// GiftCardLookup is the public gift-card balance and preview limit: 20
	// per minute per IP.
	GiftCardLookup = Policy{Name: "gift-card", Limit: 20, Window: time.Minute}
)

// Rule is the limits of one operation; a nil policy takes the Config's.
type Rule struct {
	// PerKey limits authenticated principals (API keys, users).
	PerKey *Policy
	// PerIP limits anonymous requests by client IP.
	PerIP *Policy
	// PerAccount limits the requests naming one account (a login's email),
	// charged by the operation through ChargeAccount, on top of the other
	// limits: credential stuffing spread over many addresses still stops.
	PerAccount *Policy
}

// Config configures Limits.
type Config struct {
	// Operation names the operation of a request; the server passes
	// httpx.Operation, which reads what its entry found once, so the router
	// is not asked again. Nil or not found means no per-operation rule applies.
	Operation func(r *http.Request) (operationID string, ok bool)
	// PerKey is the default per-principal policy (zero: APIKeyDefault).
	PerKey Policy
	// PerIP is the default anonymous per-IP policy (zero: AnonymousDefault).
	PerIP Policy
	// Operations overrides the defaults by operation id.
	Operations map[string]Rule
	// ClientIP returns a request's client address (nil: the peer address).
	ClientIP func(r *http.Request) string
	// CredentialHeaders mark a request that will authenticate (nil:
	// X-API-Key and Authorization).
	CredentialHeaders []string
}

func (p Policy) valid() error {
	if p.Name == "" || p.Limit <= 0 || p.Window < time.Second {
		return fmt.Errorf("limits: policy %+v: want a name, a positive limit and a window of at least 1s", p)
	}
	for _, c := range p.Name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("limits: policy name %q: letters, digits, '-' and '_' only", p.Name)
		}
	}
	return nil
}

// seconds rounds d up to whole seconds.
func seconds(d time.Duration) int { return int(math.Ceil(d.Seconds())) }

// setHeaders writes the RateLimit headers of d under p.
func setHeaders(h http.Header, p Policy, d ratelimit.Decision) {
	h.Set("RateLimit-Policy", strconv.Quote(p.Name)+";q="+strconv.Itoa(p.Limit)+";w="+strconv.Itoa(seconds(p.Window)))
	h.Set("RateLimit", strconv.Quote(p.Name)+";r="+strconv.Itoa(d.Remaining)+";t="+strconv.Itoa(seconds(d.Reset)))
	if !d.Allowed {
		h.Set("Retry-After", strconv.Itoa(d.RetryAfterSeconds()))
	}
}

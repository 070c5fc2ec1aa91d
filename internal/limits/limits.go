package limits

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/google/uuid"
	"github.com/ogen-go/ogen/middleware"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/ratelimit"
)

// Limits applies the configured policies; one per server instance, sharing
// the database with the others.
type Limits struct {
	cfg      Config
	log      *slog.Logger
	limiters map[string]*ratelimit.Limiter
	policies map[string]Policy
}

// New returns Limits charging through q (a *pgxpool.Pool). It refuses
// invalid policies and two policies sharing a name with other numbers.
func New(q ratelimit.Querier, cfg Config, log *slog.Logger) (*Limits, error) {
	if cfg.PerKey == (Policy{}) {
		cfg.PerKey = APIKeyDefault
	}
	if cfg.PerIP == (Policy{}) {
		cfg.PerIP = AnonymousDefault
	}
	if cfg.CredentialHeaders == nil {
		cfg.CredentialHeaders = []string{"X-API-Key", "Authorization"}
	}
	if cfg.ClientIP == nil {
		cfg.ClientIP = NewClientIP("", nil).String
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	l := &Limits{cfg: cfg, log: log, limiters: map[string]*ratelimit.Limiter{}, policies: map[string]Policy{}}
	all := []Policy{cfg.PerKey, cfg.PerIP}
	for _, r := range cfg.Operations {
		for _, p := range []*Policy{r.PerKey, r.PerIP, r.PerAccount} {
			if p != nil {
				all = append(all, *p)
			}
		}
	}
	for _, p := range all {
		if err := p.valid(); err != nil {
			return nil, err
		}
		if prev, ok := l.policies[p.Name]; ok && prev != p {
			return nil, fmt.Errorf("limits: two policies named %q: %+v and %+v", p.Name, prev, p)
		}
		l.policies[p.Name] = p
		l.limiters[p.Name] = ratelimit.New(q, p.Limit, p.Window)
	}
	return l, nil
}

// holder is the per-request state Middleware puts in the context.
type holder struct {
	l       *Limits
	r       *http.Request
	header  http.Header
	op      string
	charged bool
}

type ctxKey struct{}

func holderFrom(ctx context.Context) *holder {
	h, _ := ctx.Value(ctxKey{}).(*holder)
	return h
}

// Middleware limits the requests of next: anonymous ones per client IP at
// once; others through ChargeAPIKey (or Charge) and Hook.
func (l *Limits) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := &holder{l: l, r: r, header: w.Header()}
		if l.cfg.Operation != nil {
			h.op, _ = l.cfg.Operation(r)
		}
		if !l.hasCredential(r) {
			if e := h.chargeIP(r.Context()); e != nil {
				httpx.WriteError(w, r, e)
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, h)))
	})
}

// Hook is the ogen middleware that charges per IP a request whose credential
// header the operation did not authenticate. Install it before other hooks.
func (l *Limits) Hook() middleware.Middleware {
	return func(req middleware.Request, next middleware.Next) (middleware.Response, error) {
		h := holderFrom(req.Context)
		if h == nil || h.charged {
			return next(req)
		}
		h.op = req.OperationID
		if e := h.chargeIP(req.Context); e != nil {
			return middleware.Response{}, e
		}
		return next(req)
	}
}

// ChargeAPIKey charges one request to the API key id, under the operation's
// per-key policy. The security handler calls it right after authenticating
// the key; a non-nil error is the 429 to answer (its headers are already
// set). Without Middleware around the request it does nothing.
func ChargeAPIKey(ctx context.Context, id uuid.UUID) error {
	return Charge(ctx, ratelimit.APIKey(id))
}

// Charge is ChargeAPIKey for any authenticated principal, e.g. "user:<id>".
func Charge(ctx context.Context, principal string) error {
	h := holderFrom(ctx)
	if h == nil || h.charged {
		return nil
	}
	p := h.l.cfg.PerKey
	if r, ok := h.l.cfg.Operations[h.op]; ok && r.PerKey != nil {
		p = *r.PerKey
	}
	key := principal
	if p != APIKeyDefault {
		// The contract's default bucket is shared with MCP; others are apart.
		key = "rest:" + p.Name + ":" + principal
	}
	if e := h.charge(ctx, p, key); e != nil {
		return e
	}
	return nil
}

// ChargeAccount charges one request to account (for example a normalised
// email) under the operation's PerAccount policy, whatever was charged
// before. A non-nil error is the 429 to answer; without a PerAccount rule, or
// without Middleware around the request, it does nothing.
func ChargeAccount(ctx context.Context, account string) error {
	h := holderFrom(ctx)
	if h == nil {
		return nil
	}
	r, ok := h.l.cfg.Operations[h.op]
	if !ok || r.PerAccount == nil {
		return nil
	}
	sum := sha256.Sum256([]byte(account))
	if e := h.charge(ctx, *r.PerAccount, "acct:"+r.PerAccount.Name+":"+hex.EncodeToString(sum[:16])); e != nil {
		return e
	}
	return nil
}

func (h *holder) chargeIP(ctx context.Context) *apperr.Error {
	p := h.l.cfg.PerIP
	if r, ok := h.l.cfg.Operations[h.op]; ok && r.PerIP != nil {
		p = *r.PerIP
	}
	addr := h.l.cfg.ClientIP(h.r)
	if addr == "" {
		addr, _, _ = net.SplitHostPort(h.r.RemoteAddr)
	}
	return h.charge(ctx, p, "ip:"+p.Name+":"+bucketOf(addr))
}

// charge counts one request of key under p and sets the headers; the error
// is the 429 of a refused request. A database failure lets it through.
func (h *holder) charge(ctx context.Context, p Policy, key string) *apperr.Error {
	h.charged = true
	d, err := h.l.limiters[p.Name].Allow(ctx, key)
	if err != nil {
		h.l.log.ErrorContext(ctx, "rate limit unavailable; request let through",
			"request_id", httpx.RequestID(ctx), "policy", p.Name, "error", err)
		return nil
	}
	setHeaders(h.header, p, d)
	if !d.Allowed {
		return Limited(p, d)
	}
	return nil
}

func (l *Limits) hasCredential(r *http.Request) bool {
	for _, name := range l.cfg.CredentialHeaders {
		if r.Header.Get(name) != "" {
			return true
		}
	}
	return false
}

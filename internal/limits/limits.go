package limits

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/ogen-go/ogen/middleware"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/ratelimit"
	"github.com/venueplatform/venue/internal/viewer"
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

// meter is one request's passage through the limiter: Middleware puts it in
// the request's context (the slot the other parts of the request fill in),
// and it is settled once, when the request's caller is known.
type meter struct {
	l       *Limits
	r       *http.Request
	header  http.Header
	op      string
	settled bool
}

type ctxKey struct{}

func meterFrom(ctx context.Context) *meter {
	m, _ := ctx.Value(ctxKey{}).(*meter)
	return m
}

// Middleware is the rate limit of the requests of next, the one component
// of this package a server installs around its API (with Hook, its trigger
// inside the generated server). It names the operation once and puts the
// request's meter in the context; the meter is settled (one charge, to one
// bucket, decided by bucket) at the first of:
//
//   - here, before next runs, for a request without a credential header:
//     nothing will authenticate it, so it is the client address's;
//   - Authenticated, which the security handler calls the moment it has
//     verified a credential: the principal's;
//   - Hook, as the operation is about to run, for a request whose
//     credential header the operation did not authenticate: the address's.
//
// A request refused before any of these (a credential that fails, a bad key
// on a public operation, a malformed request whose credential the operation
// ignores) is not charged.
func (l *Limits) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := &meter{l: l, r: r, header: w.Header()}
		if l.cfg.Operation != nil {
			m.op, _ = l.cfg.Operation(r)
		}
		if !l.hasCredential(r) {
			if err := m.settle(r.Context(), nil); err != nil {
				httpx.WriteError(w, r, err)
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, m)))
	})
}

// Hook is the ogen middleware that settles, per client address, a request
// still unsettled when its operation is about to run: one whose credential
// header the operation did not authenticate (a public operation, a bearer
// token where only keys count, /me/minimal's refused token). Install it
// after auth.KeyGuard, so a bad key on a public operation is refused
// uncharged, and before the idempotency hook.
func (l *Limits) Hook() middleware.Middleware {
	return func(req middleware.Request, next middleware.Next) (middleware.Response, error) {
		m := meterFrom(req.Context)
		if m == nil || m.settled {
			return next(req)
		}
		if m.op == "" {
			m.op = req.OperationID
		}
		if err := m.settle(req.Context, nil); err != nil {
			return middleware.Response{}, err
		}
		return next(req)
	}
}

// Authenticated tells the request's limiter who the caller is: the security
// handler calls it right after it verified a credential, before any check
// that may refuse the caller (scopes, second factor), so those refusals are
// charged and a caller over its limit hears 429 first. The request is
// charged to v (its Actor: an API key's bucket is ratelimit.APIKey, shared
// with MCP) under the operation's per-principal policy, unless it was
// charged already. A non-nil error is the 429 to answer (its headers are
// already set). Without Middleware around the request it does nothing.
func Authenticated(ctx context.Context, v viewer.Viewer) error {
	m := meterFrom(ctx)
	if m == nil {
		return nil
	}
	if err := m.settle(ctx, v); err != nil {
		return err
	}
	return nil
}

// settle charges the request once: to v, or for a nil v to the client
// address. Later calls do nothing.
func (m *meter) settle(ctx context.Context, v viewer.Viewer) *apperr.Error {
	if m.settled {
		return nil
	}
	m.settled = true
	p, key := m.bucket(v)
	return m.l.charge(ctx, m.header, p, key)
}

// bucket decides the policy and bucket key of the request: the one place
// that does. A principal (v) takes the operation's PerKey policy (else
// Config.PerKey); the default policy's bucket is the principal's Actor
// (shared with MCP), others are apart. An anonymous request takes the
// operation's PerIP policy (else Config.PerIP), in the bucket of its client
// address (IPv6 per /64).
func (m *meter) bucket(v viewer.Viewer) (Policy, string) {
	rule := m.l.cfg.Operations[m.op]
	if v != nil {
		p := m.l.cfg.PerKey
		if rule.PerKey != nil {
			p = *rule.PerKey
		}
		if p == APIKeyDefault {
			return p, v.Actor()
		}
		return p, "rest:" + p.Name + ":" + v.Actor()
	}
	p := m.l.cfg.PerIP
	if rule.PerIP != nil {
		p = *rule.PerIP
	}
	addr := m.l.cfg.ClientIP(m.r)
	if addr == "" {
		addr, _, _ = net.SplitHostPort(m.r.RemoteAddr)
	}
	return p, "ip:" + p.Name + ":" + bucketOf(addr)
}

// ChargeAccount charges one request to account (for example a normalised
// email) under the operation's PerAccount policy, on top of the request's
// own charge: a second bucket, not a second charge of the first, which the
// operation charges because only it reads the account from the body. A
// non-nil error is the 429 to answer; without a PerAccount rule, or without
// Middleware around the request, it does nothing.
func ChargeAccount(ctx context.Context, account string) error {
	m := meterFrom(ctx)
	if m == nil {
		return nil
	}
	r, ok := m.l.cfg.Operations[m.op]
	if !ok || r.PerAccount == nil {
		return nil
	}
	sum := sha256.Sum256([]byte(account))
	if e := m.l.charge(ctx, m.header, *r.PerAccount, "acct:"+r.PerAccount.Name+":"+hex.EncodeToString(sum[:16])); e != nil {
		return e
	}
	return nil
}

// charge counts one request of key under p and sets the headers; the error
// is the 429 of a refused request. A database failure lets it through.
func (l *Limits) charge(ctx context.Context, header http.Header, p Policy, key string) *apperr.Error {
	d, err := l.limiters[p.Name].Allow(ctx, key)
	if err != nil {
		l.log.ErrorContext(ctx, "rate limit unavailable; request let through",
			"request_id", httpx.RequestID(ctx), "policy", p.Name, "error", err)
		return nil
	}
	setHeaders(header, p, d)
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

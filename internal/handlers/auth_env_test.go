package handlers_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/ogen-go/ogen/ogenerrors"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/accounts"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/server"
)

// BearerAuth lets the API-key source of the catalogue tests drive a client
// whose operations also accept bearer tokens: it sends none.
func (keySource) BearerAuth(context.Context, api.OperationName) (api.BearerAuth, error) {
	return api.BearerAuth{}, ogenerrors.ErrSkipClientSecurity
}

// bearer is a client credential source sending a user's access token.
type bearer string

func (bearer) ApiKeyAuth(context.Context, api.OperationName) (api.ApiKeyAuth, error) {
	return api.ApiKeyAuth{}, ogenerrors.ErrSkipClientSecurity
}

func (b bearer) BearerAuth(context.Context, api.OperationName) (api.BearerAuth, error) {
	if b == "" {
		return api.BearerAuth{}, ogenerrors.ErrSkipClientSecurity
	}
	return api.BearerAuth{Token: string(b)}, nil
}

// sink captures the codes the service sends: the tests' hook in place of
// an inbox.
type sink struct {
	mu   sync.Mutex
	sent []accounts.Delivery
}

func (s *sink) SendCode(_ context.Context, d accounts.Delivery) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, d)
	return nil
}

// last returns the last code sent to email, "" when none.
func (s *sink) last(email string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.sent) - 1; i >= 0; i-- {
		if s.sent[i].Email == email {
			return s.sent[i].Code
		}
	}
	return ""
}

// lastDelivery returns the last delivery to email.
func (s *sink) lastDelivery(email string) accounts.Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.sent) - 1; i >= 0; i-- {
		if s.sent[i].Email == email {
			return s.sent[i]
		}
	}
	return accounts.Delivery{}
}

func (s *sink) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sent)
}

// authEnv is a studio served with a known signing key and a code sink.
type authEnv struct {
	*studio
	url  string
	key  *token.SigningKey
	sink *sink
}

func newAuthEnv(t testing.TB, s *studio) *authEnv { return newAuthEnvWith(t, s, nil) }

// newAuthEnvWith is newAuthEnv with a change to the accounts configuration.
func newAuthEnvWith(t testing.TB, s *studio, change func(*accounts.Config)) *authEnv {
	key, err := token.GenerateSigningKey()
	require.NoError(t, err)
	e := &authEnv{studio: s, key: key, sink: &sink{}}
	cfg := accounts.Config{SigningKey: key, Sink: e.sink}
	if change != nil {
		change(&cfg)
	}
	acct, err := accounts.New(s.client, cfg)
	require.NoError(t, err)
	h, err := server.New(server.Deps{Pool: s.pool, Client: s.client, Accounts: acct, Settings: settings(t),
		Log:            slog.New(slog.NewJSONHandler(io.Discard, nil)),
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	e.url = srv.URL
	return e
}

// client returns a generated client sending the access token (none when empty).
func (e *authEnv) client(t testing.TB, access string) *api.Client {
	c, err := api.NewClient(e.url+"/api/v1", bearer(access))
	require.NoError(t, err)
	return c
}

// signup creates an account and returns its session.
func (e *authEnv) signup(t testing.TB, email, pw string) *api.Session {
	res, err := e.client(t, "").AuthSignup(context.Background(), &api.SignupRequest{Email: email, Password: pw})
	require.NoError(t, err)
	return &res.Data
}

// spreadClient returns a generated client whose requests come, through the
// trusted proxy header, from ever new addresses: benchmarks measure the work,
// not the per-address limits.
func (e *authEnv) spreadClient(t testing.TB) *api.Client {
	var n atomic.Uint32
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		i := n.Add(1)
		r.Header.Set("X-Forwarded-For", "10."+strconv.Itoa(int(i>>16&255))+"."+strconv.Itoa(int(i>>8&255))+"."+strconv.Itoa(int(i&255)))
		return http.DefaultTransport.RoundTrip(r)
	})}
	c, err := api.NewClient(e.url+"/api/v1", bearer(""), api.WithClient(hc))
	require.NoError(t, err)
	return c
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// db returns the ent client of the env's database.
func (e *authEnv) db() *ent.Client { return e.studio.client }

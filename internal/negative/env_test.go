package negative_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/demo"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/jobs"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/negative"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/ratelimit"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/server"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const password = "correct horse battery staple"

// env is the real server over a real database with the demo venue, an API
// key with every scope, and an owner and a member signed in.
type env struct {
	pool    *pgxpool.Pool
	client  *ent.Client
	addr    string
	op      context.Context
	slug    string
	venueID uuid.UUID
	key     string
	tokens  map[string]string // owner, member: access tokens
	ids     map[string]string // param name: a real id of the demo venue
	users   atomic.Int32
}

type discardSink struct{}

func (discardSink) SendCode(context.Context, accounts.Delivery) error { return nil }

func newEnv(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	e := &env{pool: pgtest.NewPool(t), tokens: map[string]string{}, ids: map[string]string{}}
	e.client = db.NewClient(e.pool)
	_, err := jobs.Migrate(ctx, e.pool)
	require.NoError(t, err)
	res, err := demo.Ensure(ctx, e.pool, e.client, time.Now())
	require.NoError(t, err)
	e.slug, e.venueID = res.Slug, res.VenueID
	e.op = viewer.NewContext(ctx, viewer.Operator{Org: res.VenueID, Name: "negative"})
	issued, err := apikey.Create(e.op, e.client, apikey.CreateParams{Name: "negative", Scopes: scope.All, CreatedBy: res.OwnerEmail})
	require.NoError(t, err)
	e.key = issued.Secret

	key, err := token.GenerateSigningKey()
	require.NoError(t, err)
	acct, err := accounts.New(e.client, accounts.Config{SigningKey: key, Sink: discardSink{}})
	require.NoError(t, err)
	settings, err := config.FromEnvironment()
	require.NoError(t, err)
	log := slog.New(slog.NewJSONHandler(io.Discard, nil))
	h, err := server.New(server.Deps{Pool: e.pool, Client: e.client, Accounts: acct, Settings: &settings, Log: log,
		MCP: mcp.NewHandler(e.client, auth.New(e.client), ratelimit.New(e.pool, 0, 0), log)})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	e.addr = srv.Listener.Addr().String()
	negative.MaxBody = httpx.MaxBodyBytes

	// Real ids of the demo venue for the path parameters, so that a bad value
	// elsewhere in the request meets a row that exists.
	var class, booking string
	_ = e.pool.QueryRow(ctx, `SELECT id::text FROM class_instances WHERE organization_id = $1 ORDER BY start_time DESC LIMIT 1`, e.venueID).Scan(&class)
	_ = e.pool.QueryRow(ctx, `SELECT id::text FROM bookings WHERE organization_id = $1 ORDER BY id LIMIT 1`, e.venueID).Scan(&booking)
	for _, n := range []string{"classInstanceId", "class_instance_id"} {
		e.ids[n] = class
	}
	e.ids["bookingId"] = booking
	e.ensureCallers(t)
	return e
}

// ensureCallers signs in (again) whichever of owner and member no longer
// holds a working token: a case that logs out or enrols a second factor
// is a finding of its own, not a reason for every later case to be a 401.
func (e *env) ensureCallers(t *testing.T) {
	t.Helper()
	for _, role := range []string{"owner", "member"} {
		if tok := e.tokens[role]; tok != "" {
			if res, err := e.do(negative.Request{Method: "GET", Target: "/api/v1/me"}, role); err == nil && res.Status == 200 {
				continue
			}
		}
		e.clearLimits(t)
		email := fmt.Sprintf("negative-%s-%d@example.com", role, e.users.Add(1))
		body, _ := json.Marshal(map[string]string{"email": email, "password": password})
		res, err := e.do(negative.Request{Method: "POST", Target: "/api/v1/auth/signup", Body: body,
			Header: [][2]string{{"Content-Type", "application/json"}}}, "anonymous")
		require.NoError(t, err)
		require.Less(t, res.Status, 300, "%s", res.Body)
		var s struct {
			Data struct {
				AccessToken string `json:"access_token"`
			} `json:"data"`
		}
		require.NoError(t, json.Unmarshal(res.Body, &s))
		require.NotEmpty(t, s.Data.AccessToken, "%s", res.Body)
		_, err = members.Enroll(e.op, e.client, members.EnrollParams{Email: email, FirstName: "Neg", LastName: role, Role: role})
		require.NoError(t, err)
		e.tokens[role] = s.Data.AccessToken
		body, _ = json.Marshal(map[string]string{"organization_id": e.venueID.String()})
		_, err = e.do(negative.Request{Method: "POST", Target: "/api/v1/me/active-organization", Body: body,
			Header: [][2]string{{"Content-Type", "application/json"}}}, role)
		require.NoError(t, err)
	}
}

// clearLimits empties the rate-limit buckets: the table is a few thousand
// requests from one address and one key, and a 429 would hide the answer.
func (e *env) clearLimits(t *testing.T) {
	_, err := e.pool.Exec(context.Background(), `DELETE FROM rate_limits`)
	require.NoError(t, err)
}

// do sends req as caller.
func (e *env) do(req negative.Request, caller string) (*negative.Response, error) {
	switch caller {
	case "apikey":
		req.Header = append(req.Header, [2]string{"X-API-Key", e.key})
	case "owner", "member":
		req.Header = append(req.Header, [2]string{"Authorization", "Bearer " + e.tokens[caller]})
	}
	return negative.Send(e.addr, req, 30*time.Second)
}

// base is the generator's source of well-formed values.
func (e *env) base() negative.Base {
	return negative.Base{
		Prefix: "/api/v1",
		NewKey: uuid.NewString,
		Param: func(op *negative.Operation, p negative.Param) (string, bool) {
			switch {
			case p.Name == "slug":
				return e.slug, true
			case strings.EqualFold(p.Name, "X-Organization-ID"), p.Name == "organization_id", p.Name == "organizationId":
				return e.venueID.String(), true
			case e.ids[p.Name] != "":
				return e.ids[p.Name], true
			case p.Name == "id" && strings.Contains(op.Path, "schedule"):
				return e.ids["classInstanceId"], true
			case p.Name == "id" && strings.HasPrefix(op.Path, "/bookings/{"):
				return e.ids["bookingId"], true
			case p.Name == "id" && strings.HasPrefix(op.Path, "/admin/classes/{"):
				return e.ids["classInstanceId"], true
			}
			return "", false
		},
	}
}

// reqBody is a JSON-RPC call's body.
func rpc(method string, params any) []byte {
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	return b.Bytes()
}

var _ = http.StatusOK

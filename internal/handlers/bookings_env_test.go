package handlers_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/db"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/server"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// bookEnv is a studio served with a known signing key, so tests mint access
// tokens for enrolled members directly (no sign-up round trips, no per-IP
// sign-up limits when hundreds of members book at once).
type bookEnv struct {
	*studio
	url  string
	acct *accounts.Service
	ten  *ent.PassType
}

func newBookEnv(t *testing.T, slug string) *bookEnv { return serveBookEnv(t, newStudio(t, slug)) }

// newBookEnvB is a bare venue (one class type, the ten-clip pass type) for
// benchmarks, which cannot use newStudio.
func newBookEnvB(b *testing.B, slug string) *bookEnv {
	pool := pgtest.NewPool(b)
	client := db.NewClient(pool)
	v, err := venue.Create(context.Background(), client, venue.CreateParams{Name: "Studio " + slug, Slug: slug})
	require.NoError(b, err)
	s := &studio{pool: pool, client: client, venue: v, op: opOf(v.ID)}
	s.classType = client.ClassType.Create().SetName("Flow").SaveX(s.op).ID
	client.PassType.Create().SetName("Ten").SetSlug("ten").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(1000).SetCurrency("DKK").SetClips(10).SaveX(s.op)
	return serveBookEnv(b, s)
}

func serveBookEnv(t testing.TB, s *studio) *bookEnv {
	t.Helper()
	key, err := token.GenerateSigningKey()
	require.NoError(t, err)
	acct, err := accounts.New(s.client, accounts.Config{SigningKey: key, Sink: &sink{}})
	require.NoError(t, err)
	h, err := server.New(server.Deps{Pool: s.pool, Client: s.client, Accounts: acct,
		Log: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	e := &bookEnv{studio: s, url: srv.URL, acct: acct}
	e.ten = s.client.PassType.Query().Where(passtype.Slug("ten")).OnlyX(s.op)
	return e
}

// bookMember is an enrolled member with a token and (optionally) a pass.
type bookMember struct {
	m     *ent.Member
	pass  *ent.Pass
	token string
	c     *api.Client
}

// member enrols email in the env's venue (op) with a pass of pt holding
// clips (nil pt: no pass) and mints an access token for the user.
func (e *bookEnv) member(t testing.TB, op context.Context, email string, pt *ent.PassType, clips *int) bookMember {
	t.Helper()
	en, err := members.Enroll(op, e.client, members.EnrollParams{Email: email, FirstName: "M"})
	require.NoError(t, err)
	out := bookMember{m: en.Member}
	if pt != nil {
		out.pass = e.client.Pass.Create().SetMemberID(en.Member.ID).SetPassTypeID(pt.ID).
			SetValidFrom(time.Now().AddDate(0, 0, -1)).SetNillableClipsRemaining(clips).SaveX(op)
	}
	out.token = e.tokenFor(t, en.User.ID)
	out.c = e.bearer(t, out.token)
	return out
}

func (e *bookEnv) tokenFor(t testing.TB, uid uuid.UUID) string {
	tok, _, err := e.acct.Tokens().Issue(token.Claims{Subject: uid.String(), SessionID: uuid.NewString()})
	require.NoError(t, err)
	return tok
}

func (e *bookEnv) bearer(t testing.TB, tok string) *api.Client {
	c, err := api.NewClient(e.url+"/api/v1", bearer(tok))
	require.NoError(t, err)
	return c
}

// keyClient issues a key of the venue of op with scopes and returns a client
// sending it. Write keys are issued by a staff member of that venue.
func (e *bookEnv) keyClient(t testing.TB, op context.Context, scopes ...string) *api.Client {
	t.Helper()
	p := apikey.CreateParams{Name: "k", Scopes: scopes}
	for _, s := range scopes {
		if scope.IsWrite(s) {
			email := "staff-" + uuid.NewString()[:8] + "@example.com"
			_, err := members.Enroll(op, e.client, members.EnrollParams{Email: email, Role: "staff"})
			require.NoError(t, err)
			p.CreatedBy = email
			break
		}
	}
	issued, err := apikey.Create(op, e.client, p)
	require.NoError(t, err)
	c, err := api.NewClient(e.url+"/api/v1", keySource(issued.Secret))
	require.NoError(t, err)
	return c
}

// class adds a class of the studio's Vinyasa type (brand hot-yoga) starting in `in`.
func (e *bookEnv) class(t testing.TB, op context.Context, classType uuid.UUID, in time.Duration, capacity int) *ent.ClassInstance {
	return e.classAt(t, op, classType, time.Now().Add(in).Truncate(time.Second), capacity)
}

// classAt adds a class of classType starting at start.
func (e *bookEnv) classAt(t testing.TB, op context.Context, classType uuid.UUID, start time.Time, capacity int) *ent.ClassInstance {
	return e.client.ClassInstance.Create().SetClassTypeID(classType).SetStartTime(start).
		SetEndTime(start.Add(time.Hour)).SetCapacity(capacity).SaveX(op)
}

// venueB creates a second venue (API access on) with a class type, a
// ten-clip pass type and a class in two days with 5 seats.
type venueB struct {
	op        context.Context
	org       uuid.UUID
	classType uuid.UUID
	ten       *ent.PassType
	class     *ent.ClassInstance
}

func (e *bookEnv) venueB(t testing.TB, slug string) venueB {
	t.Helper()
	v, err := venue.Create(context.Background(), e.client, venue.CreateParams{Name: "Venue " + slug, Slug: slug, APIEnabled: true})
	require.NoError(t, err)
	b := venueB{op: opOf(v.ID), org: v.ID}
	b.classType = e.client.ClassType.Create().SetName("Yin").SaveX(b.op).ID
	b.ten = e.client.PassType.Create().SetName("Ten").SetSlug("ten").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(1000).SetCurrency("DKK").SetClips(10).SaveX(b.op)
	b.class = e.class(t, b.op, b.classType, 48*time.Hour, 5)
	return b
}

func opOf(org uuid.UUID) context.Context {
	return viewer.NewContext(context.Background(), viewer.Operator{Org: org, Name: "test"})
}

func ptrInt(v int) *int { return &v }

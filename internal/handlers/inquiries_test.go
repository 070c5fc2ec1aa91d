package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/featureprovisioning"
	"github.com/venueplatform/venue/ent/inquiry"
	entmember "github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/predicate"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/inquiries"
)

// relay is the venue staff notification relay, over real HTTP: the seam where
// delivery faults are injected (failing answers), not a stand-in for the
// database.
type relay struct {
	srv *httptest.Server

	mu      sync.Mutex
	fail    bool
	notices []inquiries.Notice
	keys    []string
}

func newRelay(t *testing.T) *relay {
	r := &relay{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.fail {
			http.Error(w, "relay down", http.StatusBadGateway)
			return
		}
		var n inquiries.Notice
		if err := json.NewDecoder(req.Body).Decode(&n); err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		r.notices = append(r.notices, n)
		r.keys = append(r.keys, req.Header.Get("Idempotency-Key"))
		w.WriteHeader(http.StatusAccepted)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *relay) setFail(v bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fail = v
}

func (r *relay) received() []inquiries.Notice {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]inquiries.Notice(nil), r.notices...)
}

// inquiryEnv is a studio whose services take inquiries, a second venue, and a
// relay the server delivers inquiries to.
type inquiryEnv struct {
	*authEnv
	relay                      *relay
	massage, closed, inactive  uuid.UUID
	otherOp                    context.Context
	otherOrg, otherSvc         uuid.UUID
	member, stranger           *api.Session
	memberEmail, strangerEmail string
}

func newInquiryEnv(t *testing.T) *inquiryEnv {
	t.Helper()
	r := newRelay(t)
	t.Setenv(inquiries.EnvNotifyURL, r.srv.URL+"/notify")
	s := newStudio(t, "studio")
	e := &inquiryEnv{authEnv: newAuthEnv(t, s), relay: r}
	svc := func(op context.Context, name, slug string, accepts, active bool) uuid.UUID {
		return e.db().Service.Create().SetName(name).SetSlug(slug).SetDurationMinutes(60).
			SetPriceMinor(65000).SetCurrency("DKK").SetAcceptsInquiries(accepts).SetIsActive(active).
			SaveX(op).ID
	}
	e.massage = svc(s.op, "Deep tissue massage", "massage", true, true)
	e.closed = svc(s.op, "Walk-in haircut", "haircut", false, true)
	e.inactive = svc(s.op, "Old facial", "facial", true, false)
	e.otherOp, e.otherOrg = e.otherVenue(t, "other")
	e.otherSvc = svc(e.otherOp, "Sauna session", "sauna", true, true)
	e.memberEmail, e.strangerEmail = "ida@example.com", "bo@example.com"
	e.member = e.signup(t, e.memberEmail, "correct horse battery")
	e.stranger = e.signup(t, e.strangerEmail, "correct horse battery")
	return e
}

func (e *inquiryEnv) file(t *testing.T, sess *api.Session, slug string, svc uuid.UUID, key string) (*api.InquiryCreateResponseHeaders, error) {
	t.Helper()
	p := api.CreateVenueInquiryParams{Slug: slug}
	if key != "" {
		p.IdempotencyKey = api.NewOptString(key)
	}
	return e.client(t, sess.AccessToken).CreateVenueInquiry(context.Background(), &api.InquiryCreateRequest{
		ServiceID: svc, PreferredTime: api.NewOptString("Saturday morning"), Message: api.NewOptString("First time"),
	}, p)
}

func (e *inquiryEnv) count(t *testing.T) int {
	t.Helper()
	return e.countWhere(t)
}

// countWhere counts the inquiries of both venues matching ps, each read by
// its own venue's operator.
func (e *inquiryEnv) countWhere(t *testing.T, ps ...predicate.Inquiry) int {
	t.Helper()
	total := 0
	for _, op := range []context.Context{e.op, e.otherOp} {
		n, err := e.db().Inquiry.Query().Where(ps...).Count(op)
		require.NoError(t, err)
		total += n
	}
	return total
}

func TestInquiryFileAndList(t *testing.T) {
	e := newInquiryEnv(t)
	ctx := context.Background()

	// With a UUID key: 201, the key echoed, the staff told once.
	key := uuid.NewString()
	res, err := e.file(t, e.member, "studio", e.massage, key)
	require.NoError(t, err)
	require.Equal(t, key, res.IdempotencyKey.String())
	id := res.Response.Data.ID
	got := e.relay.received()
	require.Len(t, got, 1)
	require.Equal(t, id, got[0].InquiryID)
	require.Equal(t, e.studio.venue.ID, got[0].OrganizationID)
	require.Equal(t, "Deep tissue massage", got[0].ServiceName)
	require.Equal(t, e.memberEmail, got[0].ContactEmail, "contact fields default to the account")
	require.Equal(t, id.String(), e.relay.keys[0])

	// The same key again: the same inquiry, nothing new stored or sent.
	again, err := e.file(t, e.member, "studio", e.massage, key)
	require.NoError(t, err)
	require.Equal(t, id, again.Response.Data.ID)
	require.Equal(t, 1, e.count(t))
	require.Len(t, e.relay.received(), 1)

	// Without a key: the server chooses the request id and says so.
	res2, err := e.file(t, e.member, "other", e.otherSvc, "")
	require.NoError(t, err)
	require.NotEqual(t, uuid.Nil, res2.IdempotencyKey)
	require.NotEqual(t, id, res2.Response.Data.ID)

	// The member's own list, newest first, with exactly the contract's fields.
	list, err := e.client(t, e.member.AccessToken).ListMyInquiries(ctx, api.ListMyInquiriesParams{})
	require.NoError(t, err)
	require.Len(t, list.Data, 2)
	first, second := list.Data[0], list.Data[1]
	require.Equal(t, res2.Response.Data.ID, first.ID)
	require.Equal(t, api.InquiryVenue{Slug: "other", Name: "Venue other"}, first.Venue)
	require.Equal(t, "Sauna session", first.ServiceName)
	require.Equal(t, id, second.ID)
	require.Equal(t, api.InquiryVenue{Slug: "studio", Name: "Studio studio"}, second.Venue)
	require.Equal(t, "Saturday morning", second.PreferredTime)
	require.Equal(t, api.InquiryStatusKeySent, second.StatusKey)
	require.Equal(t, "Sent to the venue", second.Status)
	require.False(t, second.CreatedAt.IsZero())
	require.False(t, list.Meta.HasMore)
	require.True(t, list.Meta.NextCursor.IsNull())

	raw := rawGet(t, e.url+"/api/v1/me/inquiries", e.member.AccessToken)
	var body struct {
		Data []map[string]any `json:"data"`
	}
	require.NoError(t, json.Unmarshal(raw, &body))
	require.ElementsMatch(t, []string{"id", "venue", "service_name", "preferred_time", "status", "status_key", "created_at"},
		keys(body.Data[0]), "exactly the contract's Booking inquiry fields")

	// Owner scope: another user sees none of them.
	other, err := e.client(t, e.stranger.AccessToken).ListMyInquiries(ctx, api.ListMyInquiriesParams{})
	require.NoError(t, err)
	require.Empty(t, other.Data)
	// ... and the same key from another user is another filing.
	theirs, err := e.file(t, e.stranger, "studio", e.massage, key)
	require.NoError(t, err)
	require.NotEqual(t, id, theirs.Response.Data.ID)

	// Without a session: 401.
	resp, err := http.Get(e.url + "/api/v1/me/inquiries")
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func rawGet(t *testing.T, url, token string) []byte {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(b))
	return b
}

func TestInquiryRefusals(t *testing.T) {
	e := newInquiryEnv(t)
	refused := func(err error, status int, code string) {
		t.Helper()
		es := errorOf(t, err)
		require.Equal(t, status, es.StatusCode)
		require.Equal(t, code, es.Response.Error.Code)
	}

	// Services that take no inquiries: 422.
	_, err := e.file(t, e.member, "studio", e.closed, "")
	refused(err, http.StatusUnprocessableEntity, inquiries.CodeNotAccepting)
	_, err = e.file(t, e.member, "studio", e.inactive, "")
	refused(err, http.StatusUnprocessableEntity, inquiries.CodeNotAccepting)

	// Another venue's service is exactly an unknown one: 404.
	_, err = e.file(t, e.member, "studio", e.otherSvc, "")
	refused(err, http.StatusNotFound, "NOT_FOUND")
	_, err = e.file(t, e.member, "studio", uuid.New(), "")
	refused(err, http.StatusNotFound, "NOT_FOUND")
	_, err = e.file(t, e.member, "no-such-venue", e.massage, "")
	refused(err, http.StatusNotFound, "NOT_FOUND")

	// A malformed key: 400 INVALID_IDEMPOTENCY_KEY.
	_, err = e.file(t, e.member, "studio", e.massage, "not-a-uuid")
	refused(err, http.StatusBadRequest, "INVALID_IDEMPOTENCY_KEY")

	// An unlisted venue is not open to strangers; a blocked member is refused.
	e.db().Organization.UpdateOneID(e.otherOrg).SetListed(false).ExecX(e.otherOp)
	_, err = e.file(t, e.member, "other", e.otherSvc, "")
	refused(err, http.StatusNotFound, "NOT_FOUND")
	enroll(t, e.authEnv, e.studio.op, e.strangerEmail, "member")
	e.db().Member.Update().Where(entmember.UserID(e.stranger.User.ID)).SetStatus(entmember.StatusBlocked).ExecX(e.studio.op)
	_, err = e.file(t, e.stranger, "studio", e.massage, "")
	refused(err, http.StatusForbidden, "ACCESS_DENIED")

	// The venue switched inquiries off: 503, nothing stored.
	e.db().FeatureProvisioning.Update().Where(featureprovisioning.OrganizationID(e.studio.venue.ID)).
		SetModules(map[string]bool{inquiries.ModuleKey: false}).ExecX(e.studio.op)
	_, err = e.file(t, e.member, "studio", e.massage, "")
	refused(err, http.StatusServiceUnavailable, inquiries.CodeDisabled)

	require.Equal(t, 0, e.count(t), "no refusal stored anything")
	require.Empty(t, e.relay.received())
}

func TestInquiryReconcileFailedReplayRule(t *testing.T) {
	e := newInquiryEnv(t)
	ctx := context.Background()
	mine := func() []api.InquiryListItem {
		l, err := e.client(t, e.member.AccessToken).ListMyInquiries(ctx, api.ListMyInquiriesParams{})
		require.NoError(t, err)
		return l.Data
	}

	// The relay is down: the inquiry is stored, the answer 503 with the
	// request id to retry with (the caller's key).
	e.relay.setFail(true)
	key := uuid.NewString()
	_, err := e.file(t, e.member, "studio", e.massage, key)
	es := errorOf(t, err)
	require.Equal(t, http.StatusServiceUnavailable, es.StatusCode)
	require.Equal(t, inquiries.CodeReconcileFailed, es.Response.Error.Code)
	require.Equal(t, key, es.Response.Error.Details.RequestID)
	rows := mine()
	require.Len(t, rows, 1)
	require.Equal(t, api.InquiryStatusKeyPending, rows[0].StatusKey)
	stored := rows[0].ID

	// Still down: retrying with the same key fails the same way and files
	// nothing more.
	_, err = e.file(t, e.member, "studio", e.massage, key)
	require.Equal(t, inquiries.CodeReconcileFailed, errorOf(t, err).Response.Error.Code)
	require.Equal(t, 1, e.count(t))

	// Back up: the retry replays the accepted inquiry and delivers it, even
	// though the service stopped taking inquiries meanwhile.
	e.relay.setFail(false)
	e.db().Service.UpdateOneID(e.massage).SetAcceptsInquiries(false).ExecX(e.studio.op)
	res, err := e.file(t, e.member, "studio", e.massage, key)
	require.NoError(t, err)
	require.Equal(t, stored, res.Response.Data.ID)
	require.Equal(t, key, res.IdempotencyKey.String())
	require.Len(t, e.relay.received(), 1)
	require.Equal(t, api.InquiryStatusKeySent, mine()[0].StatusKey)
	require.Equal(t, 1, e.count(t))

	e.db().Service.UpdateOneID(e.massage).SetAcceptsInquiries(true).ExecX(e.studio.op)

	// Without a key, the 503 names the request id the server chose; retrying
	// with it replays, while a new key files a duplicate.
	e.relay.setFail(true)
	_, err = e.file(t, e.member, "studio", e.massage, "")
	es = errorOf(t, err)
	require.Equal(t, inquiries.CodeReconcileFailed, es.Response.Error.Code)
	rid := es.Response.Error.Details.RequestID
	_, err = uuid.Parse(rid)
	require.NoError(t, err, "details.request_id is the inquiry's request id")
	e.relay.setFail(false)
	res, err = e.file(t, e.member, "studio", e.massage, rid)
	require.NoError(t, err)
	require.Equal(t, rid, res.IdempotencyKey.String())
	require.Equal(t, 2, e.count(t))
	dup, err := e.file(t, e.member, "studio", e.massage, uuid.NewString())
	require.NoError(t, err)
	require.NotEqual(t, res.Response.Data.ID, dup.Response.Data.ID)
	require.Equal(t, 3, e.count(t), "a new key files a duplicate")

	// The same request id with another body is a mismatch, not a replay.
	_, err = e.client(t, e.member.AccessToken).CreateVenueInquiry(ctx, &api.InquiryCreateRequest{
		ServiceID: e.massage, PreferredTime: api.NewOptString("Sunday"),
	}, api.CreateVenueInquiryParams{Slug: "studio", IdempotencyKey: api.NewOptString(key)})
	require.Equal(t, http.StatusConflict, errorOf(t, err).StatusCode)

	// Each stored inquiry was delivered exactly once per success.
	require.Zero(t, e.countWhere(t, inquiry.StaffNotifiedAtIsNil()))
}

func TestInquiryRateLimitAndPagination(t *testing.T) {
	e := newInquiryEnv(t)
	ctx := context.Background()
	c := e.client(t, e.member.AccessToken)

	var ids []uuid.UUID
	for range 3 {
		res, err := e.file(t, e.member, "studio", e.massage, "")
		require.NoError(t, err)
		ids = append(ids, res.Response.Data.ID)
	}
	page, err := c.ListMyInquiries(ctx, api.ListMyInquiriesParams{Limit: api.NewOptInt(2)})
	require.NoError(t, err)
	require.Len(t, page.Data, 2)
	require.True(t, page.Meta.HasMore)
	require.Equal(t, []uuid.UUID{ids[2], ids[1]}, []uuid.UUID{page.Data[0].ID, page.Data[1].ID})
	cursor := page.Meta.NextCursor.Value
	next, err := c.ListMyInquiries(ctx, api.ListMyInquiriesParams{Limit: api.NewOptInt(2), After: api.NewOptString(cursor)})
	require.NoError(t, err)
	require.Len(t, next.Data, 1)
	require.Equal(t, ids[0], next.Data[0].ID)
	require.False(t, next.Meta.HasMore)

	// A cursor is bound to its user; a tampered one is refused.
	_, err = e.client(t, e.stranger.AccessToken).ListMyInquiries(ctx, api.ListMyInquiriesParams{After: api.NewOptString(cursor)})
	es := errorOf(t, err)
	require.Equal(t, http.StatusBadRequest, es.StatusCode)
	require.Equal(t, "after", es.Response.Error.Details.Parameter.Value)
	_, err = c.ListMyInquiries(ctx, api.ListMyInquiriesParams{After: api.NewOptString(cursor + "x")})
	require.Equal(t, http.StatusBadRequest, errorOf(t, err).StatusCode)

	// 10 filings per minute per user: the 11th is 429 with Retry-After.
	for i := 3; i < 10; i++ {
		_, err := e.file(t, e.member, "studio", e.massage, "")
		require.NoError(t, err, "filing %d", i+1)
	}
	body, _ := json.Marshal(map[string]any{"service_id": e.massage})
	req, err := http.NewRequest(http.MethodPost, e.url+"/api/v1/venues/studio/inquiries", bytes.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+e.member.AccessToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	ra, err := strconv.Atoi(resp.Header.Get("Retry-After"))
	require.NoError(t, err)
	require.Positive(t, ra)
	require.Equal(t, 10, e.count(t))
	// Another user has their own window.
	_, err = e.file(t, e.stranger, "studio", e.massage, "")
	require.NoError(t, err)
}

// TestInquiryStoredRowsAreVenueOwned: a filed inquiry belongs to the venue it
// was filed at; the other venue's staff context does not see it.
func TestInquiryStoredRowsAreVenueOwned(t *testing.T) {
	e := newInquiryEnv(t)
	res, err := e.file(t, e.member, "studio", e.massage, "")
	require.NoError(t, err)
	got, err := e.db().Inquiry.Get(e.studio.op, res.Response.Data.ID)
	require.NoError(t, err)
	require.Equal(t, e.studio.venue.ID, got.OrganizationID)
	_, err = e.db().Inquiry.Get(e.otherOp, res.Response.Data.ID)
	require.True(t, ent.IsNotFound(err))
}

func TestVenueServicesList(t *testing.T) {
	e := newInquiryEnv(t)
	ctx := context.Background()
	c := e.studio.apiClient(t, "")
	e.db().Service.Create().SetName("Staff only").SetSlug("staff-only").SetDurationMinutes(30).
		SetPriceMinor(0).SetCurrency("DKK").SetListed(false).SaveX(e.studio.op)

	all, err := c.ListVenueServices(ctx, api.ListVenueServicesParams{Slug: "studio"})
	require.NoError(t, err)
	var names []string
	for _, s := range all.Data {
		names = append(names, s.Name)
	}
	require.ElementsMatch(t, []string{"Deep tissue massage", "Walk-in haircut"}, names, "active and listed only")
	open, err := c.ListVenueServices(ctx, api.ListVenueServicesParams{Slug: "studio", AcceptsInquiries: api.NewOptBool(true)})
	require.NoError(t, err)
	require.Len(t, open.Data, 1)
	require.Equal(t, 1, open.Meta.Total)
	m := open.Data[0]
	require.Equal(t, e.massage, m.ID)
	require.Equal(t, 60, m.DurationMinutes)
	require.Equal(t, int64(65000), m.PriceMinor)
	require.InDelta(t, 650.0, m.PriceAmount, 0.001)
	require.True(t, m.ImageURL.IsNull())

	// Each venue lists its own; an unknown venue is 404.
	other, err := c.ListVenueServices(ctx, api.ListVenueServicesParams{Slug: "other"})
	require.NoError(t, err)
	require.Len(t, other.Data, 1)
	require.Equal(t, e.otherSvc, other.Data[0].ID)
	_, err = c.ListVenueServices(ctx, api.ListVenueServicesParams{Slug: "nowhere"})
	require.Equal(t, http.StatusNotFound, errorOf(t, err).StatusCode)
}

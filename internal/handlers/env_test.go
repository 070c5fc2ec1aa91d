package handlers_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/db"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/server"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// studio is a venue with a known week of classes and pass types, served over
// httptest.
type studio struct {
	pool   *pgxpool.Pool
	client *ent.Client
	srv    *httptest.Server
	venue  *venue.Venue
	op     context.Context
	key    string
	loc    *time.Location
	today  time.Time // venue-local midnight

	brand, otherBrand             uuid.UUID
	location, room                uuid.UUID
	classType, instructor         uuid.UUID
	fullClass, onlineClass        uuid.UUID
	cancelledClass, unlisted, far uuid.UUID
}

func newStudio(t *testing.T, slug string) *studio {
	t.Helper()
	pool := pgtest.NewPool(t)
	client := db.NewClient(pool)
	ctx := context.Background()
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: "Studio " + slug, Slug: slug, APIEnabled: true})
	require.NoError(t, err)
	s := &studio{pool: pool, client: client, venue: v, op: viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "test"})}
	s.loc, err = time.LoadLocation(v.Timezone)
	require.NoError(t, err)
	now := time.Now().In(s.loc)
	s.today = time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, s.loc)
	s.seed(t)

	issued, err := apikey.Create(s.op, client, apikey.CreateParams{Name: "reads", Scopes: scope.Reads()})
	require.NoError(t, err)
	s.key = issued.Secret

	s.srv = httptest.NewServer(s.handler(t))
	t.Cleanup(s.srv.Close)
	return s
}

// handler builds a fresh server instance over the studio's database.
func (s *studio) handler(t *testing.T) http.Handler {
	h, err := server.New(server.Deps{Pool: s.pool, Client: s.client, Log: slog.New(slog.NewJSONHandler(io.Discard, nil)),
		Settings: settings(t)})
	require.NoError(t, err)
	return h
}

// settings is the configuration of the test process's environment: a test
// sets a variable with t.Setenv before it builds its servers.
func settings(t testing.TB) *config.Config {
	t.Helper()
	c, err := config.FromEnvironment()
	require.NoError(t, err)
	return &c
}

// newServer starts another server instance on the same database and returns its URL.
func newServer(t *testing.T, s *studio) string {
	srv := httptest.NewServer(s.handler(t))
	t.Cleanup(srv.Close)
	return srv.URL
}

func (s *studio) seed(t *testing.T) {
	c, op := s.client, s.op
	brand := c.Brand.Create().SetName("Hot Yoga").SetSlug("hot-yoga").SaveX(op)
	other := c.Brand.Create().SetName("Spin").SetSlug("spin").SaveX(op)
	loc := c.Location.Create().SetName("Vesterbro").SaveX(op)
	room := c.Room.Create().SetName("Studio 1").SetCapacity(20).SetLocationID(loc.ID).SaveX(op)
	ct := c.ClassType.Create().SetName("Vinyasa Flow").SetBrandID(brand.ID).SaveX(op)
	spin := c.ClassType.Create().SetName("Spin 45").SetBrandID(other.ID).SaveX(op)
	ins := c.Instructor.Create().SetFirstName("Mette").SetLastName("Hansen").SaveX(op)
	s.brand, s.otherBrand, s.location, s.room, s.classType, s.instructor = brand.ID, other.ID, loc.ID, room.ID, ct.ID, ins.ID

	at := func(day, hour int) time.Time { return s.today.AddDate(0, 0, day).Add(time.Duration(hour) * time.Hour) }
	class := func(ctID uuid.UUID, start time.Time, capacity int) *ent.ClassInstanceCreate {
		return c.ClassInstance.Create().SetClassTypeID(ctID).SetStartTime(start).SetEndTime(start.Add(time.Hour)).SetCapacity(capacity)
	}
	full := class(ct.ID, at(1, 7), 2).SetInstructorID(ins.ID).SetLocationID(loc.ID).SetRoomID(room.ID).SaveX(op)
	online := class(spin.ID, at(2, 9), 10).SetOnline(true).SaveX(op)
	cancelled := class(ct.ID, at(3, 18), 10).SetStatus(classinstance.StatusCancelled).SetLocationID(loc.ID).SaveX(op)
	unlisted := class(ct.ID, at(1, 12), 10).SetListed(false).SaveX(op)
	far := class(ct.ID, at(30, 7), 10).SetLocationID(loc.ID).SaveX(op)
	s.fullClass, s.onlineClass, s.cancelledClass, s.unlisted, s.far = full.ID, online.ID, cancelled.ID, unlisted.ID, far.ID

	var ms []uuid.UUID
	for _, email := range []string{"a@example.com", "b@example.com", "c@example.com", "d@example.com"} {
		en, err := members.Enroll(op, c, members.EnrollParams{Email: s.venue.Slug + "." + email, FirstName: "M"})
		require.NoError(t, err)
		ms = append(ms, en.Member.ID)
	}
	book := func(m, cl uuid.UUID, st booking.Status) {
		c.Booking.Create().SetMemberID(m).SetClassInstanceID(cl).SetStatus(st).SaveX(op)
	}
	book(ms[0], full.ID, booking.StatusConfirmed)
	book(ms[1], full.ID, booking.StatusCheckedIn)
	book(ms[2], full.ID, booking.StatusWaitlisted)
	book(ms[3], full.ID, booking.StatusCancelled)
	book(ms[0], online.ID, booking.StatusConfirmed)

	c.PassType.Create().SetName("10-clip card").SetSlug("ten").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(120000).SetCurrency("DKK").SetClips(10).SetValidityDays(180).SetSortOrder(1).SaveX(op)
	c.PassType.Create().SetName("Unlimited monthly").SetSlug("unlimited").SetCategory(passtype.CategoryMembership).
		SetPriceMinor(59900).SetCurrency("DKK").SetIsRecurring(true).SetBillingInterval(passtype.BillingIntervalMonth).
		SetBillingIntervalCount(1).SetSortOrder(2).AddAllowedBrandIDs(brand.ID).SaveX(op)
	c.PassType.Create().SetName("Flexible").SetSlug("flexible").SetCategory(passtype.CategoryMembership).
		SetPriceMinor(40000).SetCurrency("DKK").SetIsRecurring(true).SetBillingInterval(passtype.BillingIntervalMonth).
		SetBillingIntervalCount(1).SetPricingMode(passtype.PricingModeFlexibleQuantity).SetSortOrder(3).
		SetFlexiblePricingConfig(&model.FlexiblePricingConfig{
			SchemaVersion: 1, MinimumQuantity: 4, MaximumQuantity: 12, QuantityStep: 1,
			Tiers:        []model.PriceTier{{UpTo: 8, PricePerClass: 100}, {UpTo: 12, PricePerClass: 90}},
			Unlimited:    model.Unlimited{Enabled: true, Price: 1200},
			ChangePolicy: model.ChangePolicy{MemberChangesEnabled: true, AllowedCycleOffsets: []int{1, 2}, DefaultCycleOffset: 1},
		}).SaveX(op)
	c.PassType.Create().SetName("Spin only").SetSlug("spin-only").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(50000).SetCurrency("DKK").SetSortOrder(4).AddAllowedBrandIDs(other.ID).SaveX(op)
	c.PassType.Create().SetName("Staff comp").SetSlug("comp").SetCategory(passtype.CategoryOther).
		SetPriceMinor(0).SetCurrency("DKK").SetListed(false).SaveX(op)
	c.PassType.Create().SetName("Old card").SetSlug("old").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(100000).SetCurrency("DKK").SetActive(false).SaveX(op)
}

type keySource string

func (k keySource) ApiKeyAuth(context.Context, api.OperationName) (api.ApiKeyAuth, error) {
	return api.ApiKeyAuth{APIKey: string(k)}, nil
}

// apiClient returns a generated client sending key (none when empty).
func (s *studio) apiClient(t *testing.T, key string) *api.Client {
	c, err := api.NewClient(s.srv.URL+"/api/v1", keySource(key))
	require.NoError(t, err)
	return c
}

// keyFor issues a key with every read scope for another venue of the studio's database.
func (s *studio) keyFor(t *testing.T, slug string) string {
	t.Helper()
	v, err := venue.BySlug(context.Background(), s.client, slug)
	require.NoError(t, err)
	if !v.APIEnabled() {
		on := true
		_, err = venue.Update(context.Background(), s.client, slug, venue.UpdateParams{APIEnabled: &on})
		require.NoError(t, err)
	}
	issued, err := apikey.Create(viewer.NewContext(context.Background(), viewer.Operator{Org: v.ID}), s.client,
		apikey.CreateParams{Name: "k", Scopes: scope.Reads()})
	require.NoError(t, err)
	return issued.Secret
}

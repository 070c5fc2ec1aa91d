package mcp_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/alert"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/ratelimit"
	"github.com/venueplatform/venue/internal/schedule"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// fixture is a database with two venues of realistic data, keys, and the
// endpoint on an httptest server.
type fixture struct {
	t      testing.TB
	pool   *pgxpool.Pool
	client *ent.Client
	srv    *httptest.Server
	h      *mcp.Handler
	url    string
	loc    *time.Location
	today  time.Time // venue-local date at midnight UTC

	org, other uuid.UUID
	// keys by role: all (every read scope and write:marketing, with a
	// creator), reads, schedule (read:schedule only), legacy (write:marketing
	// without a creator), partial (read:schedule and read:bookings), limited
	// (every read scope, for rate-limit tests), other (every scope, the other
	// venue), starter (a venue on the starter plan), noflag (a venue without
	// the API flag).
	keys map[string]string

	vinyasaToday, spinToday, vinyasaTomorrow, otherClass uuid.UUID
	anna, bo, otherMember                                uuid.UUID
	membership, clipCard, otherPassType                  uuid.UUID
	ceilingDate                                          time.Time
}

// newFixture builds the fixture; limit is the per-key rate limit.
func newFixture(t testing.TB, limit int) *fixture {
	t.Helper()
	ctx := context.Background()
	pool := pgtest.NewPool(t)
	client := db.NewClient(pool)
	loc, err := time.LoadLocation("Europe/Copenhagen")
	require.NoError(t, err)
	f := &fixture{t: t, pool: pool, client: client, loc: loc, keys: map[string]string{},
		today: schedule.Today(time.Now(), loc)}

	f.org = f.newVenue(ctx, "hot-yoga-cph", "pro", true)
	f.other = f.newVenue(ctx, "other-studio", "pro", true)
	starter := f.newVenue(ctx, "starter-studio", "starter", true)
	noflag := f.newVenue(ctx, "noflag-studio", "enterprise", false)

	octx := viewer.NewContext(ctx, viewer.Operator{Org: f.org, Name: "test"})
	f.seedVenue(octx)
	allReads := scope.Reads()
	f.keys["all"] = f.issue(octx, "all", append(append([]string{}, allReads...), scope.WriteMarketing), "owner@hot-yoga.test")
	f.keys["reads"] = f.issue(octx, "reads", allReads, "")
	f.keys["schedule"] = f.issue(octx, "schedule", []string{scope.ReadSchedule}, "")
	f.keys["legacy"] = f.legacyKey(octx, []string{scope.WriteMarketing, scope.ReadSchedule})
	f.keys["partial"] = f.issue(octx, "partial", []string{scope.ReadSchedule, scope.ReadBookings}, "")
	f.keys["limited"] = f.issue(octx, "limited", allReads, "")

	xctx := viewer.NewContext(ctx, viewer.Operator{Org: f.other, Name: "test"})
	f.seedOther(xctx)
	f.keys["other"] = f.issue(xctx, "other", append(append([]string{}, allReads...), scope.WriteMarketing), "owner@other.test")
	f.keys["starter"] = f.issue(viewer.NewContext(ctx, viewer.Operator{Org: starter}), "k", allReads, "")
	f.keys["noflag"] = f.issue(viewer.NewContext(ctx, viewer.Operator{Org: noflag}), "k", allReads, "")

	h := mcp.NewHandler(client, auth.New(client), ratelimit.New(pool, limit, time.Minute), nil)
	f.h = h
	mux := http.NewServeMux()
	mux.Handle("/api/mcp", h)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		f.srv.Close()
		require.NoError(t, h.Close(context.Background()))
	})
	f.url = f.srv.URL + "/api/mcp"
	return f
}

func (f *fixture) newVenue(ctx context.Context, slug, plan string, api bool) uuid.UUID {
	v, err := venue.Create(ctx, f.client, venue.CreateParams{Name: slug, Slug: slug, Plan: plan, APIEnabled: api,
		Currency: "DKK", Timezone: "Europe/Copenhagen"})
	require.NoError(f.t, err)
	return v.ID
}

func (f *fixture) issue(ctx context.Context, name string, scopes []string, createdBy string) string {
	k, err := apikey.Create(ctx, f.client, apikey.CreateParams{Name: name, Scopes: scopes, CreatedBy: createdBy})
	require.NoError(f.t, err)
	return k.Secret
}

// legacyKey makes a key as issued before writable tools existed: a write
// scope but no creating staff identity (apikey.Create refuses that now).
func (f *fixture) legacyKey(ctx context.Context, scopes []string) string {
	prefix := "legacy0001"
	secret := "vk_" + prefix + "_" + fmt.Sprintf("%040d", 7)
	sum := sha256.Sum256([]byte(secret))
	_, err := f.client.APIKey.Create().SetName("legacy").SetPrefix(prefix).SetSecretHash(sum[:]).SetScopes(scopes).Save(ctx)
	require.NoError(f.t, err)
	return secret
}

// at is a venue-local time on the date days after today.
func (f *fixture) at(days, hour int) time.Time {
	d := f.today.AddDate(0, 0, days)
	return time.Date(d.Year(), d.Month(), d.Day(), hour, 0, 0, 0, f.loc)
}

func (f *fixture) enroll(ctx context.Context, email, first, last, role, display string) *ent.Member {
	e, err := members.Enroll(ctx, f.client, members.EnrollParams{Email: email, FirstName: first, LastName: last, Role: role, ClientDisplayID: display})
	require.NoError(f.t, err)
	return e.Member
}

func (f *fixture) seedVenue(ctx context.Context) {
	t, c := f.t, f.client
	f.enroll(ctx, "owner@hot-yoga.test", "Olivia", "Owner", "staff", "")
	anna := f.enroll(ctx, "anna.berg@example.com", "Anna", "Berg", "member", "C-1001")
	bo := f.enroll(ctx, "bo.jensen@example.com", "Bo", "Jensen", "member", "C-1002")
	f.anna, f.bo = anna.ID, bo.ID

	loc := c.Location.Create().SetName("Nørrebro").SaveX(ctx)
	room := c.Room.Create().SetLocationID(loc.ID).SetName("Studio 1").SetCapacity(20).SaveX(ctx)
	vinyasa := c.ClassType.Create().SetName("Vinyasa Flow").SaveX(ctx)
	spin := c.ClassType.Create().SetName("Spin 45").SetDurationMinutes(45).SaveX(ctx)
	mette := c.Instructor.Create().SetFirstName("Mette").SetLastName("Holm").SaveX(ctx)
	class := func(ct *ent.ClassType, in *ent.Instructor, start time.Time, capacity int) uuid.UUID {
		q := c.ClassInstance.Create().SetClassTypeID(ct.ID).SetLocationID(loc.ID).SetRoomID(room.ID).
			SetStartTime(start).SetEndTime(start.Add(time.Hour)).SetCapacity(capacity)
		if in != nil {
			q.SetInstructorID(in.ID)
		}
		return q.SaveX(ctx).ID
	}
	f.vinyasaToday = class(vinyasa, mette, f.at(0, 23), 2)
	f.spinToday = class(spin, nil, f.at(0, 7), 12)
	f.vinyasaTomorrow = class(vinyasa, mette, f.at(1, 9), 15)

	// The ceiling date holds more classes than search_schedule may return.
	f.ceilingDate = f.today.AddDate(0, 0, 10)
	var bulk []*ent.ClassInstanceCreate
	for i := range 120 {
		start := f.at(10, 6).Add(time.Duration(i) * 5 * time.Minute)
		bulk = append(bulk, c.ClassInstance.Create().SetClassTypeID(spin.ID).SetStartTime(start).
			SetEndTime(start.Add(45*time.Minute)).SetCapacity(10))
	}
	c.ClassInstance.CreateBulk(bulk...).ExecX(ctx)
	var people []members.EnrollParams
	for i := range 30 {
		people = append(people, members.EnrollParams{Email: fmt.Sprintf("zed%02d@example.com", i), FirstName: "Zed", LastName: fmt.Sprintf("Ceiling%02d", i)})
	}
	_, err := members.EnrollAll(ctx, c, people)
	require.NoError(t, err)

	f.membership = c.PassType.Create().SetName("Unlimited Monthly").SetSlug("unlimited-monthly").
		SetCategory(passtype.CategoryMembership).SetPriceMinor(59900).SetCurrency("DKK").SetIsRecurring(true).
		SetBillingInterval(passtype.BillingIntervalMonth).SaveX(ctx).ID
	f.clipCard = c.PassType.Create().SetName("10 Clip Card").SetSlug("clip-10").
		SetCategory(passtype.CategoryClipCard).SetPriceMinor(120000).SetCurrency("DKK").SetClips(10).SaveX(ctx).ID
	pass := c.Pass.Create().SetMemberID(anna.ID).SetPassTypeID(f.membership).SetValidFrom(f.today.AddDate(0, 0, -20)).SaveX(ctx)

	c.Booking.Create().SetMemberID(anna.ID).SetClassInstanceID(f.vinyasaToday).SetPassID(pass.ID).ExecX(ctx)
	c.Booking.Create().SetMemberID(bo.ID).SetClassInstanceID(f.vinyasaToday).
		SetStatus(booking.StatusWaitlisted).SetWaitlistPosition(1).ExecX(ctx)
	c.Booking.Create().SetMemberID(anna.ID).SetClassInstanceID(f.spinToday).SetStatus(booking.StatusCheckedIn).ExecX(ctx)

	paid := f.at(0, 0).Add(time.Minute)
	c.Payment.Create().SetMemberID(anna.ID).SetPassID(pass.ID).SetAmountMinor(59900).SetCurrency("DKK").
		SetStatus(payment.StatusSucceeded).SetKind(payment.KindPassPurchase).SetPaidAt(paid).ExecX(ctx)
	c.Payment.Create().SetMemberID(bo.ID).SetAmountMinor(12050).SetCurrency("EUR").
		SetStatus(payment.StatusSucceeded).SetKind(payment.KindDropIn).SetPaidAt(paid).ExecX(ctx)
	c.Payment.Create().SetMemberID(bo.ID).SetAmountMinor(5000).SetCurrency("DKK").
		SetStatus(payment.StatusFailed).SetPaidAt(paid).ExecX(ctx)

	c.Alert.Create().SetTitle("Sauna heater fault").SetSeverity(alert.SeverityWarning).SetMessage("Studio 2 heater trips").ExecX(ctx)
	c.Alert.Create().SetTitle("Old issue").SetResolved(true).ExecX(ctx)
}

func (f *fixture) seedOther(ctx context.Context) {
	c := f.client
	f.enroll(ctx, "owner@other.test", "Other", "Owner", "staff", "")
	f.otherMember = f.enroll(ctx, "anna.other@example.com", "Anna", "Otherson", "member", "X-1").ID
	ct := c.ClassType.Create().SetName("Vinyasa Flow").SaveX(ctx)
	f.otherClass = c.ClassInstance.Create().SetClassTypeID(ct.ID).SetStartTime(f.at(0, 12)).
		SetEndTime(f.at(0, 13)).SetCapacity(5).SaveX(ctx).ID
	f.otherPassType = c.PassType.Create().SetName("Other Monthly").SetSlug("other-monthly").
		SetCategory(passtype.CategoryMembership).SetPriceMinor(50000).SetCurrency("DKK").SetIsRecurring(true).SaveX(ctx).ID
	c.Payment.Create().SetAmountMinor(99900).SetCurrency("DKK").SetStatus(payment.StatusSucceeded).SetPaidAt(f.at(0, 1)).ExecX(ctx)
}

// flushAudit waits until the audit entries of the calls made so far are
// written (read-only tool calls queue theirs).
func (f *fixture) flushAudit() {
	f.t.Helper()
	require.NoError(f.t, f.h.Flush(context.Background()))
}

// operatorCtx acts in the fixture's main venue.
func (f *fixture) operatorCtx() context.Context {
	return viewer.NewContext(context.Background(), viewer.Operator{Org: f.org, Name: "test"})
}

package appointments_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// salon is a venue in Europe/Copenhagen with one service (45 minutes, 10
// minutes' buffer after), a provider assigned to it and helpers.
type salon struct {
	pool     *pgxpool.Pool
	client   *ent.Client
	op       context.Context
	org      uuid.UUID
	loc      *time.Location
	service  *ent.Service
	provider *ent.Instructor
}

func newSalon(t testing.TB, slug string) *salon {
	t.Helper()
	pool := pgtest.NewPool(t)
	client := db.NewClient(pool)
	v, err := venue.Create(context.Background(), client, venue.CreateParams{Name: "Salon " + slug, Slug: slug, Timezone: "Europe/Copenhagen"})
	require.NoError(t, err)
	s := &salon{pool: pool, client: client, org: v.ID, op: viewer.NewContext(context.Background(), viewer.Operator{Org: v.ID, Name: "test"})}
	s.loc, err = time.LoadLocation("Europe/Copenhagen")
	require.NoError(t, err)
	s.service = client.Service.Create().SetName("Massage").SetSlug("massage").SetDurationMinutes(45).
		SetPriceMinor(0).SetCurrency("DKK").SetBufferAfterMinutes(10).SaveX(s.op)
	s.provider = s.newProvider(t, "Mette")
	return s
}

// newProvider adds a provider assigned to the salon's service.
func (s *salon) newProvider(t testing.TB, name string) *ent.Instructor {
	p := s.client.Instructor.Create().SetFirstName(name).SaveX(s.op)
	s.client.ServiceProvider.Create().SetServiceID(s.service.ID).SetProviderID(p.ID).SaveX(s.op)
	return p
}

// hours gives provider p working hours on weekday wd from h1 to h2 (local hours).
func (s *salon) hours(p *ent.Instructor, wd time.Weekday, h1, h2 int) {
	s.client.ProviderHours.Create().SetProviderID(p.ID).SetWeekday(int(wd)).
		SetStartMinute(h1 * 60).SetEndMinute(h2 * 60).SaveX(s.op)
}

// allWeek gives p hours from h1 to h2 every day.
func (s *salon) allWeek(p *ent.Instructor, h1, h2 int) {
	for wd := time.Sunday; wd <= time.Saturday; wd++ {
		s.hours(p, wd, h1, h2)
	}
}

// member enrols a member of the salon.
func (s *salon) member(t testing.TB, email string) *ent.Member {
	en, err := members.Enroll(s.op, s.client, members.EnrollParams{Email: email, FirstName: "M"})
	require.NoError(t, err)
	return en.Member
}

// at is local day (y, m, d) at hh:mm in the salon's zone.
func (s *salon) at(y int, m time.Month, d, hh, mm int) time.Time {
	return time.Date(y, m, d, hh, mm, 0, 0, s.loc)
}

func (s *salon) venue(t testing.TB) *appointments.Venue {
	v, err := appointments.LoadVenue(s.op, s.client)
	require.NoError(t, err)
	return v
}

func (s *salon) slots(t testing.TB, q appointments.Query) []appointments.Slot {
	t.Helper()
	q.ServiceID = s.service.ID
	av, err := appointments.Compute(s.op, s.client, s.venue(t), q)
	require.NoError(t, err)
	return av.Slots
}

func (s *salon) staffActor(m *ent.Member) appointments.Actor {
	return appointments.Actor{Member: m, Via: entappointment.BookedViaStaff}
}

var errAbort = errors.New("abort")

// tryBook books r in a transaction that is rolled back, and returns Book's error.
func (s *salon) tryBook(t testing.TB, a appointments.Actor, r appointments.Request, now time.Time) error {
	var bookErr error
	err := events.WithTx(s.op, s.client, func(ctx context.Context, tx *ent.Tx) error {
		_, bookErr = appointments.Book(ctx, tx.Client(), a, r, now)
		return errAbort
	})
	require.ErrorIs(t, err, errAbort)
	return bookErr
}

func requireCode(t testing.TB, err error, status int, code string) {
	t.Helper()
	var ae *apperr.Error
	require.ErrorAs(t, err, &ae)
	require.Equal(t, status, ae.Status, ae.Message)
	require.Equal(t, code, ae.Code)
}

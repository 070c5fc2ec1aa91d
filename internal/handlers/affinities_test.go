package handlers_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/user"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/venue"
)

// TestVenueAffinities ranks the user's venues by favourite, pass, booking and
// appointment signals, and shows nothing of another user's.
func TestVenueAffinities(t *testing.T) {
	s := newStudio(t, "studio")
	e := newAuthEnv(t, s)
	ctx := context.Background()
	s.addVenue(t, "fav-only", "Favourite Only", "Aarhus", 56.1, 10.2, "classes")
	s.addVenue(t, "unrelated", "Unrelated", "Odense", 55.4, 10.4, "classes")
	ana := e.client(t, e.signup(t, "ana@example.com", goodPassword).AccessToken)
	bo := e.client(t, e.signup(t, "bo@example.com", goodPassword).AccessToken)

	res, err := ana.GetVenueAffinities(ctx)
	require.NoError(t, err)
	require.Empty(t, res.Data)

	// Ana joins the studio, buys a pass and books; she favourites another venue.
	_, err = ana.JoinVenue(ctx, &api.JoinRequest{Consent: true}, api.JoinVenueParams{Slug: "studio", IdempotencyKey: "j1"})
	require.NoError(t, err)
	m := s.client.Member.Query().Where(member.HasUserWith(user.Email("ana@example.com"))).OnlyX(s.op)
	pt := s.client.PassType.Query().Where(passtype.Slug("ten")).OnlyX(s.op)
	s.client.Pass.Create().SetMemberID(m.ID).SetPassTypeID(pt.ID).SetValidFrom(s.today).ExecX(s.op)
	s.client.Booking.Create().SetMemberID(m.ID).SetClassInstanceID(s.onlineClass).ExecX(s.op)
	favID := s.keyVenueID(t, "fav-only")
	_, err = ana.AddFavoriteVenue(ctx, api.AddFavoriteVenueParams{OrganizationId: favID})
	require.NoError(t, err)

	res, err = ana.GetVenueAffinities(ctx)
	require.NoError(t, err)
	require.Len(t, res.Data, 2)
	require.Equal(t, 2, res.Meta.Total)
	require.Equal(t, "fav-only", res.Data[0].Slug)
	require.Equal(t, 100, res.Data[0].Score)
	require.True(t, res.Data[0].Favorite)
	require.False(t, res.Data[0].Member)
	studio := res.Data[1]
	require.Equal(t, "studio", studio.Slug)
	require.Equal(t, 1, studio.ActivePasses)
	require.Equal(t, 1, studio.RecentBookings)
	require.Equal(t, 11, studio.Score)
	require.True(t, studio.Member)
	require.Equal(t, 0, studio.RecentAppointments)

	// An appointment booked at the studio counts like a class booking.
	svc := s.client.Service.Create().SetName("Massage").SetSlug("massage").SetDurationMinutes(60).
		SetPriceMinor(45000).SetCurrency("DKK").SaveX(s.op)
	prov := s.client.Instructor.Create().SetFirstName("Signe").SaveX(s.op)
	start := s.today.AddDate(0, 0, 2).Add(10 * time.Hour)
	s.client.Appointment.Create().SetMemberID(m.ID).SetProviderID(prov.ID).SetServiceID(svc.ID).
		SetStartsAt(start).SetEndsAt(start.Add(time.Hour)).SetBusyFrom(start).SetBusyUntil(start.Add(time.Hour)).
		SetPriceMinor(45000).SetCurrency("DKK").SetPayment("venue").SetBookedVia("member").ExecX(s.op)
	res, err = ana.GetVenueAffinities(ctx)
	require.NoError(t, err)
	require.Equal(t, "studio", res.Data[1].Slug)
	require.Equal(t, 1, res.Data[1].RecentAppointments)
	require.Equal(t, 12, res.Data[1].Score)

	// Bo sees none of Ana's signals.
	res, err = bo.GetVenueAffinities(ctx)
	require.NoError(t, err)
	require.Empty(t, res.Data)
}

// keyVenueID returns the id of a venue of the studio's database.
func (s *studio) keyVenueID(t *testing.T, slug string) uuid.UUID {
	t.Helper()
	v, err := venue.BySlug(context.Background(), s.client, slug)
	require.NoError(t, err)
	return v.ID
}

package handlers_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/internal/members"
)

// TestCataloguePrivacy: no public page, the directory and discovery
// included, shows a member's name, email, phone or id, a booking, a pass or
// a payment.
func TestCataloguePrivacy(t *testing.T) {
	s := newStudio(t, "studio")
	cat := s.seedCatalogue(t)
	c, op := s.client, s.op
	en, err := members.Enroll(op, c, members.EnrollParams{Email: "zelda.quixote@private.example", FirstName: "Zelda",
		LastName: "Quixote", Phone: "+4599887766"})
	require.NoError(t, err)
	m := en.Member
	b := c.Booking.Create().SetMemberID(m.ID).SetClassInstanceID(s.onlineClass).SetStatus(booking.StatusConfirmed).SaveX(op)
	pay := c.Payment.Create().SetMemberID(m.ID).SetAmountMinor(987654).SetCurrency("DKK").
		SetStatus(payment.StatusSucceeded).SetPaidAt(time.Now()).SaveX(op)

	day := s.today.AddDate(0, 0, 2).Format(time.DateOnly)
	secrets := []string{"Zelda", "Quixote", "zelda.quixote", "private.example", "99887766", "987654", "9876.54",
		m.ID.String(), b.ID.String(), pay.ID.String(), en.Member.UserID.String()}
	for _, path := range []string{
		"/discovery?world=classes&date=" + day, "/discovery/counts?date=" + day, "/venues", "/venues?search=studio",
		"/venues/studio", "/venues/studio/schedule", "/venues/studio/pricing", "/venues/studio/classes",
		"/venues/studio/instructors", "/venues/studio/locations", "/venues/studio/brands", "/venues/studio/brands/hot-yoga",
		"/venues/studio/addons", "/venues/studio/offers?surface=pricing_page", "/venues/studio/offers/" + cat.liveSale.String(),
		"/venues/studio/gift-cards/GIFT-100/balance", "/venues/studio/gift-cards/GIFT-100/preview",
	} {
		body := rawBody(t, s.srv.URL+"/api/v1"+path)
		for _, secret := range secrets {
			require.NotContains(t, body, secret, path)
		}
	}
}

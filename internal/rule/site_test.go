package rule_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/privacy"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/system"
)

// TestSiteTouchesOnlyItsEntities proves that a bypass site opens the entity
// types it lists and no others: without a viewer every other type is denied,
// eager loads and edge traversals included; with a venue viewer the other
// types stay behind that viewer's ordinary rules.
func TestSiteTouchesOnlyItsEntities(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	a := newWorld(t, client, "venue-a")
	b := newWorld(t, client, "venue-b")
	denied := func(t *testing.T, err error) {
		t.Helper()
		require.ErrorIs(t, err, privacy.Deny)
	}

	// "venue.list" lists Organization and FeatureProvisioning.
	list := system.Allow(context.Background(), "venue.list")
	n, err := client.Organization.Query().Count(list)
	require.NoError(t, err)
	require.Equal(t, 2, n, "the site reads every venue")
	_, err = client.User.Get(list, a.ids["User"])
	denied(t, err)
	_, err = client.Booking.Get(list, b.ids["Booking"])
	denied(t, err)
	err = client.User.UpdateOneID(a.ids["User"]).SetFirstName("X").Exec(list)
	denied(t, err)

	// Eager loading and traversal from a listed type to an unlisted one:
	// "bookings.own" lists Booking, ClassInstance, Member and Organization,
	// not Pass.
	own := system.Allow(context.Background(), "bookings.own")
	_, err = client.Booking.Query().Where(booking.ID(a.ids["Booking"])).WithClassInstance().Only(own)
	require.NoError(t, err)
	_, err = client.Booking.Query().Where(booking.ID(a.ids["Booking"])).WithPass().Only(own)
	denied(t, err)
	_, err = client.Booking.Query().Where(booking.ID(a.ids["Booking"])).QueryPass().Only(own)
	denied(t, err)
	// The other way round: the unlisted parent of a traversal is not read.
	_, err = client.Pass.Query().QueryBookings().All(own)
	denied(t, err)

	// An unregistered name, or a site of another kind, opens nothing.
	for _, name := range []string{"no.such.site", "booking.member_lock", "booking.as_member"} {
		_, err = client.Organization.Get(system.Allow(context.Background(), name), a.org)
		denied(t, err)
	}

	// Under a site, a venue viewer keeps its own rules for the other types:
	// its own venue's rows, never another venue's.
	op := system.Allow(a.ctx, "venue.list")
	_, err = client.Booking.Get(op, a.ids["Booking"])
	require.NoError(t, err)
	_, err = client.Booking.Get(op, b.ids["Booking"])
	require.True(t, ent.IsNotFound(err), "another venue's booking: %v", err)

	// A create for an explicit venue needs a site listing the type.
	_, err = client.Alert.Create().SetOrganizationID(b.org).SetTitle("x").
		Save(system.Allow(context.Background(), "venue.create"))
	denied(t, err)
}

package rule_test

import (
	"context"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/rule"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// memberRows makes a second member of w's venue with a row of every
// member-owned type, by type, next to the world's own member's rows.
func memberRows(t *testing.T, client *ent.Client, w *world, email string) (uuid.UUID, uuid.UUID, map[string]uuid.UUID) {
	t.Helper()
	en, err := members.Enroll(w.ctx, client, members.EnrollParams{Email: email, FirstName: "Bo"})
	require.NoError(t, err)
	pass := client.Pass.Create().SetMemberID(en.Member.ID).SetPassTypeID(w.ids["PassType"]).SetValidFrom(t0).SaveX(w.ctx)
	pay := client.Payment.Create().SetMemberID(en.Member.ID).SetPassID(pass.ID).SetAmountMinor(120000).SetCurrency("DKK").SaveX(w.ctx)
	delivery := newDelivery(client, w).SetMemberID(en.Member.ID).SaveX(w.ctx)
	bk := client.Booking.Create().SetMemberID(en.Member.ID).SetClassInstanceID(w.ids["ClassInstance"]).SetPassID(pass.ID).SaveX(w.ctx)
	co := newCheckout(client, en.Member.ID, w.ids["PassType"]).SaveX(w.ctx)
	pc := newCustomer(client, en.Member.ID).SaveX(w.ctx)
	tp := newTip(client, en.Member.ID).SaveX(w.ctx)
	owner := &world{ids: map[string]uuid.UUID{"Member": en.Member.ID, "Instructor": w.ids["Instructor"],
		"AppointmentService": w.ids["AppointmentService"]}}
	ap := newAppointment(client, owner).SaveX(w.ctx)
	visit := newVisit(client, owner).SaveX(w.ctx)
	rows := feedbackMemberRows(client, w, en.Member.ID, refundMemberRows(client, w, en.Member.ID, artifactMemberRows(client, w, en.Member.ID, guestMemberRows(client, w, en.Member.ID, giftCardMemberRows(client, w, en.Member.ID, map[string]uuid.UUID{"Pass": pass.ID, "Payment": pay.ID, "NotificationDelivery": delivery.ID, "Booking": bk.ID,
		"Checkout": co.ID, "PaymentCustomer": pc.ID, "Tip": tp.ID, "Appointment": ap.ID, "Visit": visit.ID})))))
	return en.Member.ID, en.User.ID, loyaltyPriceMemberRows(client, w, en.Member.ID, rateLockMemberRows(client, w, en.Member.ID, pass.ID, passShareMemberRows(client, w, en.Member.ID, pass.ID, promoMemberRows(client, w, en.Member.ID, lateFeeMemberRows(client, w, en.Member.ID, deskChargeMemberRows(client, w, en.Member.ID, billingMemberRows(client, w, en.Member.ID, pass.ID, rows)))))))
}

// TestMemberWall runs the member-against-member column of the wall: in one
// venue, member A (a user acting as its member, as booking.AsMember makes
// it) reads, updates and deletes its own rows of every member-owned type,
// and member B's never (not found, B's row unchanged); it cannot create a
// row for B, nor book on B's pass. Staff (the venue's operator) still reach
// both.
func TestMemberWall(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	w := newWorld(t, client, "venue-a")
	aMember, aUser, aRows := memberRows(t, client, w, "a@example.com")
	bMember, _, bRows := memberRows(t, client, w, "b@example.com")
	asA := viewer.NewContext(context.Background(), viewer.User{UserID: aUser, Org: w.org, MemberID: aMember})

	for _, typ := range rule.MemberOwnedTypes {
		tc := cases[typ]
		t.Run(typ, func(t *testing.T) {
			own, other := aRows[typ], bRows[typ]
			require.NotEqual(t, uuid.Nil, other, "memberRows makes no %s", typ)

			require.NoError(t, tc.get(asA, client, own))
			require.True(t, ent.IsNotFound(tc.get(asA, client, other)), "read of B's row")
			n, err := client.CountVisible(asA, typ, []uuid.UUID{own, other})
			require.NoError(t, err)
			require.Equal(t, 1, n, "a listing by A sees only A's row")

			require.True(t, ent.IsNotFound(tc.update(asA, client, other)), "update of B's row")
			require.NoError(t, tc.update(asA, client, own))
			require.True(t, ent.IsNotFound(tc.delete(asA, client, other)), "delete of B's row")
			require.NoError(t, tc.get(w.ctx, client, other), "B's row is still there for staff")
			require.NoError(t, tc.delete(asA, client, own))
		})
	}

	// Creates: A may make its own pass and booking, not one for B.
	_, err := client.Pass.Create().SetMemberID(bMember).SetPassTypeID(w.ids["PassType"]).SetValidFrom(t0).Save(asA)
	require.True(t, ent.IsNotFound(err), "create of B's pass: %v", err)
	aPass, err := client.Pass.Create().SetMemberID(aMember).SetPassTypeID(w.ids["PassType"]).SetValidFrom(t0).Save(asA)
	require.NoError(t, err)
	_, err = client.Booking.Create().SetMemberID(bMember).SetClassInstanceID(w.ids["ClassInstance"]).Save(asA)
	require.True(t, ent.IsNotFound(err), "create of B's booking: %v", err)
	_, err = client.Booking.Create().SetMemberID(aMember).SetClassInstanceID(w.ids["ClassInstance"]).SetPassID(bRows["Pass"]).Save(asA)
	require.True(t, ent.IsNotFound(err), "A's booking on B's pass: %v", err)
	_, err = client.Booking.Create().SetMemberID(aMember).SetClassInstanceID(w.ids["ClassInstance"]).SetPassID(aPass.ID).Save(asA)
	require.NoError(t, err)
}

// TestMembersSiteLiftsOnlyTheMemberWall holds a members site (system.CrossMembers)
// to what it says: member A reaches member B's booking of its own venue, and
// still neither a booking of another venue (the venue rules stay in force)
// nor B's pass (the site lists Booking only); an unregistered site name, or
// a bypass site's name, lifts nothing; and creates for B stay refused.
func TestMembersSiteLiftsOnlyTheMemberWall(t *testing.T) {
	client := db.NewClient(pgtest.NewPool(t))
	a := newWorld(t, client, "venue-a")
	b := newWorld(t, client, "venue-b")
	aMember, aUser, aRows := memberRows(t, client, a, "a@example.com")
	bMember, _, bRows := memberRows(t, client, a, "b@example.com")
	_, _, elsewhere := memberRows(t, client, b, "c@example.com")
	asA := viewer.NewContext(context.Background(), viewer.User{UserID: aUser, Org: a.org, MemberID: aMember})
	bookings := []uuid.UUID{aRows["Booking"], bRows["Booking"], elsewhere["Booking"]}

	count := func(ctx context.Context, typ string, ids []uuid.UUID) int {
		n, err := client.CountVisible(ctx, typ, ids)
		require.NoError(t, err)
		return n
	}
	require.Equal(t, 1, count(asA, "Booking", bookings), "without a site A sees its own booking only")

	crossing := system.CrossMembers(asA, "booking.waitlist_rank")
	require.Equal(t, 2, count(crossing, "Booking", bookings), "the site shows B's booking of the venue, never another venue's")
	require.Equal(t, 1, count(crossing, "Pass", []uuid.UUID{aRows["Pass"], bRows["Pass"]}), "the site lists Booking only")
	_, err := client.Booking.Create().SetMemberID(bMember).SetClassInstanceID(a.ids["ClassInstance"]).Save(crossing)
	require.True(t, ent.IsNotFound(err), "a members site lifts no create rule: %v", err)

	require.Equal(t, 1, count(system.CrossMembers(asA, "booking.no_such_site"), "Booking", bookings), "an unregistered site")
	require.Equal(t, 1, count(system.CrossMembers(asA, "booking.waitlist_promotion"), "Booking", bookings), "a bypass site's name")
}

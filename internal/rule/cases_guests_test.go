package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/guestinvite"
)

// Guest invitations: a host's places at a class (referencing the host
// member and the class).
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		return map[string]uuid.UUID{"GuestInvite": newGuestInvite(c, w.ids["Member"], w.ids["ClassInstance"]).SaveX(ctx).ID}
	})
	cases["GuestInvite"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.GuestInvite.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.GuestInvite.UpdateOneID(id).SetPaymentIntentID("pi_" + uuid.NewString()).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.GuestInvite.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newGuestInvite(c, refs.ids["Member"], refs.ids["ClassInstance"]), org).Save(ctx))
		},
	}
}

// guestMemberRows are a member's rows of the guest invitation types that
// belong to one member (memberRows adds them).
func guestMemberRows(client *ent.Client, w *world, member uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	rows["GuestInvite"] = newGuestInvite(client, member, w.ids["ClassInstance"]).SaveX(w.ctx).ID
	return rows
}

func newGuestInvite(c *ent.Client, member, class uuid.UUID) *ent.GuestInviteCreate {
	return c.GuestInvite.Create().SetMemberID(member).SetClassInstanceID(class).SetTokenHash(uuid.NewString()).
		SetPayer(guestinvite.PayerGuest).SetPriceMinor(10000).SetCurrency("DKK").SetReturnBaseURL("https://a.example").
		SetRequestKey("rk_" + uuid.NewString()).SetSpot(1).SetHoldExpiresAt(time.Now().Add(time.Hour))
}

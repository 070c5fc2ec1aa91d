package rule_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passshare"
)

// Pass shares: a member's pass shared with another member (the row is the
// recipient's; it references nothing by edge: billing.AddPassShare finds the
// pass in the viewer's venue under its lock before it writes).
func init() {
	noReferences = append(noReferences, "PassShare")
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		return map[string]uuid.UUID{"PassShare": newPassShare(c, w.ids["Member"], w.ids["Pass"]).SaveX(ctx).ID}
	})
	cases["PassShare"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.PassShare.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PassShare.UpdateOneID(id).SetMonthlyCap(3).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PassShare.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newPassShare(c, refs.ids["Member"], refs.ids["Pass"]), org).Save(ctx))
		},
	}
}

// passShareMemberRows adds a share of pass with member (memberRows).
func passShareMemberRows(client *ent.Client, w *world, member, pass uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	rows["PassShare"] = newPassShare(client, member, pass).SaveX(w.ctx).ID
	return rows
}

func newPassShare(c *ent.Client, member, pass uuid.UUID) *ent.PassShareCreate {
	return c.PassShare.Create().SetPassID(pass).SetOwnerMemberID(uuid.New()).SetMemberID(member).
		SetStatus(passshare.StatusActive)
}

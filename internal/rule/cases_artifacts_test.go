package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/artifactsignature"
	"github.com/venueplatform/venue/ent/checkoutdocument"
)

// Checkout artifacts: the venue's documents and a member's signatures.
func init() {
	noReferences = append(noReferences, "CheckoutDocument")
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		d := newCheckoutDocument(c).SaveX(ctx)
		return map[string]uuid.UUID{"CheckoutDocument": d.ID, "ArtifactSignature": newSignature(c, w.ids["Member"], d.ID).SaveX(ctx).ID}
	})
	cases["CheckoutDocument"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.CheckoutDocument.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.CheckoutDocument.UpdateOneID(id).SetVersionID(uuid.New()).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.CheckoutDocument.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newCheckoutDocument(c), org).Save(ctx))
		},
	}
	cases["ArtifactSignature"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.ArtifactSignature.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ArtifactSignature.UpdateOneID(id).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ArtifactSignature.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newSignature(c, refs.ids["Member"], refs.ids["CheckoutDocument"]), org).Save(ctx))
		},
	}
}

// artifactMemberRows are a member's rows of the artifact types that belong
// to one member (memberRows adds them).
func artifactMemberRows(client *ent.Client, w *world, member uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	rows["ArtifactSignature"] = newSignature(client, member, w.ids["CheckoutDocument"]).SaveX(w.ctx).ID
	return rows
}

func newCheckoutDocument(c *ent.Client) *ent.CheckoutDocumentCreate {
	return c.CheckoutDocument.Create().SetKind(checkoutdocument.KindWaiver).SetTitle("Waiver").SetVersionID(uuid.New())
}

func newSignature(c *ent.Client, member, doc uuid.UUID) *ent.ArtifactSignatureCreate {
	return c.ArtifactSignature.Create().SetMemberID(member).SetDocumentID(doc).SetVersionID(uuid.New()).
		SetKind(artifactsignature.KindWaiver).SetSignatureData("x").SetSignedAt(time.Now())
}

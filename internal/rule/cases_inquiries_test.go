package rule_test

import (
	"context"
	"testing"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// Services and booking inquiries: an inquiry references a service, so the
// wall must refuse another venue's service there (filing, and attaching by
// edge from the service side). A new service references nothing (inquiries
// point at it), so its creates are tested without references.
func init() {
	noReferences = append(noReferences, "Service")
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		svc := newService(c).SaveX(ctx)
		inq := c.Inquiry.Create().SetUserID(w.ids["User"]).SetServiceID(svc.ID).SetServiceName(svc.Name).
			SetRequestID(uuid.NewString()).SaveX(ctx)
		return map[string]uuid.UUID{"Service": svc.ID, "Inquiry": inq.ID}
	})
	cases["Service"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Service.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Service.UpdateOneID(id).SetAcceptsInquiries(false).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Service.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newService(c), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Service.UpdateOneID(id).AddInquiryIDs(refs.ids["Inquiry"]).Exec(ctx)
		},
	}
	cases["Inquiry"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Inquiry.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Inquiry.UpdateOneID(id).SetStatus("contacted").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Inquiry.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Inquiry.Create().SetUserID(refs.ids["User"]).SetServiceID(refs.ids["Service"]).
				SetServiceName("Massage").SetRequestID(uuid.NewString()), org).Save(ctx))
		},
	}
}

func newService(c *ent.Client) *ent.ServiceCreate {
	return c.Service.Create().SetName("Massage").SetSlug("massage-" + uuid.NewString()[:8]).
		SetDurationMinutes(60).SetPriceMinor(65000).SetCurrency("DKK").SetAcceptsInquiries(true)
}

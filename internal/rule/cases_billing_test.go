package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/model"
)

// Renewals: a member's subscription and invoices (referencing the member
// and its pass) and the venue's invoice counter.
func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		sub := newSubscription(c, w.ids["Member"], w.ids["Pass"], w.ids["PassType"]).SaveX(ctx)
		inv := newInvoice(c, w.ids["Member"]).SaveX(ctx)
		ctr := c.InvoiceCounter.Create().SetYear(2026).SaveX(ctx)
		return map[string]uuid.UUID{"Subscription": sub.ID, "Invoice": inv.ID, "InvoiceCounter": ctr.ID}
	})
	noReferences = append(noReferences, "InvoiceCounter")
	cases["Subscription"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.Subscription.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Subscription.UpdateOneID(id).SetProcessorStatus("active").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Subscription.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newSubscription(c, refs.ids["Member"], uuid.New(), refs.ids["PassType"]), org).Save(ctx))
		},
	}
	cases["Invoice"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.Invoice.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Invoice.UpdateOneID(id).SetAttemptCount(1).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Invoice.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newInvoice(c, refs.ids["Member"]), org).Save(ctx))
		},
	}
	cases["InvoiceCounter"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.InvoiceCounter.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.InvoiceCounter.UpdateOneID(id).SetNext(2).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.InvoiceCounter.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.InvoiceCounter.Create().SetYear(1900+int(time.Now().UnixNano()%100000)), org).Save(ctx))
		},
	}
}

// billingMemberRows are a member's rows of the renewal types (memberRows
// adds them).
func billingMemberRows(client *ent.Client, w *world, member, pass uuid.UUID, rows map[string]uuid.UUID) map[string]uuid.UUID {
	rows["Subscription"] = newSubscription(client, member, pass, w.ids["PassType"]).SaveX(w.ctx).ID
	rows["Invoice"] = newInvoice(client, member).SaveX(w.ctx).ID
	return rows
}

func newSubscription(c *ent.Client, member, pass, passType uuid.UUID) *ent.SubscriptionCreate {
	return c.Subscription.Create().SetMemberID(member).SetPassID(pass).SetPassTypeID(passType).
		SetCustomerID("cus_" + uuid.NewString()).SetAmountMinor(49900).SetCurrency("DKK").SetVatRateBp(2500).
		SetInterval(subscription.IntervalMonth).SetIntervalCount(1)
}

func newInvoice(c *ent.Client, member uuid.UUID) *ent.InvoiceCreate {
	seq := int(time.Now().UnixNano()%1000000) + 1
	return c.Invoice.Create().SetMemberID(member).SetYear(2026).SetSequence(seq).SetNumber("2026-" + uuid.NewString()[:6]).
		SetLines([]model.InvoiceLine{{Description: "Monthly", Quantity: 1, AmountMinor: 49900, VatMinor: 9980, VatRateBp: 2500}}).
		SetSubtotalMinor(49900).SetVatMinor(9980).SetTotalMinor(49900).SetCurrency("DKK").
		SetIssuedAt(time.Now()).SetDueDate(time.Now())
}

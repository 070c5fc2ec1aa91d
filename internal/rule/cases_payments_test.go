package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/paymentattempt"
)

// Payments: a venue's Stripe settings (one row per venue), checkouts (a
// member's, referencing the member and a pass type) and attempt rows.
func init() {
	noReferences = append(noReferences, "VenuePayments", "PaymentAttempt")
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		vp := c.VenuePayments.Create().SetAccountID("acct_" + uuid.NewString()[:8]).SaveX(ctx)
		co := newCheckout(c, w.ids["Member"], w.ids["PassType"]).SaveX(ctx)
		at := newAttempt(c, co.ID).SaveX(ctx)
		return map[string]uuid.UUID{"VenuePayments": vp.ID, "Checkout": co.ID, "PaymentAttempt": at.ID}
	})
	cases["VenuePayments"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.VenuePayments.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.VenuePayments.UpdateOneID(id).SetChargesEnabled(true).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.VenuePayments.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			// One row per venue: make room for the new one first.
			if _, err := c.VenuePayments.Delete().Exec(ctx); err != nil {
				return uuid.Nil, err
			}
			return saved(inVenue(c.VenuePayments.Create(), org).Save(ctx))
		},
	}
	cases["Checkout"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Checkout.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Checkout.UpdateOneID(id).SetPaymentIntentID("pi_" + uuid.NewString()).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Checkout.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newCheckout(c, refs.ids["Member"], refs.ids["PassType"]), org).Save(ctx))
		},
	}
	cases["PaymentAttempt"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.PaymentAttempt.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PaymentAttempt.UpdateOneID(id).SetState(paymentattempt.StateFailed).ClearLiveSubjectID().Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PaymentAttempt.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newAttempt(c, uuid.New()), org).Save(ctx))
		},
	}
}

func newCheckout(c *ent.Client, member, passType uuid.UUID) *ent.CheckoutCreate {
	return c.Checkout.Create().SetMemberID(member).SetPassTypeID(passType).SetAmountMinor(120000).
		SetCurrency("DKK").SetVatMinor(24000).SetVatRateBp(2500).SetQuoteFingerprint("qf1_" + uuid.NewString()).
		SetQuoteIssuedAt(time.Now())
}

func newAttempt(c *ent.Client, subject uuid.UUID) *ent.PaymentAttemptCreate {
	return c.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeCheckoutCharge).SetSubjectID(subject).
		SetNumber(1).SetState(paymentattempt.StateInFlight).SetLiveSubjectID(subject)
}

func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		pc := newCustomer(c, w.ids["Member"]).SaveX(ctx)
		return map[string]uuid.UUID{"PaymentCustomer": pc.ID}
	})
	cases["PaymentCustomer"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.PaymentCustomer.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PaymentCustomer.UpdateOneID(id).SetDefaultPaymentMethodID("pm_x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PaymentCustomer.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newCustomer(c, refs.ids["Member"]), org).Save(ctx))
		},
	}
}

func newCustomer(c *ent.Client, member uuid.UUID) *ent.PaymentCustomerCreate {
	return c.PaymentCustomer.Create().SetMemberID(member).SetAccountID("acct_" + uuid.NewString()[:8]).
		SetCustomerID("cus_" + uuid.NewString())
}

func init() {
	worldExtras = append(worldExtras, func(t *testing.T, ctx context.Context, c *ent.Client, w *world) map[string]uuid.UUID {
		t.Helper()
		tp := newTip(c, w.ids["Member"]).SaveX(ctx)
		return map[string]uuid.UUID{"Tip": tp.ID}
	})
	cases["Tip"] = venueCase{
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Tip.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Tip.UpdateOneID(id).SetPaymentIntentID("pi_" + uuid.NewString()).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Tip.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(newTip(c, refs.ids["Member"]), org).Save(ctx))
		},
	}
}

func newTip(c *ent.Client, member uuid.UUID) *ent.TipCreate {
	return c.Tip.Create().SetMemberID(member).SetSourceType("class").SetSourceID(uuid.New()).
		SetAmountMinor(2500).SetCurrency("DKK")
}

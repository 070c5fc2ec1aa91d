package handlers_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/venueplatform/venue/ent/passtype"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
)

// BenchmarkFlexibleCheckoutPreview measures GET /me/checkout/flexible/preview
// against the fixed GET /me/checkout/preview by the same member in the same
// run (the baseline: the same pricing reads, without the tiers and the
// obligation digest), reported as medians and their ratio.
func BenchmarkFlexibleCheckoutPreview(b *testing.B) {
	pb := newPayBench(b, b.N/20+1)
	op := opOf(pb.org.ID)
	pb.client.PassType.Create().SetName("Flex").SetSlug("flex").SetCategory(passtype.CategoryMembership).
		SetPriceMinor(1).SetCurrency("DKK").SetIsRecurring(true).SetBillingInterval(passtype.BillingIntervalMonth).
		SetBillingIntervalCount(1).SetPricingMode(passtype.PricingModeFlexibleQuantity).
		SetFlexiblePricingConfig(&model.FlexiblePricingConfig{SchemaVersion: 1, MinimumQuantity: 4, MaximumQuantity: 12,
			QuantityStep: 1, Tiers: []model.PriceTier{{UpTo: 8, PricePerClass: 100}, {UpTo: 12, PricePerClass: 90}}}).SaveX(op)
	ctx := context.Background()
	base, flex := make([]time.Duration, 0, b.N), make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		m := pb.members[i/20] // two calls each: under the per-principal limit
		t0 := time.Now()
		_, err := m.GetCheckoutPreview(ctx, api.GetCheckoutPreviewParams{XOrganizationID: pb.org.ID, PassTypeSlug: "ten"})
		base = append(base, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
		t0 = time.Now()
		_, err = m.PreviewFlexibleCheckout(ctx, api.PreviewFlexibleCheckoutParams{XOrganizationID: pb.org.ID, PassTypeSlug: "flex",
			Kind: api.PreviewFlexibleCheckoutKindQuantity, Quantity: api.NewOptInt(9)})
		flex = append(flex, time.Since(t0))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	slices.Sort(base)
	slices.Sort(flex)
	fm, bm := flex[len(flex)/2], base[len(base)/2]
	b.ReportMetric(float64(fm.Microseconds())/1000, "flex-preview-p50-ms")
	b.ReportMetric(float64(bm.Microseconds())/1000, "fixed-preview-p50-ms")
	b.ReportMetric(float64(fm)/float64(bm), "flex/fixed")
}

package handlers

import (
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/model"
)

// nillable is a generated nullable value.
type nillable[T any] interface {
	SetTo(T)
	SetToNull()
}

// setNil sets dst to conv(*v), or null when v is nil.
func setNil[V, T any](dst nillable[T], v *V, conv func(V) T) {
	if v == nil {
		dst.SetToNull()
		return
	}
	dst.SetTo(conv(*v))
}

// setNilInt sets dst to *v, or null when v is nil.
func setNilInt(dst *api.NilInt, v *int) {
	setNil(dst, v, func(i int) int { return i })
}

func flexibleConfig(c *model.FlexiblePricingConfig) api.FlexiblePricingConfig {
	out := api.FlexiblePricingConfig{
		SchemaVersion:   c.SchemaVersion,
		MinimumQuantity: c.MinimumQuantity,
		MaximumQuantity: c.MaximumQuantity,
		QuantityStep:    c.QuantityStep,
		Tiers:           make([]api.FlexiblePricingConfigTiersItem, len(c.Tiers)),
		Unlimited:       api.FlexiblePricingConfigUnlimited{Enabled: c.Unlimited.Enabled, Price: c.Unlimited.Price},
		ChangePolicy: api.FlexiblePricingConfigChangePolicy{
			MemberChangesEnabled: c.ChangePolicy.MemberChangesEnabled,
			AllowedCycleOffsets:  append([]int{}, c.ChangePolicy.AllowedCycleOffsets...),
			DefaultCycleOffset:   c.ChangePolicy.DefaultCycleOffset,
		},
	}
	for i, t := range c.Tiers {
		out.Tiers[i] = api.FlexiblePricingConfigTiersItem{UpTo: t.UpTo, PricePerClass: t.PricePerClass}
	}
	return out
}

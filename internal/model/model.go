// Package model holds the JSON value types stored inside entity fields
// (flexible pricing configuration, flash-sale commercial rules and
// presentation), shared by the schema, the REST handlers and the MCP tools.
package model

// FlexiblePricingConfig configures a flexible-quantity membership: the member
// chooses how many classes per cycle within bounds, priced by tiers.
type FlexiblePricingConfig struct {
	SchemaVersion   int          `json:"schema_version"`
	MinimumQuantity int          `json:"minimum_quantity"`
	MaximumQuantity int          `json:"maximum_quantity"`
	QuantityStep    int          `json:"quantity_step"`
	Tiers           []PriceTier  `json:"tiers"`
	Unlimited       Unlimited    `json:"unlimited"`
	ChangePolicy    ChangePolicy `json:"change_policy"`
}

// PriceTier prices each class up to a quantity.
type PriceTier struct {
	UpTo          int     `json:"up_to"`
	PricePerClass float64 `json:"price_per_class"`
}

// Unlimited is the optional unlimited option of a flexible membership.
type Unlimited struct {
	Enabled bool    `json:"enabled"`
	Price   float64 `json:"price"`
}

// ChangePolicy says whether and when members may change their quantity.
type ChangePolicy struct {
	MemberChangesEnabled bool  `json:"member_changes_enabled"`
	AllowedCycleOffsets  []int `json:"allowed_cycle_offsets"`
	DefaultCycleOffset   int   `json:"default_cycle_offset"`
}

// CommercialRule is the commercial rule of a flash-sale offer (version 2).
type CommercialRule struct {
	Version                         int          `json:"version"`
	Kind                            string       `json:"kind"`
	Pricing                         RulePricing  `json:"pricing"`
	Currency                        string       `json:"currency"`
	VatMode                         string       `json:"vatMode"`
	WaiveRegistrationFeePassTypeIDs []string     `json:"waiveRegistrationFeePassTypeIds"`
	Duration                        RuleDuration `json:"duration"`
	FollowingPrice                  RuleFollow   `json:"followingPrice"`
}

// RulePricing is the offer price: mode shared with one price in major units.
type RulePricing struct {
	Mode  string  `json:"mode"`
	Price float64 `json:"price"`
}

// RuleDuration says how long the introductory price lasts.
type RuleDuration struct {
	Mode   string `json:"mode"`
	EndsAt string `json:"endsAt"`
}

// RuleFollow says what the member pays after the introductory price.
type RuleFollow struct {
	Mode string `json:"mode"`
}

// Presentation says how an offer is shown.
type Presentation struct {
	Style                 string `json:"style"`
	ShowRemainingCapacity bool   `json:"showRemainingCapacity"`
	ShowTimeToEnd         bool   `json:"showTimeToEnd"`
}

// BindingTier is one binding tier of a recurring membership: the member is
// bound for Months and pays PriceMinor (the pass type's currency) each
// billing period instead of the pass type's price.
type BindingTier struct {
	Months     int   `json:"months"`
	PriceMinor int64 `json:"price_minor"`
}

// FlexibleChange is a scheduled change of a flexible membership's selection:
// from the Renewal-th renewal (1 is the next), on EffectiveOn, the member has
// Kind (quantity or unlimited) with Quantity classes, at PriceMinor a period.
type FlexibleChange struct {
	Kind        string `json:"kind"`
	Quantity    int    `json:"quantity,omitempty"`
	Renewal     int    `json:"renewal"`
	EffectiveOn string `json:"effective_on"`
	PriceMinor  int64  `json:"price_minor"`
	Currency    string `json:"currency"`
	ScheduledAt string `json:"scheduled_at"`
	// PassTypeID, when set, is the flexible pass type a fixed membership
	// moves onto at EffectiveOn (Move to Flexible): the subscription's
	// schedule charges the selection's price from there, and the pass and
	// its subscription take the pass type when that period is paid.
	PassTypeID string `json:"pass_type_id,omitempty"`
}

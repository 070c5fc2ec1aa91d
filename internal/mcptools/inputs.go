package mcptools

// SearchSchedule is the input of search_schedule.
type SearchSchedule struct {
	Date       string `json:"date" jsonschema:"format=date" jsonschema_description:"Venue-local date, YYYY-MM-DD."`
	ClassType  string `json:"class_type,omitempty" jsonschema:"minLength=1,maxLength=100" jsonschema_description:"Only classes whose class type name contains this text (case-insensitive)."`
	Instructor string `json:"instructor,omitempty" jsonschema:"minLength=1,maxLength=100" jsonschema_description:"Only classes whose instructor's first or last name contains this text (case-insensitive)."`
	Limit      int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=100,default=100" jsonschema_description:"At most this many classes (the ceiling is 100)."`
}

// CheckAvailability is the input of check_availability.
type CheckAvailability struct {
	ClassInstanceID string `json:"class_instance_id" jsonschema:"format=uuid" jsonschema_description:"Id of the class instance."`
}

// SearchMembers is the input of search_members.
type SearchMembers struct {
	Query string `json:"query" jsonschema:"minLength=1,maxLength=100" jsonschema_description:"Text to find in the member's name, email or client display id; several words must all match."`
	Limit int    `json:"limit,omitempty" jsonschema:"minimum=1,maximum=25,default=25" jsonschema_description:"At most this many members (the ceiling is 25)."`
}

// GetMemberDetails is the input of get_member_details.
type GetMemberDetails struct {
	MemberID string `json:"member_id" jsonschema:"format=uuid" jsonschema_description:"Id of the member (the venue relationship, as search_members returns it)."`
}

// GetRevenueSummary is the input of get_revenue_summary.
type GetRevenueSummary struct {
	Period string `json:"period" jsonschema:"pattern=^(today|week|month|[0-9]{4}-[0-9]{2}-[0-9]{2}[.][.][0-9]{4}-[0-9]{2}-[0-9]{2})$" jsonschema_description:"today, week (Monday to Sunday), month, or an inclusive range YYYY-MM-DD..YYYY-MM-DD of at most 366 days; dates are venue-local."`
}

// GetTodayOverview is the input of get_today_overview: no arguments.
type GetTodayOverview struct{}

// CreateFlashSale is the input of create_flash_sale.
type CreateFlashSale struct {
	Name                  string         `json:"name" jsonschema:"minLength=1,maxLength=200" jsonschema_description:"Name of the offer."`
	CommercialRule        CommercialRule `json:"commercial_rule" jsonschema_description:"The commercial rule (version 2) of the offer."`
	ProductFamily         string         `json:"product_family" jsonschema:"enum=recurring" jsonschema_description:"Product family of the applicable pass types."`
	ApplicablePassTypeIDs []string       `json:"applicable_pass_type_ids" jsonschema:"minItems=1,maxItems=50,uniqueItems=true,format=uuid" jsonschema_description:"Recurring pass types of this venue the offer applies to."`
	StartsAt              string         `json:"starts_at" jsonschema:"format=date-time,pattern=Z$" jsonschema_description:"Start of the offer, RFC 3339 in UTC (ending in Z)."`
	EndsAt                string         `json:"ends_at" jsonschema:"format=date-time,pattern=Z$" jsonschema_description:"End of the offer, RFC 3339 in UTC (ending in Z), after starts_at and in the future."`
	Placements            []string       `json:"placements" jsonschema:"minItems=1,uniqueItems=true,enum=public_link,enum=pricing_page,enum=global_app" jsonschema_description:"Where the offer is shown."`
}

// CommercialRule is the commercial_rule of CreateFlashSale.
type CommercialRule struct {
	Version                         int            `json:"version" jsonschema:"enum=2"`
	Kind                            string         `json:"kind" jsonschema:"enum=introductory_price"`
	Pricing                         RulePricing    `json:"pricing"`
	Currency                        string         `json:"currency" jsonschema:"format=iso4217,pattern=^[A-Z]{3}$" jsonschema_description:"ISO 4217 currency code of the price."`
	VatMode                         string         `json:"vatMode" jsonschema:"enum=included"`
	WaiveRegistrationFeePassTypeIDs []string       `json:"waiveRegistrationFeePassTypeIds" jsonschema:"maxItems=50,uniqueItems=true,format=uuid" jsonschema_description:"Pass types of this venue whose registration fee the offer waives; may be empty."`
	Duration                        RuleDuration   `json:"duration"`
	FollowingPrice                  FollowingPrice `json:"followingPrice"`
}

// RulePricing is the pricing of a CommercialRule.
type RulePricing struct {
	Mode  string  `json:"mode" jsonschema:"enum=shared"`
	Price float64 `json:"price" jsonschema:"exclusiveMinimum=0,maximum=1000000" jsonschema_description:"Introductory price in major units of currency."`
}

// RuleDuration is how long the introductory price of a CommercialRule lasts.
type RuleDuration struct {
	Mode   string `json:"mode" jsonschema:"enum=until_date"`
	EndsAt string `json:"endsAt" jsonschema:"format=date" jsonschema_description:"Last venue-local date of the introductory price, YYYY-MM-DD."`
}

// FollowingPrice is what a member pays after the introductory price.
type FollowingPrice struct {
	Mode string `json:"mode" jsonschema:"enum=pass_price"`
}

// GetSalesSnapshot is the input of get_sales_snapshot.
type GetSalesSnapshot struct {
	Range      string   `json:"range,omitempty" jsonschema:"enum=today,enum=yesterday,enum=7d,enum=mtd,enum=30d,enum=custom,default=today" jsonschema_description:"The dates summed: today (default), yesterday, 7d (today and the 6 days before), mtd (month to date), 30d (today and the 29 days before) or custom (from and to)."`
	From       string   `json:"from,omitempty" jsonschema:"format=date" jsonschema_description:"First venue-local date of a custom range, YYYY-MM-DD."`
	To         string   `json:"to,omitempty" jsonschema:"format=date" jsonschema_description:"Last venue-local date of a custom range (inclusive, at most 366 days), YYYY-MM-DD."`
	Basis      string   `json:"basis,omitempty" jsonschema:"enum=cash,enum=accrual,default=cash" jsonschema_description:"cash: succeeded payments on the date paid; accrual: pending and succeeded payments on the date of sale."`
	Methods    []string `json:"methods,omitempty" jsonschema:"maxItems=5,uniqueItems=true,enum=card,enum=cash,enum=gift_card,enum=bank_transfer,enum=other" jsonschema_description:"Only these payment methods."`
	Categories []string `json:"categories,omitempty" jsonschema:"maxItems=7,uniqueItems=true,enum=pass_purchase,enum=renewal,enum=drop_in,enum=product,enum=gift_card,enum=fee,enum=other" jsonschema_description:"Only these categories (the payment's kind)."`
	BrandID    string   `json:"brand_id,omitempty" jsonschema:"format=uuid" jsonschema_description:"Only the sales of this brand of the venue."`
	LocationID string   `json:"location_id,omitempty" jsonschema:"format=uuid" jsonschema_description:"Only the sales at this location of the venue."`
}

// GetAttendanceReport is the input of get_attendance_report.
type GetAttendanceReport struct {
	Range      string `json:"range,omitempty" jsonschema:"enum=today,enum=yesterday,enum=7d,enum=mtd,enum=30d,enum=custom,default=today" jsonschema_description:"The dates counted: today (default), yesterday, 7d (today and the 6 days before), mtd (month to date), 30d (today and the 29 days before) or custom (from and to)."`
	From       string `json:"from,omitempty" jsonschema:"format=date" jsonschema_description:"First venue-local date of a custom range, YYYY-MM-DD."`
	To         string `json:"to,omitempty" jsonschema:"format=date" jsonschema_description:"Last venue-local date of a custom range (inclusive, at most 366 days), YYYY-MM-DD."`
	View       string `json:"view,omitempty" jsonschema:"enum=class_date,enum=action_date,default=class_date" jsonschema_description:"class_date: the bookings of the classes held on each date, by status; action_date: each booking action on the date it happened."`
	LocationID string `json:"location_id,omitempty" jsonschema:"format=uuid" jsonschema_description:"Only the classes at this location of the venue."`
}

// GetBrandAnalytics is the input of get_brand_analytics.
type GetBrandAnalytics struct {
	Range string `json:"range,omitempty" jsonschema:"enum=today,enum=yesterday,enum=7d,enum=mtd,enum=30d,enum=custom,default=today" jsonschema_description:"The dates read: today (default), yesterday, 7d (today and the 6 days before), mtd (month to date), 30d (today and the 29 days before) or custom (from and to)."`
	From  string `json:"from,omitempty" jsonschema:"format=date" jsonschema_description:"First venue-local date of a custom range, YYYY-MM-DD."`
	To    string `json:"to,omitempty" jsonschema:"format=date" jsonschema_description:"Last venue-local date of a custom range (inclusive, at most 366 days), YYYY-MM-DD."`
}

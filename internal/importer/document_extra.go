package importer

// The sections and fields below extend version 1 additively
// (docs/import-format-extensions.md): a document without them imports as
// before, and the format stays venue-import/1.

// Sections of the catalogue extension, written after alerts.
const (
	SecOpeningHours = "opening_hours"
	SecAmenities    = "amenities"
	SecPhotos       = "photos"
	SecAddons       = "addons"
	SecGiftCards    = "gift_cards"
)

// SecVenue is the top-level "venue" object. It is no section of items: it has
// no ref, and its problems are named venue.FIELD.
const SecVenue = "venue"

// VenueProfile is the top-level "venue" object: the public profile of the
// venue the document is imported into. Every field is optional; a field that
// is absent leaves the venue's value as it is, an empty string clears it.
// The venue's name, slug, plan, currency and time zone are not importable.
type VenueProfile struct {
	Description           *string  `json:"description,omitempty"`
	Website               *string  `json:"website,omitempty"`
	Email                 *string  `json:"email,omitempty"`
	Phone                 *string  `json:"phone,omitempty"`
	LogoURL               *string  `json:"logo_url,omitempty"`
	World                 *string  `json:"world,omitempty"`
	Address               *string  `json:"address,omitempty"`
	City                  *string  `json:"city,omitempty"`
	Country               *string  `json:"country,omitempty"`
	Lat                   *float64 `json:"lat,omitempty"`
	Lng                   *float64 `json:"lng,omitempty"`
	VatExemptAgeThreshold *int     `json:"vat_exempt_age_threshold,omitempty"`
}

// OpeningHours is an item of section opening_hours: one opening period of a
// weekday, for the venue as a whole or for one location. A weekday may have
// several items (a lunch break).
type OpeningHours struct {
	Ref      string `json:"ref"`
	Location string `json:"location,omitempty"`
	// Weekday is ISO: 1 is Monday, 7 is Sunday.
	Weekday *int `json:"weekday"`
	// OpensAt and ClosesAt are HH:MM, venue-local; both are required unless
	// Closed, and both must be absent when Closed.
	OpensAt  string `json:"opens_at,omitempty"`
	ClosesAt string `json:"closes_at,omitempty"`
	Closed   bool   `json:"closed,omitempty"`
}

// Amenity is an item of section amenities: a facility of the venue or of
// one location.
type Amenity struct {
	Ref       string `json:"ref"`
	Location  string `json:"location,omitempty"`
	Name      string `json:"name"`
	Icon      string `json:"icon,omitempty"`
	SortOrder *int   `json:"sort_order,omitempty"`
}

// Photo is an item of section photos: a public picture of the venue, of one
// location or of one brand (at most one of Location and Brand).
type Photo struct {
	Ref       string `json:"ref"`
	Location  string `json:"location,omitempty"`
	Brand     string `json:"brand,omitempty"`
	URL       string `json:"url"`
	Caption   string `json:"caption,omitempty"`
	SortOrder *int   `json:"sort_order,omitempty"`
}

// Addon is an item of section addons: a product members add to a booking.
// An empty Category is "other"; a missing Active is true.
type Addon struct {
	Ref         string `json:"ref"`
	Name        string `json:"name"`
	Category    string `json:"category,omitempty"`
	Description string `json:"description,omitempty"`
	PriceMinor  *int64 `json:"price_minor"`
	Currency    string `json:"currency"`
	Active      *bool  `json:"active,omitempty"`
	SortOrder   *int   `json:"sort_order,omitempty"`
}

// GiftCard is an item of section gift_cards. Code is stored upper-case and
// is unique within the venue. A missing RemainingAmountMinor is the initial
// amount; GiftType pass names the gifted PassType.
type GiftCard struct {
	Ref                  string `json:"ref"`
	Code                 string `json:"code"`
	GiftType             string `json:"gift_type,omitempty"`
	InitialAmountMinor   *int64 `json:"initial_amount_minor"`
	RemainingAmountMinor *int64 `json:"remaining_amount_minor,omitempty"`
	Currency             string `json:"currency"`
	Status               string `json:"status,omitempty"`
	ExpiresAt            string `json:"expires_at,omitempty"`
	SenderName           string `json:"sender_name,omitempty"`
	GiftDescription      string `json:"gift_description,omitempty"`
	PassType             string `json:"pass_type,omitempty"`
}

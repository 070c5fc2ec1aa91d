package importer

import "github.com/venueplatform/venue/internal/model"

// Format is the value of the document's "format" field this package reads.
const Format = "venue-import/1"

// Document is one venue's data in the import format (import-format.md).
// Every section is optional.
type Document struct {
	Format      string       `json:"format"`
	Brands      []Brand      `json:"brands,omitempty"`
	Locations   []Location   `json:"locations,omitempty"`
	ClassTypes  []ClassType  `json:"class_types,omitempty"`
	Instructors []Instructor `json:"instructors,omitempty"`
	Classes     []Class      `json:"classes,omitempty"`
	PassTypes   []PassType   `json:"pass_types,omitempty"`
	Members     []Member     `json:"members,omitempty"`
	Passes      []Pass       `json:"passes,omitempty"`
	Bookings    []Booking    `json:"bookings,omitempty"`
	Payments    []Payment    `json:"payments,omitempty"`
	Alerts      []Alert      `json:"alerts,omitempty"`

	// Additive sections of version 1 (document_extra.go).
	Venue        *VenueProfile  `json:"venue,omitempty"`
	OpeningHours []OpeningHours `json:"opening_hours,omitempty"`
	Amenities    []Amenity      `json:"amenities,omitempty"`
	Photos       []Photo        `json:"photos,omitempty"`
	Addons       []Addon        `json:"addons,omitempty"`
	Services     []Service      `json:"services,omitempty"`
	GiftCards    []GiftCard     `json:"gift_cards,omitempty"`
}

// Brand is an item of section brands. An empty Slug is derived from Name.
// The theming fields (pointers) are written only when present, so a document
// without them leaves a brand's theming as it is; an empty string clears.
type Brand struct {
	Ref            string            `json:"ref"`
	Name           string            `json:"name"`
	Slug           string            `json:"slug,omitempty"`
	Description    string            `json:"description,omitempty"`
	Color          string            `json:"color,omitempty"`
	SecondaryColor *string           `json:"secondary_color,omitempty"`
	Tagline        *string           `json:"tagline,omitempty"`
	Website        *string           `json:"website,omitempty"`
	LogoURL        *string           `json:"logo_url,omitempty"`
	SocialLinks    map[string]string `json:"social_links,omitempty"`
	SortOrder      *int              `json:"sort_order,omitempty"`
}

// Location is an item of section locations, with its rooms.
type Location struct {
	Ref     string   `json:"ref"`
	Name    string   `json:"name"`
	Address string   `json:"address,omitempty"`
	City    string   `json:"city,omitempty"`
	Lat     *float64 `json:"lat,omitempty"`
	Lng     *float64 `json:"lng,omitempty"`
	Rooms   []Room   `json:"rooms,omitempty"`
}

// Room is a room of a location; room refs form section rooms.
type Room struct {
	Ref      string `json:"ref"`
	Name     string `json:"name"`
	Capacity *int   `json:"capacity"`
	RoomType string `json:"room_type,omitempty"`
}

// ClassType is an item of section class_types.
type ClassType struct {
	Ref             string `json:"ref"`
	Name            string `json:"name"`
	Brand           string `json:"brand,omitempty"`
	Slug            string `json:"slug,omitempty"`
	Description     string `json:"description,omitempty"`
	DurationMinutes *int   `json:"duration_minutes,omitempty"`
	Color           string `json:"color,omitempty"`
}

// Instructor is an item of section instructors.
type Instructor struct {
	Ref       string `json:"ref"`
	FirstName string `json:"first_name"`
	LastName  string `json:"last_name,omitempty"`
	Email     string `json:"email,omitempty"`
	Bio       string `json:"bio,omitempty"`
}

// Class is an item of section classes (a scheduled class instance). A
// missing Capacity is the room's; a missing Location is the room's.
type Class struct {
	Ref           string         `json:"ref"`
	ClassType     string         `json:"class_type"`
	Instructor    string         `json:"instructor,omitempty"`
	Location      string         `json:"location,omitempty"`
	Room          string         `json:"room,omitempty"`
	StartTime     string         `json:"start_time"`
	EndTime       string         `json:"end_time"`
	Capacity      *int           `json:"capacity,omitempty"`
	Status        string         `json:"status,omitempty"`
	Online        bool           `json:"online,omitempty"`
	Listed        *bool          `json:"listed,omitempty"`
	WorkshopEntry *WorkshopEntry `json:"workshop_entry,omitempty"`
}

// WorkshopEntry marks a class that requires an entry to a workshop or course.
type WorkshopEntry struct {
	Kind string `json:"kind"`
	ID   string `json:"id,omitempty"`
	Slug string `json:"slug,omitempty"`
}

// PassType is an item of section pass_types. An empty Slug is derived from
// Name.
type PassType struct {
	Ref                   string                       `json:"ref"`
	Name                  string                       `json:"name"`
	Slug                  string                       `json:"slug,omitempty"`
	Description           string                       `json:"description,omitempty"`
	Category              string                       `json:"category"`
	PriceMinor            *int64                       `json:"price_minor"`
	Currency              string                       `json:"currency"`
	Clips                 *int                         `json:"clips,omitempty"`
	IsRecurring           bool                         `json:"is_recurring,omitempty"`
	BillingInterval       string                       `json:"billing_interval,omitempty"`
	BillingIntervalCount  *int                         `json:"billing_interval_count,omitempty"`
	ValidityDays          *int                         `json:"validity_days,omitempty"`
	PricingMode           string                       `json:"pricing_mode,omitempty"`
	FlexiblePricingConfig *model.FlexiblePricingConfig `json:"flexible_pricing_config,omitempty"`
	AllowedBrands         []string                     `json:"allowed_brands,omitempty"`
	AllowedClassTypes     []string                     `json:"allowed_class_types,omitempty"`
}

// Member is an item of section members: a person enrolled in the venue.
type Member struct {
	Ref             string `json:"ref"`
	FirstName       string `json:"first_name,omitempty"`
	LastName        string `json:"last_name,omitempty"`
	Email           string `json:"email"`
	Phone           string `json:"phone,omitempty"`
	ClientDisplayID string `json:"client_display_id,omitempty"`
	JoinedAt        string `json:"joined_at,omitempty"`
	Status          string `json:"status,omitempty"`
}

// Pass is an item of section passes. Currency, when given, must be the pass
// type's.
type Pass struct {
	Ref            string `json:"ref"`
	Member         string `json:"member"`
	PassType       string `json:"pass_type"`
	Status         string `json:"status,omitempty"`
	ValidFrom      string `json:"valid_from"`
	ValidTo        string `json:"valid_to,omitempty"`
	ClipsRemaining *int   `json:"clips_remaining,omitempty"`
	Currency       string `json:"currency,omitempty"`
}

// Booking is an item of section bookings.
type Booking struct {
	Ref         string `json:"ref"`
	Member      string `json:"member"`
	Class       string `json:"class"`
	Pass        string `json:"pass,omitempty"`
	Status      string `json:"status,omitempty"`
	CreatedAt   string `json:"created_at,omitempty"`
	CancelledAt string `json:"cancelled_at,omitempty"`
	CheckedInAt string `json:"checked_in_at,omitempty"`
}

// Payment is an item of section payments.
type Payment struct {
	Ref                string `json:"ref"`
	Member             string `json:"member,omitempty"`
	Pass               string `json:"pass,omitempty"`
	AmountMinor        *int64 `json:"amount_minor"`
	Currency           string `json:"currency"`
	Status             string `json:"status,omitempty"`
	PaidAt             string `json:"paid_at,omitempty"`
	Kind               string `json:"kind,omitempty"`
	ProcessorPaymentID string `json:"processor_payment_id,omitempty"`
}

// Alert is an item of section alerts.
type Alert struct {
	Ref        string `json:"ref"`
	Severity   string `json:"severity,omitempty"`
	Title      string `json:"title"`
	Message    string `json:"message,omitempty"`
	CreatedAt  string `json:"created_at,omitempty"`
	Resolved   bool   `json:"resolved,omitempty"`
	ResolvedAt string `json:"resolved_at,omitempty"`
}

// Section names, in the order they are written. Room refs form section
// "rooms" although rooms are nested in locations.
const (
	SecBrands      = "brands"
	SecLocations   = "locations"
	SecRooms       = "rooms"
	SecClassTypes  = "class_types"
	SecInstructors = "instructors"
	SecPassTypes   = "pass_types"
	SecClasses     = "classes"
	SecMembers     = "members"
	SecPasses      = "passes"
	SecBookings    = "bookings"
	SecPayments    = "payments"
	SecAlerts      = "alerts"
)

// Sections lists every section in write order.
var Sections = []string{
	SecBrands, SecLocations, SecRooms, SecClassTypes, SecInstructors, SecPassTypes,
	SecClasses, SecMembers, SecPasses, SecBookings, SecPayments, SecAlerts,
	SecOpeningHours, SecAmenities, SecPhotos, SecAddons, SecGiftCards, SecServices,
}

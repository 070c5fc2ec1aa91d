package importer

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/money"
)

// Enumerations of the contract (rest-api.md, import-format.md).
var (
	classStatuses   = []string{"scheduled", "live", "completed", "cancelled"}
	passStatuses    = []string{"pending", "active", "past_due", "suspended", "expired", "cancelled", "pending_activation"}
	bookingStatuses = []string{"confirmed", "waitlisted", "checked_in", "no-show", "cancelled", "late-cancelled", "pending_payment"}
	paymentStatuses = []string{"pending", "succeeded", "failed", "refunded", "partially_refunded", "cancelled"}
	paymentKinds    = []string{"pass_purchase", "renewal", "drop_in", "product", "gift_card", "fee", "other"}
	categories      = []string{"drop_in", "clip_card", "membership", "intro_offer", "workshop", "other"}
	intervals       = []string{"day", "week", "month", "year"}
	pricingModes    = []string{"fixed", "flexible_quantity"}
	severities      = []string{"info", "warning", "critical"}
	memberStatuses  = []string{"active", "inactive", "blocked"}
	workshopKinds   = []string{"workshop", "course"}
)

// singular names an item of a section in messages.
var singular = map[string]string{
	SecBrands: "brand", SecLocations: "location", SecRooms: "room", SecClassTypes: "class type",
	SecInstructors: "instructor", SecPassTypes: "pass type", SecClasses: "class",
	SecMembers: "member", SecPasses: "pass", SecBookings: "booking", SecPayments: "payment",
	SecAlerts: "alert", SecOpeningHours: "opening hours", SecAmenities: "amenity", SecPhotos: "photo",
	SecAddons: "add-on", SecGiftCards: "gift card", SecServices: "service",
}

// begin registers an item: it checks its ref (present, at most 200
// characters, unique in the section) and gives it the id of the row it
// updates or a new one. ok is false when the item cannot be used further.
func (p *plan) begin(section string, index int, ref string) (it item, id uuid.UUID, ok bool) {
	it = item{section: section, index: index, ref: ref}
	seen := p.ids[section]
	switch {
	case strings.TrimSpace(ref) == "":
		p.ps.add(it, "ref", "missing; every item needs a non-empty ref")
		return it, uuid.Nil, false
	case len(ref) > 200:
		p.ps.add(it, "ref", "longer than 200 characters")
		return it, uuid.Nil, false
	case p.defined[section][ref]:
		p.ps.add(it, "ref", "duplicate ref %q in section %s", ref, section)
		return it, uuid.Nil, false
	}
	p.defined[section][ref] = true
	if existing, ok := seen[ref]; ok {
		return it, existing, true
	}
	id = uuid.New()
	if section == SecMembers {
		id = uuid.Nil // assigned when the member is enrolled
	}
	seen[ref] = id
	return it, id, true
}

// resolve returns the id of the item of section that ref names, reporting an
// unknown ref. An empty ref is reported when required.
func (p *plan) resolve(it item, field, section, ref string, required bool) (uuid.UUID, bool) {
	if ref == "" {
		if required {
			p.ps.add(it, field, "missing; want a %s ref", singular[section])
		}
		return uuid.Nil, false
	}
	id, ok := p.ids[section][ref]
	if !ok {
		p.ps.add(it, field, "unknown %s ref %q", singular[section], ref)
		return uuid.Nil, false
	}
	return id, true
}

// resolveOpt resolves an optional ref to a pointer.
func (p *plan) resolveOpt(it item, field, section, ref string) *uuid.UUID {
	if id, ok := p.resolve(it, field, section, ref, false); ok {
		return &id
	}
	return nil
}

func (p *plan) required(it item, field, v string, maxLen int) {
	switch {
	case strings.TrimSpace(v) == "":
		p.ps.add(it, field, "missing")
	case maxLen > 0 && len(v) > maxLen:
		p.ps.add(it, field, "longer than %d characters", maxLen)
	}
}

// enum checks v against allowed; an empty v is def (or reported when def is
// empty).
func (p *plan) enum(it item, field, v, def string, allowed []string) string {
	if v == "" {
		if def == "" {
			p.ps.add(it, field, "missing; want one of %s", strings.Join(allowed, ", "))
		}
		return def
	}
	if !slices.Contains(allowed, v) {
		p.ps.add(it, field, "value %q is not one of %s", v, strings.Join(allowed, ", "))
		return def
	}
	return v
}

// timestamp parses an RFC 3339 time with an offset; empty is nil.
func (p *plan) timestamp(it item, field, s string, required bool) *time.Time {
	if s == "" {
		if required {
			p.ps.add(it, field, "missing; want an RFC 3339 time such as 2026-11-23T07:00:00+01:00")
		}
		return nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		p.ps.add(it, field, "invalid time %q; want RFC 3339 with an offset, such as 2026-11-23T07:00:00+01:00", s)
		return nil
	}
	return &t
}

// date parses a YYYY-MM-DD calendar date of the venue; empty is nil. The
// value is the date at midnight UTC, which the date columns store as is.
func (p *plan) date(it item, field, s string, required bool) *time.Time {
	if s == "" {
		if required {
			p.ps.add(it, field, "missing; want a date YYYY-MM-DD")
		}
		return nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		p.ps.add(it, field, "invalid date %q; want YYYY-MM-DD", s)
		return nil
	}
	return &t
}

// positive checks an optional count.
func (p *plan) positive(it item, field string, v *int) {
	if v != nil && *v <= 0 {
		p.ps.add(it, field, "must be positive, got %d", *v)
	}
}

// currencyOf checks a currency against the venue's.
func (p *plan) venueCurrency(it item, field, code string) {
	switch {
	case code == "":
		p.ps.add(it, field, "missing; want the venue's currency %s", p.currency)
	case code != p.currency:
		p.ps.add(it, field, "currency %q differs from the venue's currency %s", code, p.currency)
	}
}

func (p *plan) memberKnown(ref string) bool {
	_, ok := p.ids[SecMembers][ref]
	return ok
}

// memberIdentity names the member behind ref for comparisons: its row id
// when it exists, else its ref.
func (p *plan) memberIdentity(ref string) string {
	if id := p.ids[SecMembers][ref]; id != uuid.Nil {
		return id.String()
	}
	return "ref:" + ref
}

func ptrString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func quoteList(refs []string) string {
	q := make([]string, len(refs))
	for i, r := range refs {
		q[i] = fmt.Sprintf("%q", r)
	}
	return strings.Join(q, ", ")
}

// isoCurrency checks the currency of something that may be priced in
// another currency than the venue's (a pass type, a payment, a product, a
// gift card): any ISO 4217 code.
func (p *plan) isoCurrency(it item, field, code string) {
	switch {
	case code == "":
		p.ps.add(it, field, "missing; want an ISO 4217 currency (the venue's is %s)", p.currency)
	case !money.ValidCurrency(code):
		p.ps.add(it, field, "currency %q is not an ISO 4217 code", code)
	}
}

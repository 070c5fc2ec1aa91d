// Package scope is the registry of API-key scopes of the contract. The
// OpenAPI security requirements, the REST security handler, MCP and venuectl
// all validate against it.
package scope

import (
	"fmt"
	"slices"
	"strings"
)

// The API-key scopes named by the contract.
const (
	ReadSchedule    = "read:schedule"
	ReadMembers     = "read:members"
	ReadBookings    = "read:bookings"
	ReadPasses      = "read:passes"
	ReadReports     = "read:reports"
	ReadOperations  = "read:operations"
	ReadPricing     = "read:pricing"
	ReadClasses     = "read:classes"
	ReadInstructors = "read:instructors"
	ReadLocations   = "read:locations"
	ReadBrands      = "read:brands"
	ReadCalendar    = "read:calendar"
	WriteSchedule   = "write:schedule"
	WritePasses     = "write:passes"
	WriteMarketing  = "write:marketing"
)

// All lists every scope, reads first.
var All = []string{
	ReadSchedule, ReadMembers, ReadBookings, ReadPasses, ReadReports, ReadOperations,
	ReadPricing, ReadClasses, ReadInstructors, ReadLocations, ReadBrands, ReadCalendar,
	WriteSchedule, WritePasses, WriteMarketing,
}

// Reads lists every read scope.
func Reads() []string {
	return slices.DeleteFunc(slices.Clone(All), IsWrite)
}

// IsWrite reports whether s grants writes.
func IsWrite(s string) bool { return strings.HasPrefix(s, "write:") }

// Valid reports whether s is a known scope.
func Valid(s string) bool { return slices.Contains(All, s) }

// Parse splits a comma-separated scope list, trims blanks, removes duplicates
// and refuses unknown scopes and an empty list.
func Parse(list string) ([]string, error) {
	var out []string
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		if !Valid(s) {
			return nil, fmt.Errorf("unknown scope %q (known: %s)", s, strings.Join(All, ", "))
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no scopes given")
	}
	return out, nil
}

// Missing returns the scopes of required that have is missing.
func Missing(have, required []string) []string {
	var out []string
	for _, r := range required {
		if !slices.Contains(have, r) {
			out = append(out, r)
		}
	}
	return out
}

// The staff permissions named by the contract.
var Permissions = []string{
	"bookings.manage", "settings.business", "settings.membership", "passes.manage",
	"billing.manage", "billing.refunds.same_day", "billing.refunds.full", "members.contact",
	"members.view_insights", "pos.access", "pos.sell", "pos.manage", "products.manage_inventory",
	"class.create", "class.cancel", "booking.checkin", "booking.cancel_member",
	"bookings.mark_no_show", "scheduling.manage", "scheduling.manage_history",
	"schedule.view_all", "notifications.send", "staff.view", "staff.edit", "locations.manage",
	"sites.view", "sites.manage", "sites.publish", "reports.view", "reports.classes",
	"feedback.view", "gift_cards.sell", "marketing.flash_sales", "marketing.campaigns",
	"admin.users.manage", "loyalty_price.grant", "rates.view",
	// Named by the contract's Appointments paragraph (the historical command).
	"appointments.manage_history",
}

// ParsePermissions splits a comma-separated permission list and refuses
// unknown permissions. An empty list is allowed.
func ParsePermissions(list string) ([]string, error) {
	out := []string{}
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !slices.Contains(Permissions, p) {
			return nil, fmt.Errorf("unknown permission %q", p)
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

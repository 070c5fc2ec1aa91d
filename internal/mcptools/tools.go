package mcptools

import (
	"reflect"

	"github.com/venueplatform/venue/internal/scope"
)

// Tool names.
const (
	SearchScheduleName    = "search_schedule"
	CheckAvailabilityName = "check_availability"
	SearchMembersName     = "search_members"
	GetMemberDetailsName  = "get_member_details"
	GetRevenueSummaryName = "get_revenue_summary"
	GetTodayOverviewName  = "get_today_overview"
	CreateFlashSaleName   = "create_flash_sale"
	GetSalesSnapshotName  = "get_sales_snapshot"
	GetAttendanceName     = "get_attendance_report"
	GetBrandAnalyticsName = "get_brand_analytics"
)

// Result ceilings of the tools that return lists.
const (
	SearchScheduleCeiling = 100
	SearchMembersCeiling  = 25
)

// Tool describes one tool.
type Tool struct {
	Name        string
	Title       string
	Description string
	// Scopes are all required (AND).
	Scopes []string
	// ReadOnly is false only for tools that change data.
	ReadOnly bool
	// Input is the tool's input struct type; its JSON Schema is generated.
	Input reflect.Type
}

// Tools lists every tool in the order tools/list returns them.
var Tools = []Tool{
	{
		Name:        SearchScheduleName,
		Title:       "Search the schedule",
		Description: "Classes of one venue-local date with real-time availability, optionally filtered by class type or instructor name; at most 100 classes. Needs read:schedule.",
		Scopes:      []string{scope.ReadSchedule},
		ReadOnly:    true,
		Input:       reflect.TypeFor[SearchSchedule](),
	},
	{
		Name:        CheckAvailabilityName,
		Title:       "Check availability",
		Description: "Capacity, current bookings, waitlist and remaining seats of one class instance. Needs read:schedule.",
		Scopes:      []string{scope.ReadSchedule},
		ReadOnly:    true,
		Input:       reflect.TypeFor[CheckAvailability](),
	},
	{
		Name:        SearchMembersName,
		Title:       "Search members",
		Description: "Members whose name, email or client display id contain the query; at most 25 matches. Needs read:members.",
		Scopes:      []string{scope.ReadMembers},
		ReadOnly:    true,
		Input:       reflect.TypeFor[SearchMembers](),
	},
	{
		Name:        GetMemberDetailsName,
		Title:       "Member details",
		Description: "A member's profile, active passes and most recent bookings. Needs read:members.",
		Scopes:      []string{scope.ReadMembers},
		ReadOnly:    true,
		Input:       reflect.TypeFor[GetMemberDetails](),
	},
	{
		Name:        GetRevenueSummaryName,
		Title:       "Revenue summary",
		Description: "Succeeded payments of a period totalled by currency; the period is today, week, month or YYYY-MM-DD..YYYY-MM-DD in the venue's time zone. Needs read:reports.",
		Scopes:      []string{scope.ReadReports},
		ReadOnly:    true,
		Input:       reflect.TypeFor[GetRevenueSummary](),
	},
	{
		Name:        GetTodayOverviewName,
		Title:       "Today at a glance",
		Description: "Counts of today's classes, their bookings and the open alerts, in the venue's time zone. Needs read:schedule, read:bookings and read:operations.",
		Scopes:      []string{scope.ReadSchedule, scope.ReadBookings, scope.ReadOperations},
		ReadOnly:    true,
		Input:       reflect.TypeFor[GetTodayOverview](),
	},
	{
		Name:        CreateFlashSaleName,
		Title:       "Create a flash sale",
		Description: "Creates one Flash Sale offer in this venue and nothing else: no campaign, email or SMS. Needs write:marketing and a key that records the staff member who issued it.",
		Scopes:      []string{scope.WriteMarketing},
		ReadOnly:    false,
		Input:       reflect.TypeFor[CreateFlashSale](),
	},
	{
		Name:        GetSalesSnapshotName,
		Title:       "Sales snapshot",
		Description: "The venue's sales of a range (today, yesterday, 7d, mtd, 30d or custom from..to, venue-local dates) totalled per currency in minor units with the currency's exponent, and per payment method and category; cash basis (succeeded payments by payment date) or accrual (pending and succeeded by sale date); optional method, category, brand and location filters. The same figures as GET /admin/sales-snapshot. Needs read:reports.",
		Scopes:      []string{scope.ReadReports},
		ReadOnly:    true,
		Input:       reflect.TypeFor[GetSalesSnapshot](),
	},
	{
		Name:        GetAttendanceName,
		Title:       "Attendance report",
		Description: "The venue's bookings of a range (today, yesterday, 7d, mtd, 30d or custom from..to, venue-local dates) counted per date and in total: booked, checked in, no-show, late-cancelled, cancelled, waitlisted; by the class's date (class_date, default) or the date of each action (action_date); optionally one location's classes. The same figures as GET /admin/reports/attendance. Needs read:reports.",
		Scopes:      []string{scope.ReadReports},
		ReadOnly:    true,
		Input:       reflect.TypeFor[GetAttendanceReport](),
	},
	{
		Name:        GetBrandAnalyticsName,
		Title:       "Brand analytics",
		Description: "Per brand of the venue (and one entry for what belongs to no brand) over a range (today, yesterday, 7d, mtd, 30d or custom from..to, venue-local dates): classes held and cancelled, seats booked, check-ins, and cash-basis sales per currency in minor units with the currency's exponent. The same figures as GET /admin/reports/brands. Needs read:reports.",
		Scopes:      []string{scope.ReadReports},
		ReadOnly:    true,
		Input:       reflect.TypeFor[GetBrandAnalytics](),
	},
}

// Lookup returns the tool named name.
func Lookup(name string) (Tool, bool) {
	for _, t := range Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

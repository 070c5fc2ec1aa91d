package bench

import (
	"strconv"
	"strings"
)

// The statements of the schedule read, as the service issues them (captured
// from ent with a pgx tracer; TestBaselineIssuesServiceSQL keeps them equal):
// the venue by slug (venue.Resolve), the classes of the
// window filtered to the venue by the tenancy policy (the columns a schedule
// row shows and the edge keys only), one eager load per edge (class type,
// instructor, location, room: id and name); the booked and waitlist counts
// are columns of the class row (kept by a trigger on bookings).
const (
	sqlVenueBySlug = `SELECT "organizations"."id", "organizations"."created_at", "organizations"."updated_at", ` +
		`"organizations"."name", "organizations"."slug", "organizations"."plan", "organizations"."currency", ` +
		`"organizations"."timezone", "organizations"."address", "organizations"."city", "organizations"."country", ` +
		`"organizations"."lat", "organizations"."lng", "organizations"."vat_exempt_age_threshold", ` +
		`"organizations"."listed", "organizations"."description", "organizations"."website", "organizations"."email", ` +
		`"organizations"."phone", "organizations"."logo_url", "organizations"."world" ` +
		`FROM "organizations" WHERE "organizations"."slug" = $1 LIMIT 2`
	// venueColumns is the column count of sqlVenueBySlug; id is column 0,
	// timezone column 7.
	venueColumns = 21

	sqlClasses = `SELECT "class_instances"."id", "class_instances"."class_type_id", ` +
		`"class_instances"."instructor_id", "class_instances"."location_id", "class_instances"."room_id", ` +
		`"class_instances"."start_time", "class_instances"."end_time", "class_instances"."capacity", ` +
		`"class_instances"."status", "class_instances"."online", ` +
		`"class_instances"."workshop_entry_kind", "class_instances"."workshop_entry_id", ` +
		`"class_instances"."workshop_entry_slug", "class_instances"."booked_count", ` +
		`"class_instances"."waitlist_count" FROM "class_instances" ` +
		`WHERE (("class_instances"."listed" AND "class_instances"."start_time" >= $1) ` +
		`AND "class_instances"."start_time" < $2) AND "class_instances"."organization_id" = $3 ` +
		`ORDER BY "class_instances"."start_time" ASC, "class_instances"."id" ASC LIMIT `
	classColumns = 15

	sqlClassTypesHead = `SELECT "class_types"."id", "class_types"."name" FROM "class_types" WHERE "class_types"."id" IN (`
	classTypeColumns  = 2

	sqlInstructorsHead = `SELECT "instructors"."id", "instructors"."first_name", "instructors"."last_name" ` +
		`FROM "instructors" WHERE "instructors"."id" IN (`
	instructorColumns = 3

	sqlLocationsHead = `SELECT "locations"."id", "locations"."name" FROM "locations" WHERE "locations"."id" IN (`
	locationColumns  = 2

	sqlRoomsHead = `SELECT "rooms"."id", "rooms"."name" FROM "rooms" WHERE "rooms"."id" IN (`
	roomColumns  = 2
)

// platformStatements start the statements the service issues around a
// request rather than for the read: the per-client rate limit (GCRA, one
// upsert per request). The baseline leaves them out, so the ratio prices
// them with the other layers; TestBaselineIssuesServiceSQL sets them aside
// before comparing. A new one shows up in that test's diff.
var platformStatements = []string{
	"INSERT INTO rate_limits ",
}

// edgeSQL returns an eager load of n ids ($1..$n) filtered to the venue
// ($n+1): head is the statement up to the IN list's parenthesis.
func edgeSQL(head, table string, n int) string {
	var b strings.Builder
	b.Grow(len(head) + 8*n + 64)
	b.WriteString(head)
	placeholders(&b, 1, n)
	b.WriteString(`) AND "`)
	b.WriteString(table)
	b.WriteString(`"."organization_id" = $`)
	b.WriteString(strconv.Itoa(n + 1))
	return b.String()
}

// placeholders writes "$from, ..., $(from+n-1)".
func placeholders(b *strings.Builder, from, n int) {
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(from + i))
	}
}

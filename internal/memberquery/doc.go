// Package memberquery reads a venue's members for staff-facing tools: a
// search by name, email or client display id with a hard ceiling, and one
// member's detail (profile, active passes, most recent bookings). MCP
// (search_members, get_member_details, venue://members, venue://member) calls
// it, and so should any REST read of the same data: the queries exist once.
// The venue comes from the viewer in the context; a member of another venue
// is not found, exactly like an unknown one.
package memberquery

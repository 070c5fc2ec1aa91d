// Package opsquery reads a venue's day of operations for staff-facing tools:
// the bookings of a venue-local date, the open alerts, and today's counts
// (classes, bookings, open alerts). MCP (venue://bookings, venue://alerts,
// get_today_overview) calls it; a REST read of the same data should too, so
// each query exists once. The venue comes from the viewer in the context.
package opsquery

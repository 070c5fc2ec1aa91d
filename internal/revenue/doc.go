// Package revenue totals a venue's succeeded payments by currency over a
// period of venue-local dates. MCP (get_revenue_summary, venue://revenue)
// calls it, and any REST report of the same figures should too.
//
// Periods are today, week (Monday to Sunday, ISO 8601, containing today),
// month (the calendar month containing today) or an inclusive range
// YYYY-MM-DD..YYYY-MM-DD of at most MaxRangeDays days, all in the venue's time
// zone. A payment counts when its status is succeeded and its paid_at falls in
// the period; amounts stay in minor units of their own currency, never
// converted.
package revenue

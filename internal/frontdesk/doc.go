// Package frontdesk owns a venue's day of operations as its staff see it, shared by REST, MCP
// and any other entry point:
//
//   - the day's bookings, open alerts and counts (day.go: Bookings, OpenAlerts, DayOverview),
//     read by MCP (venue://bookings, venue://alerts, get_today_overview);
//   - the revenue of a period (revenue.go: RevenueSummary over ParsePeriod), read by MCP
//     (get_revenue_summary, venue://revenue). Periods are today, week (Monday to Sunday, ISO
//     8601, containing today), month (the calendar month containing today) or an inclusive
//     range YYYY-MM-DD..YYYY-MM-DD of at most MaxRangeDays days, all in the venue's time zone.
//     A payment counts when its status is succeeded and its paid_at falls in the period;
//     amounts stay in minor units of their own currency, never converted;
//   - check-in and attendance, below.
//
// The venue always comes from the viewer in the context.
//
// Check-in and attendance: the
// day's classes with attendance counts (ListDay), a class's roster (Roster), checking a member
// in (CheckIn), contacting booked members through the notification outbox (Contact),
// correcting attendance after the fact (Attendance, Correct) and moving a booking's funding to
// another pass (Reassign, CloseAttempt).
//
// Every write runs in one events.WithTx transaction that first locks the booking row (SELECT
// ... FOR UPDATE) and compares its updated_at with the caller's token, so a stale token is 409
// STALE_TARGET and two concurrent corrections cannot both apply. Clips move by conditional
// UPDATEs on the passes (clips_remaining > 0) in that same transaction, passes locked in id
// order, so no pass goes below zero or is charged twice.
//
// Attendance correction sets confirmed, checked_in or no-show on a booking holding a seat, or
// reinstates a cancelled or late-cancelled one. checked_in and no-show need a class that has
// started (FUTURE_ATTENDANCE); a class that has ended needs ended_class_confirmed; a cancelled
// class is refused (CLASS_CANCELLED). Reinstating a late cancellation whose fee was charged or
// settled is 409 REFUND_REVIEW_REQUIRED: the money was taken, and undoing the cancellation
// would leave a fee for a class the member is now recorded as attending; the fee has to be
// reviewed (refunded or kept) on its own first. An unpaid fee is waived by the reinstatement.
// Reinstating a cancellation whose clip was given back takes a clip again.
//
// Funding reassignment records an attempt (BookingReassignment, pending) in a transaction of
// its own, then moves the funding in one transaction that also marks the attempt applied; a
// refusal marks it failed. Since the move is one transaction, clips are never half moved: what
// can be left open is the record, when the server stops between the two transactions or a
// commit's outcome is unknown. Such a pending attempt makes every further reassignment of the
// booking 503 booking_reassign_unresolved until CloseAttempt records what the booking shows
// (applied, not_applied or superseded). A unique index on open_booking_id (the booking's
// id while an attempt is pending, null after) keeps at most one pending attempt per booking,
// so two concurrent reassignments cannot both start.
//
// Audit entries: checkin.check_in, checkin.contact, checkin.attendance.correct,
// checkin.funding.reassign, checkin.funding.close.
package frontdesk

// Package schedule owns a venue's class schedule, for every face and both
// audiences. Tenancy stays in the ent policies, which filter every query to
// the viewer's venue, so no function here takes a venue id.
//
// The public side (List, Get, Row, NewRow) reads the listed classes with
// real-time availability: REST (/venues/{slug}/schedule) and MCP
// (search_schedule, venue://schedule, venue://classes) call the same List, so
// the query exists once. DayRange, Today and Location turn venue-local dates
// into instants.
//
// The staff side (StaffList, StaffGet, StaffRow and the writes) covers who may
// read and change the schedule, the staff list and item (with notification
// availability), edits, cancellations, substitutions, restores, bulk
// operations, historical corrections, the dashboard's class timeline
// (TodayTimeline) and the calendar feed. REST handlers (and any later MCP
// tool) call these functions, so every rule exists once.
//
// Rules decided here, where the contract is silent:
//   - A class is historical once it has ended (end_time at or before now).
//     Staff lists leave historical classes out unless the caller holds
//     scheduling.manage_history and asks for them; ordinary writes refuse them
//     (422 CLASS_ENDED) and send the caller to historical corrections.
//   - Writes run in one transaction (events.WithTx): the class change, the
//     booking cancellations, the class.* event with its webhook jobs, the audit
//     entry and the notification outbox rows commit together or not at all.
//   - Notifications are silent by default: only a request naming an audience
//     and a channel sends anything, and only a staff session holding
//     notifications.send may ask.
package schedule

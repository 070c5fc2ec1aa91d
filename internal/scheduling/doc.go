// Package scheduling owns the staff side of the class schedule: who may read
// and change it, the staff list and item (with notification availability),
// edits, cancellations, substitutions, bulk operations, historical
// corrections, the dashboard's class timeline and the calendar feed. REST
// handlers (and any later MCP tool) call these functions, so every rule exists
// once; tenancy stays in the ent policies, which filter every query to the
// viewer's venue.
//
// Rules decided here, where the contract is silent:
//   - A class is historical once it has ended (end_time at or before now).
//     Lists leave historical classes out unless the caller holds
//     scheduling.manage_history and asks for them; ordinary writes refuse them
//     (422 CLASS_ENDED) and send the caller to historical corrections.
//   - Writes run in one transaction (events.WithTx): the class change, the
//     booking cancellations, the class.* event with its webhook jobs, the audit
//     entry and the notification outbox rows commit together or not at all.
//   - Notifications are silent by default: only a request naming an audience
//     and a channel sends anything, and only a staff session holding
//     notifications.send may ask.
package scheduling

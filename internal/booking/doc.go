// Package booking owns the rules of class bookings, shared by REST, MCP and
// staff tools: booking a seat (or a waitlist place), cancelling and late
// cancelling, waitlist promotion, cancelling every booking of a cancelled
// class, buddy invitations and the live-watch admission window.
//
// # Concurrency
//
// Every change to a class's seats runs in one transaction that first locks
// the class instance row (SELECT ... FOR UPDATE). Capacity, the waitlist and
// its positions are read and written under that lock, so N concurrent
// requests for M free seats give exactly M confirmed bookings and N-M
// waitlisted ones. Arrival order is the order in which requests acquire the
// class lock; a booking's created_at is taken after the lock is held, so it
// orders bookings of one class by arrival. A member's own bookings are
// serialised by a transaction-scoped advisory lock on the member (taken after
// the class lock: daily limits hold under concurrency), and a clip is taken
// from a pass by one conditional UPDATE in the same transaction
// (clips_remaining > 0), so no pass is charged twice or below zero.
// Lock order is always class, then member, then passes (restorations by
// id); promotions take no member lock.
//
// # Rules and defaults
//
// A venue's rules live in its BookingPolicy row (ent/schema/booking_buddy.go);
// without one the defaults of DefaultPolicy apply:
//
//   - booking opens 30 days before a class starts and closes at the start;
//   - no daily limit (a limit counts the member's live bookings, waitlist
//     places included, whose classes start on the same venue-local day);
//   - a member's cancellation less than 12 hours before the start is a late
//     cancellation: status late-cancelled, the clip is kept (forfeited) and
//     the venue's late-cancellation fee, if any, is recorded on the booking
//     as unpaid (late_cancel_fee_minor, fee_status); the fee may be set per
//     pass type. Before that the booking is cancelled and its clip restored.
//     Nobody cancels after the class started.
//
// Pass eligibility: the pass must be the member's, active, valid on the
// class's venue-local date (valid_from..valid_to), grant the class's mode
// (online or in person), allow the class's brand (PASS_BRAND_RESTRICTED) and
// class type (CLASS_TYPE_RESTRICTED), and have a clip left (unless it has no
// clip count: unlimited). Without a pass_id the best eligible pass is chosen:
// unlimited passes first, then the clip pass that expires first.
//
// A confirmed booking takes its clip at once. A waitlisted booking takes
// none; it takes one when promoted. Promotion happens when a seat frees (a
// cancellation, a late cancellation) before the class starts: the first
// waitlisted booking whose member still holds an eligible pass (its own, or
// another eligible pass of the member's) takes the seat (booking.promoted);
// a waitlisted member without a usable pass is skipped and stays first in
// line for the next seat.
//
// Waitlist positions are ranks: 1 is next, contiguous; when a booking leaves
// the waitlist the ones behind it move up.
//
// # The member wall
//
// A member booking for themselves (AsMember) sees and changes only their own
// bookings and passes (rule.MemberOwnedTypes). The few steps that must reach
// other members' bookings are named sites, each bound to the class the
// caller locked in the viewer's venue and listing only what it touches.
// Three are members sites (system.CrossMembers: the member wall steps aside
// for Booking, the venue rules still apply): booking.waitlist_rank
// (counting the ranked places ahead of a new one), booking.waitlist_gap
// (moving up the places behind one that was left) and booking.buddy_invitee
// (whether an invitee already holds a live booking of the class). One is a
// bypass site, since it runs whoever freed the seat (a member, staff, a
// job): booking.waitlist_promotion (reading the waitlist, charging and
// confirming the promoted members). Whether a class is full comes from its
// booked_count, kept by a database trigger, not from reading its bookings.
//
// Events (package events, in the same transaction): booking.created for a
// confirmed booking, booking.waitlisted for a waitlist place,
// booking.promoted, booking.cancelled (data.reason: member, late_member,
// class_cancelled). Audit entries: booking.created, booking.cancelled,
// booking.late_cancelled, booking.buddy_invited, booking.buddy_accepted.
package booking

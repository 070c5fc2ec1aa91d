// Package appointments runs a salon's book: services with variants,
// providers assigned to them with their working hours and time off, the
// venue's appointment policy, the availability read (free start times on
// the venue's slot grid, built in the venue's time zone), and members' and
// staff's appointments: booking, cancelling, the staff actions (check-in,
// start, complete, no-show, cancel, reschedule) and visits of several
// services booked all or nothing.
//
// No provider and no room is double-booked: that is a database fact, an
// exclusion constraint over each provider's (and room's) busy spans of
// seat-holding appointments (migration *_appointments_exclusion.sql). A
// booking checks the slot against availability first, for a clear answer,
// and an insert that loses a race to another booking is refused by the
// constraint (SQLSTATE 23P01) and answered 409 SLOT_UNAVAILABLE.
//
// A provider is an Instructor row of the venue (staff who teach classes
// also treat clients); the classes they teach are busy time.
//
// Appointment rows are member-owned (rule.MemberOwnedTypes): a member sees
// only its own. Availability reads the busy spans of every member's
// appointments of the providers asked for through the members site
// appointments.busy, which returns only their spans.
package appointments

// Package seed creates synthetic venues at scale for demos and benchmarks
// (`venuectl seed`), deterministic for a given seed.
//
// Each venue is written in one transaction with PostgreSQL COPY straight into
// the tables (the column names of ent/migrate), which is what makes 100,000
// members take seconds rather than minutes. Seeding is an operator's bulk
// load below the ent layer: it writes organization_id on every row itself and
// generates data that already satisfies the rules the policies and hooks
// enforce (one venue per row, bookings within capacity, one currency).
//
// One venue of 1,000,000 members (users, members, passes, payments, 14 days of
// classes and bookings) takes about four and a half minutes on a shared
// 2-core machine, most of it the members COPY, whose rows the member search
// trigger fills (docs/benchmarks.md).
//
// Decisions:
//   - Members (Params.Members) are per venue.
//   - Venue i (1-based) of seed S has slug seed-S-venue-i. Ids come from a
//     random source seeded with (S, i), so a seed always produces the same
//     rows, except that the schedule starts on the day of the run (venue
//     local; Params.Now).
//   - Users are global and unique by email, so every seeded email carries
//     its venue's slug: member-000042@seed-S-venue-i.example.
//   - Re-running with the same seed does not fail: a venue whose slug exists
//     is left as it is and reported in Result.Skipped (its rows are not
//     counted). Use another seed for fresh data.
//   - Each venue gets two brands, locations in proportion to its members
//     (from 2 up to 40, two rooms each), six class types, instructors, six
//     classes per room per day for Params.Days days from today, bookings
//     filling 50% to 115% of each class (the excess waitlisted), four pass
//     types (drop-in, clip card, monthly and flexible membership), one pass
//     per member and one payment per pass, in DKK.
package seed

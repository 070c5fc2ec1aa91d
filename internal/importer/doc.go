// Package importer imports one venue's data from a document in the import
// format (shared contract import-format.md, "venue-import/1") into the venue
// of the viewer in the context.
//
// Parse reads a document strictly: malformed JSON is an error naming its line
// and column; a missing or different "format", unknown fields at any level
// and values of the wrong JSON type are errors. Import then validates the
// whole document before it writes anything, and writes it in one transaction
// (ent Tx): on any error nothing is written. Every problem names the section,
// the item's ref (or #index when the ref is missing) and the field, as in
// `classes[c7].room: unknown room ref "r9"`; *Error lists them all (up to 50).
// Rooms are nested in locations but their refs form section "rooms".
//
// Matching and re-runs. Items are matched on (venue, import_ref): the ref of
// an item is stored in the import_ref column of its row, so re-running a
// document updates the same rows (same ids) and never duplicates them. A
// document may name refs of earlier imports that it does not contain (a
// bookings-only document naming members and classes imported before); those
// are resolved, and validated, against the database, dry runs included.
// Members are matched on their person: the global user with the same
// (lower-cased) email, enrolled through package members; a new person's
// account is created in state imported_unclaimed.
//
// Decisions where the contract is silent:
//   - Capacity: every booking status holds a seat except waitlisted,
//     cancelled and late-cancelled (a late cancellation gives the seat
//     back; a no-show kept it). Seats held by bookings already in the
//     database that the document does not replace count too. Waitlisted
//     bookings are numbered per class, after those already waiting.
//   - Money: pass types, payments, products (addons) and gift cards carry
//     any ISO 4217 currency, the venue's or another (a pass type priced in
//     EUR at a Danish venue); services stay in the venue's currency. A pass
//     may carry an optional "currency" that must equal its pass type's.
//     Amounts are non-negative integers in minor units.
//   - A booking's or payment's pass must belong to the same member; a payment
//     with a pass and no member gets the pass's member. A member holds at
//     most one seat per class.
//   - Dates (valid_from, valid_to) are calendar dates of the venue, stored in
//     date columns as given; times are RFC 3339 with an offset.
//   - Defaults: class status scheduled, pass status active, booking status
//     confirmed, payment status pending and kind other, alert severity info,
//     member status active, room_type studio, pricing_mode fixed. A class
//     without capacity takes its room's; a class without location takes its
//     room's, and a room in another location than the class's is an error.
//   - Brand and pass type slugs, unique per venue, may be given; otherwise
//     they are derived from the name (name, name-2, ...), stable on re-runs.
//   - Dry run (Options.DryRun) performs every write in the transaction and
//     rolls it back, so database constraints are checked too; its ids of new
//     items are those this run would have assigned.
//
// Additive fields beyond the contract's example (all optional): brands slug,
// description, color; class_types slug, description, duration_minutes,
// color; instructors bio; classes listed and workshop_entry {kind
// (workshop|course), id (UUID), slug}; pass_types slug, description,
// pricing_mode (fixed|flexible_quantity), flexible_pricing_config (required
// for flexible_quantity; model.FlexiblePricingConfig), allowed_brands and
// allowed_class_types (refs); members status; passes currency; bookings
// cancelled_at, checked_in_at; payments processor_payment_id; alerts
// resolved_at.
//
// The catalogue extension (docs/import-format-extensions.md, still
// venue-import/1): a top-level "venue" object with the venue's public
// profile (VenueProfile; name, slug, plan, currency and time zone are not
// importable), theming fields on brands, and sections opening_hours,
// amenities, photos, addons and gift_cards, written after alerts. The venue
// object and the brands' theming fields patch: a field that is absent leaves
// the stored value as it is, an empty string clears it, so documents written
// before the extension import exactly as before. Items of the new sections
// are replaced whole like every other item. Result.Venue says whether the
// venue object was applied. Gift card codes are stored upper-case and are
// unique per venue ignoring case; a code another card of the venue holds is
// an error (moving a code between two cards takes two runs).
//
// Speed: rows are inserted with CreateBulk in batches of 500 and people are
// enrolled a few thousand at a time, so a document of 10,000 members imports
// in seconds. Only one import per venue runs at a time (an advisory lock).
//
// The services extension: a section services (appointment services, with
// accepts_inquiries for booking inquiries), written after gift_cards; slugs
// are derived from names when absent and unique per venue, like pass types'.
package importer

// Package demo creates the demo venue that the server shows on an empty
// database (operations.md): a realistic week of a Copenhagen studio, loaded
// through the importer like any venue's data, with an owner and a read-only
// API key carrying every read scope.
//
// Ensure does nothing when any venue exists. It holds a PostgreSQL advisory
// lock while it checks and creates, so server instances starting together
// create one demo venue, and it writes the venue, its data, its owner and
// its key in one transaction: a failure leaves the database empty and the
// next start tries again.
//
// The data is a function of the time given (Document): classes run on the
// seven venue-local days from that day, classes already over are completed
// with attendance, and one full class has a waitlist. The venue also gets
// its public profile, themed brands, opening hours, amenities, photos,
// add-ons in two categories and two gift cards (profile.go).
package demo

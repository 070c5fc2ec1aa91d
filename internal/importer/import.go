package importer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// ErrNoVenue means Import was called without a venue viewer in the context.
var ErrNoVenue = errors.New("importer: no venue viewer in context")

// Options tunes an import.
type Options struct {
	// DryRun validates everything, the writes included, and then rolls back.
	DryRun bool
	// Progress, when set, is called as items are written.
	Progress func(done, total int)
}

// Result is the outcome of an import, as `venuectl import --json` prints it.
type Result struct {
	// Counts is the number of items per section (created or updated).
	Counts map[string]int `json:"counts"`
	// Created is the number of items per section that were new.
	Created map[string]int `json:"created"`
	// IDs maps each section's refs to the ids of their rows.
	IDs map[string]map[string]string `json:"ids"`
	// Venue is true when the document's venue object was applied to the
	// venue's profile.
	Venue bool `json:"venue,omitempty"`
	// DryRun is true when nothing was written.
	DryRun bool `json:"dry_run,omitempty"`
}

// Import imports doc into the venue of the viewer of ctx, in one
// transaction: on any error nothing is written. An invalid document gives an
// *Error listing every problem found.
func Import(ctx context.Context, client *ent.Client, doc *Document, opts Options) (*Result, error) {
	org, ok := viewer.VenueFromContext(ctx)
	if !ok {
		return nil, ErrNoVenue
	}
	if doc.Format != Format {
		return nil, &Error{Problems: []Problem{{Field: "format", Message: fmt.Sprintf("unsupported format %q; want %q", doc.Format, Format)}}}
	}
	c, commit, rollback, err := begin(ctx, client, opts.DryRun)
	if err != nil {
		return nil, err
	}
	committed := false
	defer func() {
		if !committed {
			rollback()
		}
	}()
	// One import per venue at a time: a second waits for the first, then
	// sees its rows and updates them.
	if _, err := c.ExecContext(system.RawSQL(ctx, "importer.venue_lock"), "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", "venue-import:"+org.String()); err != nil {
		return nil, fmt.Errorf("import: lock venue: %w", err)
	}
	p, err := prepare(ctx, c, org, doc)
	if err != nil {
		return nil, err
	}
	p.progress, p.total = opts.Progress, p.items()
	created, err := p.write(ctx, c)
	if err != nil {
		return nil, err
	}
	res := p.result(created)
	if opts.DryRun {
		res.DryRun = true
		return res, nil // the deferred rollback discards every write
	}
	if err := commit(); err != nil {
		return nil, fmt.Errorf("import: commit: %w", err)
	}
	committed = true
	return res, nil
}

// begin starts the import's transaction. Called with a transactional client,
// the import joins the caller's transaction, which then decides; a dry run
// needs a transaction of its own to roll back.
func begin(ctx context.Context, client *ent.Client, dryRun bool) (c *ent.Client, commit func() error, rollback func(), err error) {
	tx, err := client.Tx(ctx)
	switch {
	case errors.Is(err, ent.ErrTxStarted) && dryRun:
		return nil, nil, nil, errors.New("import: a dry run needs its own transaction")
	case errors.Is(err, ent.ErrTxStarted):
		return client, func() error { return nil }, func() {}, nil
	case err != nil:
		return nil, nil, nil, fmt.Errorf("import: begin: %w", err)
	}
	return tx.Client(), tx.Commit, func() { _ = tx.Rollback() }, nil
}

// prepare reads what the document names and validates it completely.
func prepare(ctx context.Context, c *ent.Client, org uuid.UUID, doc *Document) (*plan, error) {
	venue, err := c.Organization.Query().Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("import: read venue: %w", err)
	}
	db, err := loadExisting(ctx, c, namedRefs(doc))
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	p := newPlan(doc, org, venue.Currency, db)
	p.checkBrands()
	p.checkLocations()
	p.checkClassTypes()
	p.checkInstructors()
	p.checkPassTypes()
	p.checkClasses()
	p.checkMembers()
	p.checkPasses()
	p.checkBookings()
	p.checkPayments()
	p.checkAlerts()
	p.checkVenue()
	p.checkOpeningHours()
	p.checkAmenities()
	p.checkPhotos()
	p.checkAddons()
	p.checkGiftCards()
	p.checkServices()
	for _, check := range []func(context.Context, *ent.Client) error{p.assignSlugs, p.checkDisplayIDs, p.checkCapacity, p.checkGiftCodes, p.assignServiceSlugs} {
		if err := check(ctx, c); err != nil {
			return nil, fmt.Errorf("import: %w", err)
		}
	}
	if err := p.ps.err(); err != nil {
		return nil, err
	}
	return p, nil
}

func newPlan(doc *Document, org uuid.UUID, currency string, db existing) *plan {
	p := &plan{
		doc: doc, venue: org, currency: currency, db: db,
		ids:              map[string]map[string]uuid.UUID{},
		defined:          map[string]map[string]bool{},
		roomLocation:     map[uuid.UUID]uuid.UUID{},
		roomCapacity:     map[uuid.UUID]int{},
		classCapacity:    map[uuid.UUID]int{},
		passTypeCurrency: map[uuid.UUID]string{},
		passMember:       map[uuid.UUID]string{},
		passMemberRef:    map[uuid.UUID]string{},
	}
	for _, s := range Sections {
		p.ids[s] = map[string]uuid.UUID{}
		p.defined[s] = map[string]bool{}
	}
	register(p.ids[SecBrands], db.brands, func(x *ent.Brand) uuid.UUID { return x.ID })
	register(p.ids[SecLocations], db.locations, func(x *ent.Location) uuid.UUID { return x.ID })
	register(p.ids[SecRooms], db.rooms, func(x *ent.Room) uuid.UUID { return x.ID })
	register(p.ids[SecClassTypes], db.classTypes, func(x *ent.ClassType) uuid.UUID { return x.ID })
	register(p.ids[SecInstructors], db.instructors, func(x *ent.Instructor) uuid.UUID { return x.ID })
	register(p.ids[SecPassTypes], db.passTypes, func(x *ent.PassType) uuid.UUID { return x.ID })
	register(p.ids[SecClasses], db.classes, func(x *ent.ClassInstance) uuid.UUID { return x.ID })
	register(p.ids[SecMembers], db.members, func(x *ent.Member) uuid.UUID { return x.ID })
	register(p.ids[SecPasses], db.passes, func(x *ent.Pass) uuid.UUID { return x.ID })
	register(p.ids[SecBookings], db.bookings, func(x *ent.Booking) uuid.UUID { return x.ID })
	register(p.ids[SecPayments], db.payments, func(x *ent.Payment) uuid.UUID { return x.ID })
	register(p.ids[SecAlerts], db.alerts, func(x *ent.Alert) uuid.UUID { return x.ID })
	register(p.ids[SecOpeningHours], db.openingHours, func(x *ent.OpeningHours) uuid.UUID { return x.ID })
	register(p.ids[SecAmenities], db.amenities, func(x *ent.Amenity) uuid.UUID { return x.ID })
	register(p.ids[SecPhotos], db.photos, func(x *ent.Photo) uuid.UUID { return x.ID })
	register(p.ids[SecAddons], db.addons, func(x *ent.AddonProduct) uuid.UUID { return x.ID })
	register(p.ids[SecGiftCards], db.giftCards, func(x *ent.GiftCard) uuid.UUID { return x.ID })
	register(p.ids[SecServices], db.services, func(x *ent.Service) uuid.UUID { return x.ID })
	return p
}

func register[T any](ids map[string]uuid.UUID, rows map[string]T, id func(T) uuid.UUID) {
	for ref, row := range rows {
		ids[ref] = id(row)
	}
}

// write writes every section in order and returns the created counts.
func (p *plan) write(ctx context.Context, c *ent.Client) (map[string]int, error) {
	created := map[string]int{}
	steps := []struct {
		section string
		write   func(context.Context, *ent.Client) error
		isNew   func() int
	}{
		{SecBrands, p.writeBrands, func() int { return countNew(p.brands, func(x *brandPlan) bool { return x.ex == nil }) }},
		{SecLocations, p.writeLocations, func() int { return countNew(p.locations, func(x *locationPlan) bool { return x.ex == nil }) }},
		{SecRooms, p.writeRooms, func() int { return countNew(p.rooms, func(x *roomPlan) bool { return x.ex == nil }) }},
		{SecClassTypes, p.writeClassTypes, func() int { return countNew(p.classTypes, func(x *classTypePlan) bool { return x.ex == nil }) }},
		{SecInstructors, p.writeInstructors, func() int { return countNew(p.instructors, func(x *instructorPlan) bool { return x.ex == nil }) }},
		{SecPassTypes, p.writePassTypes, func() int { return countNew(p.passTypes, func(x *passTypePlan) bool { return x.ex == nil }) }},
		{SecClasses, p.writeClasses, func() int { return countNew(p.classes, func(x *classPlan) bool { return x.ex == nil }) }},
		{SecMembers, func(ctx context.Context, c *ent.Client) error {
			n, err := p.writeMembers(ctx, c)
			created[SecMembers] = n
			return err
		}, nil},
		{SecPasses, p.writePasses, func() int { return countNew(p.passes, func(x *passPlan) bool { return x.ex == nil }) }},
		{SecBookings, p.writeBookings, func() int { return countNew(p.bookings, func(x *bookingPlan) bool { return x.ex == nil }) }},
		{SecPayments, p.writePayments, func() int { return countNew(p.payments, func(x *paymentPlan) bool { return x.ex == nil }) }},
		{SecAlerts, p.writeAlerts, func() int { return countNew(p.alerts, func(x *alertPlan) bool { return x.ex == nil }) }},
		{SecVenue, p.writeVenue, nil},
		{SecOpeningHours, p.writeOpeningHours, func() int {
			return countNew(p.openingHours, func(x *openingHoursPlan) bool { return x.ex == nil })
		}},
		{SecAmenities, p.writeAmenities, func() int { return countNew(p.amenities, func(x *amenityPlan) bool { return x.ex == nil }) }},
		{SecPhotos, p.writePhotos, func() int { return countNew(p.photos, func(x *photoPlan) bool { return x.ex == nil }) }},
		{SecAddons, p.writeAddons, func() int { return countNew(p.addons, func(x *addonPlan) bool { return x.ex == nil }) }},
		{SecGiftCards, p.writeGiftCards, func() int { return countNew(p.giftCards, func(x *giftCardPlan) bool { return x.ex == nil }) }},
		{SecServices, p.writeServices, func() int { return countNew(p.services, func(x *servicePlan) bool { return x.ex == nil }) }},
	}
	for _, s := range steps {
		if err := s.write(ctx, c); err != nil {
			var ie *Error
			if errors.As(err, &ie) {
				return nil, err
			}
			return nil, fmt.Errorf("import: write %s: %w", s.section, err)
		}
		if s.isNew != nil {
			created[s.section] = s.isNew()
		}
	}
	return created, nil
}

func countNew[T any](items []T, isNew func(T) bool) int {
	n := 0
	for _, x := range items {
		if isNew(x) {
			n++
		}
	}
	return n
}

// items counts the document's items, for progress.
func (p *plan) items() int {
	return len(p.brands) + len(p.locations) + len(p.rooms) + len(p.classTypes) + len(p.instructors) +
		len(p.passTypes) + len(p.classes) + len(p.members) + len(p.passes) + len(p.bookings) +
		len(p.payments) + len(p.alerts) + len(p.openingHours) + len(p.amenities) + len(p.photos) +
		len(p.addons) + len(p.giftCards) + len(p.services)
}

func (p *plan) advance(n int) {
	p.done += n
	if p.progress != nil {
		p.progress(p.done, p.total)
	}
}

func (p *plan) result(created map[string]int) *Result {
	res := &Result{Counts: map[string]int{}, Created: created, IDs: map[string]map[string]string{}}
	for _, s := range Sections {
		ids := make(map[string]string, len(p.defined[s]))
		for ref := range p.defined[s] {
			ids[ref] = p.ids[s][ref].String()
		}
		res.Counts[s] = len(ids)
		res.IDs[s] = ids
		if _, ok := created[s]; !ok {
			created[s] = 0
		}
	}
	if p.doc.Venue != nil {
		res.Venue = true
	}
	return res
}

// setTime sets an optional time, or clears it when v is nil.
func setTime(v *time.Time, set func(time.Time), clear func()) {
	if v == nil {
		clear()
		return
	}
	set(*v)
}

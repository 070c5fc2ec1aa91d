package importer

import (
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

// plan is a validated document: every item with its parsed values, the row it
// updates (ex, nil for a new row) and its id.
type plan struct {
	doc      *Document
	venue    uuid.UUID
	currency string
	ps       problems

	brands      []*brandPlan
	locations   []*locationPlan
	rooms       []*roomPlan
	classTypes  []*classTypePlan
	instructors []*instructorPlan
	passTypes   []*passTypePlan
	classes     []*classPlan
	members     []*memberPlan
	passes      []*passPlan
	bookings    []*bookingPlan
	payments    []*paymentPlan
	alerts      []*alertPlan

	// The catalogue extension (plan_extra.go); country is the venue
	// object's normalised country code.
	openingHours []*openingHoursPlan
	amenities    []*amenityPlan
	photos       []*photoPlan
	addons       []*addonPlan
	services     []*servicePlan
	giftCards    []*giftCardPlan
	country      string

	// db holds the rows of earlier imports that the document names, by ref.
	db existing
	// ids maps section and ref to the row id, for every ref of the document
	// and every ref it names that exists; ids of new members are filled in
	// when they are written.
	ids map[string]map[string]uuid.UUID
	// defined marks the refs the document itself defines, per section.
	defined map[string]map[string]bool
	// roomIndex numbers rooms across locations, for messages.
	roomIndex int

	roomLocation     map[uuid.UUID]uuid.UUID
	roomCapacity     map[uuid.UUID]int
	classCapacity    map[uuid.UUID]int
	passTypeCurrency map[uuid.UUID]string
	// passMember names each pass's member (memberIdentity); passMemberRef
	// is the member ref of the document's passes.
	passMember    map[uuid.UUID]string
	passMemberRef map[uuid.UUID]string

	progress    func(done, total int)
	done, total int
}

type brandPlan struct {
	it   item
	in   Brand
	id   uuid.UUID
	ex   *ent.Brand
	slug string
}

type locationPlan struct {
	it item
	in Location
	id uuid.UUID
	ex *ent.Location
}

type roomPlan struct {
	it       item
	in       Room
	id       uuid.UUID
	ex       *ent.Room
	location *locationPlan
	roomType string
}

type classTypePlan struct {
	it    item
	in    ClassType
	id    uuid.UUID
	ex    *ent.ClassType
	brand *uuid.UUID
}

type instructorPlan struct {
	it item
	in Instructor
	id uuid.UUID
	ex *ent.Instructor
}

type passTypePlan struct {
	it         item
	in         PassType
	id         uuid.UUID
	ex         *ent.PassType
	slug       string
	mode       string
	brands     []uuid.UUID
	classTypes []uuid.UUID
}

type classPlan struct {
	it                   item
	in                   Class
	id                   uuid.UUID
	ex                   *ent.ClassInstance
	classType            uuid.UUID
	instructor, location *uuid.UUID
	room                 *uuid.UUID
	start, end           time.Time
	capacity             int
	status               string
	listed               bool
	workshopKind         string
	workshopID           *uuid.UUID
}

type memberPlan struct {
	it       item
	in       Member
	ex       *ent.Member
	email    string
	joinedAt time.Time
}

type passPlan struct {
	it        item
	in        Pass
	id        uuid.UUID
	ex        *ent.Pass
	passType  uuid.UUID
	validFrom time.Time
	validTo   *time.Time
	status    string
}

type bookingPlan struct {
	it                       item
	in                       Booking
	id                       uuid.UUID
	ex                       *ent.Booking
	class                    uuid.UUID
	pass                     *uuid.UUID
	status                   string
	createdAt                *time.Time
	cancelledAt, checkedInAt *time.Time
	waitlistPosition         *int
}

type paymentPlan struct {
	it        item
	in        Payment
	id        uuid.UUID
	ex        *ent.Payment
	memberRef string
	member    *uuid.UUID // a member of an earlier import named through the pass
	pass      *uuid.UUID
	paidAt    *time.Time
	status    string
	kind      string
}

type alertPlan struct {
	it                    item
	in                    Alert
	id                    uuid.UUID
	ex                    *ent.Alert
	severity              string
	createdAt, resolvedAt *time.Time
}

// existing holds rows of earlier imports by ref, per section.
type existing struct {
	brands      map[string]*ent.Brand
	locations   map[string]*ent.Location
	rooms       map[string]*ent.Room
	classTypes  map[string]*ent.ClassType
	instructors map[string]*ent.Instructor
	passTypes   map[string]*ent.PassType
	classes     map[string]*ent.ClassInstance
	members     map[string]*ent.Member
	passes      map[string]*ent.Pass
	bookings    map[string]*ent.Booking
	payments    map[string]*ent.Payment
	alerts      map[string]*ent.Alert

	openingHours map[string]*ent.OpeningHours
	amenities    map[string]*ent.Amenity
	photos       map[string]*ent.Photo
	addons       map[string]*ent.AddonProduct
	giftCards    map[string]*ent.GiftCard
	services     map[string]*ent.Service
}

package importer

import (
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
)

type openingHoursPlan struct {
	it       item
	in       OpeningHours
	id       uuid.UUID
	ex       *ent.OpeningHours
	location *uuid.UUID
}

type amenityPlan struct {
	it       item
	in       Amenity
	id       uuid.UUID
	ex       *ent.Amenity
	location *uuid.UUID
}

type photoPlan struct {
	it              item
	in              Photo
	id              uuid.UUID
	ex              *ent.Photo
	location, brand *uuid.UUID
}

type addonPlan struct {
	it       item
	in       Addon
	id       uuid.UUID
	ex       *ent.AddonProduct
	category string
	active   bool
}

type giftCardPlan struct {
	it        item
	in        GiftCard
	id        uuid.UUID
	ex        *ent.GiftCard
	code      string
	giftType  string
	status    string
	remaining int64
	expiresAt *time.Time
	passType  *uuid.UUID
}

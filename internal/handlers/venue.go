package handlers

import (
	"context"
	"sort"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/amenity"
	"github.com/venueplatform/venue/ent/brand"
	"github.com/venueplatform/venue/ent/classtype"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/location"
	"github.com/venueplatform/venue/ent/openinghours"
	"github.com/venueplatform/venue/ent/photo"
	"github.com/venueplatform/venue/ent/room"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/gen/apient"
)

// GetVenue implements getVenue: the public profile.
func (h *Handler) GetVenue(ctx context.Context, p api.GetVenueParams) (*api.VenueProfileResponse, error) {
	ctx, org, err := h.venueContext(ctx, p.Slug)
	if err != nil {
		return nil, err
	}
	brands, err := h.brandItems(ctx)
	if err != nil {
		return nil, err
	}
	extras, err := h.venueExtras(ctx)
	if err != nil {
		return nil, err
	}
	locs, err := h.locationDetails(ctx, extras)
	if err != nil {
		return nil, err
	}
	v := api.VenueProfile{
		ID: org.ID, Name: org.Name, Slug: org.Slug, Description: org.Description, Address: org.Address,
		City: org.City, Country: org.Country, Timezone: org.Timezone, Currency: org.Currency,
		Website: org.Website, Email: org.Email, Phone: org.Phone, LogoURL: org.LogoURL,
		World:        api.VenueProfileWorld(org.World),
		Brands:       brands,
		Locations:    locs,
		OpeningHours: extras.hours[uuid.Nil],
		Amenities:    extras.amenities[uuid.Nil],
		Photos:       extras.photos[uuid.Nil],
	}
	v.Lat, v.Lng = nullableNumber(org.Lat), nullableNumber(org.Lng)
	return &api.VenueProfileResponse{Data: v}, nil
}

// ListVenueLocations implements listVenueLocations.
func (h *Handler) ListVenueLocations(ctx context.Context, p api.ListVenueLocationsParams) (*api.LocationListResponse, error) {
	ctx, _, err := h.venueContext(ctx, p.Slug)
	if err != nil {
		return nil, err
	}
	x, err := h.venueExtras(ctx)
	if err != nil {
		return nil, err
	}
	locs, err := h.locationDetails(ctx, x)
	if err != nil {
		return nil, err
	}
	return &api.LocationListResponse{Data: locs, Meta: api.ListMeta{Total: len(locs)}}, nil
}

// ListVenueClassTypes implements listVenueClassTypes.
func (h *Handler) ListVenueClassTypes(ctx context.Context, p api.ListVenueClassTypesParams) (*api.ClassTypeListResponse, error) {
	ctx, _, err := h.venueContext(ctx, p.Slug)
	if err != nil {
		return nil, err
	}
	cts, err := h.client.ClassType.Query().Where(classtype.Active(true)).WithBrand().
		Order(ent.Asc(classtype.FieldName), ent.Asc(classtype.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	data := classTypeItems(cts)
	return &api.ClassTypeListResponse{Data: data, Meta: api.ListMeta{Total: len(data)}}, nil
}

func classTypeItems(cts []*ent.ClassType) []api.ClassTypeItem {
	out := make([]api.ClassTypeItem, len(cts))
	for i, ct := range cts {
		out[i] = api.ClassTypeItem{
			ID: ct.ID, Name: ct.Name, Slug: ct.Slug, Description: ct.Description,
			DurationMinutes: ct.DurationMinutes, Color: ct.Color,
		}
		if b := ct.Edges.Brand; b != nil {
			out[i].Brand.SetTo(api.NamedRef{ID: b.ID, Name: b.Name})
		} else {
			out[i].Brand.SetToNull()
		}
	}
	return out
}

// ListVenueInstructors implements listVenueInstructors. Only public profile
// fields are shown: no email.
func (h *Handler) ListVenueInstructors(ctx context.Context, p api.ListVenueInstructorsParams) (*api.InstructorListResponse, error) {
	ctx, _, err := h.venueContext(ctx, p.Slug)
	if err != nil {
		return nil, err
	}
	ins, err := h.client.Instructor.Query().Where(instructor.Active(true)).
		Order(ent.Asc(instructor.FieldFirstName), ent.Asc(instructor.FieldLastName), ent.Asc(instructor.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	data := make([]api.InstructorItem, len(ins))
	for i, in := range ins {
		data[i] = api.InstructorItem{
			ID: in.ID, FirstName: in.FirstName, LastName: in.LastName, Name: fullName(in.FirstName, in.LastName),
			Bio: in.Bio, PhotoURL: in.PhotoURL,
		}
	}
	return &api.InstructorListResponse{Data: data, Meta: api.ListMeta{Total: len(data)}}, nil
}

// ListVenueBrands implements listVenueBrands.
func (h *Handler) ListVenueBrands(ctx context.Context, p api.ListVenueBrandsParams) (*api.BrandListResponse, error) {
	ctx, _, err := h.venueContext(ctx, p.Slug)
	if err != nil {
		return nil, err
	}
	data, err := h.brandItems(ctx)
	if err != nil {
		return nil, err
	}
	return &api.BrandListResponse{Data: data, Meta: api.ListMeta{Total: len(data)}}, nil
}

// brandItems reads the active brands with their active class type counts.
func (h *Handler) brandItems(ctx context.Context) ([]api.BrandItem, error) {
	brands, err := h.client.Brand.Query().Where(brand.Active(true)).
		WithClassTypes(func(q *ent.ClassTypeQuery) {
			q.Where(classtype.Active(true)).Select(classtype.FieldID, classtype.FieldBrandID)
		}).
		Order(ent.Asc(brand.FieldSortOrder), ent.Asc(brand.FieldName), ent.Asc(brand.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.BrandItem, len(brands))
	for i, b := range brands {
		out[i] = brandItem(b, len(b.Edges.ClassTypes))
	}
	return out, nil
}

func brandItem(b *ent.Brand, classTypes int) api.BrandItem {
	links := api.BrandItemSocialLinks{}
	for k, v := range b.SocialLinks {
		links[k] = v
	}
	return api.BrandItem{
		ID: b.ID, Name: b.Name, Slug: b.Slug, Description: b.Description, Tagline: b.Tagline,
		LogoURL: b.LogoURL, Website: b.Website,
		Theme:           api.BrandItemTheme{PrimaryColor: b.Color, SecondaryColor: b.SecondaryColor},
		SocialLinks:     links,
		ClassTypesCount: classTypes,
	}
}

// venueExtras are opening hours, amenities and photos by location (uuid.Nil:
// the venue as a whole).
type venueExtras struct {
	hours     map[uuid.UUID][]api.OpeningHours
	amenities map[uuid.UUID][]api.Amenity
	photos    map[uuid.UUID][]api.Photo
}

func locationKey(id *uuid.UUID) uuid.UUID {
	if id == nil {
		return uuid.Nil
	}
	return *id
}

func (h *Handler) venueExtras(ctx context.Context) (*venueExtras, error) {
	x := &venueExtras{
		hours:     map[uuid.UUID][]api.OpeningHours{uuid.Nil: {}},
		amenities: map[uuid.UUID][]api.Amenity{uuid.Nil: {}},
		photos:    map[uuid.UUID][]api.Photo{uuid.Nil: {}},
	}
	hours, err := h.client.OpeningHours.Query().Order(ent.Asc(openinghours.FieldWeekday), ent.Asc(openinghours.FieldOpensAt)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, oh := range hours {
		k := locationKey(oh.LocationID)
		x.hours[k] = append(x.hours[k], apient.OpeningHours(oh))
	}
	ams, err := h.client.Amenity.Query().Order(ent.Asc(amenity.FieldSortOrder), ent.Asc(amenity.FieldName)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, a := range ams {
		k := locationKey(a.LocationID)
		x.amenities[k] = append(x.amenities[k], apient.Amenity(a))
	}
	photos, err := h.client.Photo.Query().Where(photo.BrandIDIsNil()).Order(ent.Asc(photo.FieldSortOrder), ent.Asc(photo.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, ph := range photos {
		k := locationKey(ph.LocationID)
		x.photos[k] = append(x.photos[k], apient.Photo(ph))
	}
	return x, nil
}

// locationDetails reads the active locations with rooms and capacity, and
// gives each its hours, amenities and photos from x.
func (h *Handler) locationDetails(ctx context.Context, x *venueExtras) ([]api.LocationDetail, error) {
	locs, err := h.client.Location.Query().Where(location.Active(true)).
		WithRooms(func(q *ent.RoomQuery) { q.Where(room.Active(true)).Order(ent.Asc(room.FieldName)) }).
		Order(ent.Asc(location.FieldName), ent.Asc(location.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]api.LocationDetail, len(locs))
	for i, l := range locs {
		d := api.LocationDetail{
			ID: l.ID, Name: l.Name, Address: l.Address, City: l.City,
			Rooms:        apient.Map(l.Edges.Rooms, apient.Room),
			OpeningHours: nonNil(x.hours[l.ID]),
			Amenities:    nonNil(x.amenities[l.ID]),
			Photos:       nonNil(x.photos[l.ID]),
		}
		d.Lat, d.Lng = nullableNumber(l.Lat), nullableNumber(l.Lng)
		for _, r := range l.Edges.Rooms {
			d.Capacity += r.Capacity
		}
		out[i] = d
	}
	return out, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func nullableNumber(f *float64) api.NilFloat64 {
	if f == nil {
		return api.NilFloat64{Null: true}
	}
	return api.NewNilFloat64(*f)
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

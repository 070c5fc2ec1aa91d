package appointments

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/location"
	"github.com/venueplatform/venue/ent/openinghours"
	"github.com/venueplatform/venue/ent/photo"
	"github.com/venueplatform/venue/internal/apperr"
)

// MaxGallery bounds a location's gallery.
const MaxGallery = 20

// withLocationParts loads a location's hours (by weekday) and gallery (in
// order).
func withLocationParts(q *ent.LocationQuery) *ent.LocationQuery {
	return q.WithOpeningHours(func(h *ent.OpeningHoursQuery) {
		h.Order(ent.Asc(openinghours.FieldWeekday), ent.Asc(openinghours.FieldID))
	}).WithPhotos(func(p *ent.PhotoQuery) {
		p.Order(ent.Asc(photo.FieldSortOrder), ent.Asc(photo.FieldID))
	})
}

// Locations lists the viewer's venue's locations, active or not, by name,
// with their hours and gallery.
func Locations(ctx context.Context, c *ent.Client) ([]*ent.Location, error) {
	return withLocationParts(c.Location.Query()).Order(ent.Asc(location.FieldName), ent.Asc(location.FieldID)).All(ctx)
}

// LocationOf reads location id of the viewer's venue with its hours and
// gallery (an unknown or foreign one is 404 NOT_FOUND).
func LocationOf(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.Location, error) {
	l, err := withLocationParts(c.Location.Query().Where(location.ID(id))).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("location")
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: location: %w", err)
	}
	return l, nil
}

// DayHours is one weekday of a location's opening hours (ISO weekday, 1 is
// Monday); a closed day has no times.
type DayHours struct {
	Weekday           int
	OpensAt, ClosesAt string
	Closed            bool
}

// LocationPatch is a staff change of a location. Nil fields stay as they
// are; RemoveGalleryURL is a change of its own.
type LocationPatch struct {
	ImageURL      *string // "" clears the image
	SetImage      bool
	GalleryURLs   []string // replaces the gallery when SetGallery
	SetGallery    bool
	OpeningHours  []DayHours // replaces the hours when SetHours
	SetHours      bool
	RemoveGallery *string
}

func imageURL(field, s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return apperr.Validation(field, field+" must be an absolute http(s) URL")
	}
	return nil
}

// check refuses a patch that sets nothing, mixes remove_gallery_url with
// other changes, or carries bad URLs or hours (400 VALIDATION_ERROR).
func (p LocationPatch) check() error {
	if p.RemoveGallery != nil {
		if p.SetImage || p.SetGallery || p.SetHours {
			return apperr.Validation("remove_gallery_url", "remove_gallery_url is sent alone")
		}
		return imageURL("remove_gallery_url", *p.RemoveGallery)
	}
	if !p.SetImage && !p.SetGallery && !p.SetHours {
		return apperr.Validation("body", "the patch changes nothing")
	}
	if p.SetImage && p.ImageURL != nil && *p.ImageURL != "" {
		if err := imageURL("image_url", *p.ImageURL); err != nil {
			return err
		}
	}
	if len(p.GalleryURLs) > MaxGallery {
		return apperr.Validation("gallery_urls", fmt.Sprintf("at most %d gallery images", MaxGallery))
	}
	seen := map[string]bool{}
	for _, g := range p.GalleryURLs {
		if err := imageURL("gallery_urls", g); err != nil {
			return err
		}
		if seen[g] {
			return apperr.Validation("gallery_urls", "gallery_urls repeats an image")
		}
		seen[g] = true
	}
	days := map[int]bool{}
	for _, d := range p.OpeningHours {
		if d.Weekday < 1 || d.Weekday > 7 || days[d.Weekday] {
			return apperr.Validation("opening_hours", "each weekday (1 to 7) at most once")
		}
		days[d.Weekday] = true
		if d.Closed {
			if d.OpensAt != "" || d.ClosesAt != "" {
				return apperr.Validation("opening_hours", "a closed day has no times")
			}
			continue
		}
		if d.OpensAt == "" || d.ClosesAt == "" || strings.Compare(d.OpensAt, d.ClosesAt) >= 0 {
			return apperr.Validation("opening_hours", "an open day opens before it closes")
		}
	}
	return nil
}

// UpdateLocation applies p to location id (in the caller's transaction) and
// returns the location as saved. Removing a gallery image that is not there
// changes nothing and succeeds.
func UpdateLocation(ctx context.Context, c *ent.Client, id uuid.UUID, p LocationPatch) (*ent.Location, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	l, err := LocationOf(ctx, c, id)
	if err != nil {
		return nil, err
	}
	if p.RemoveGallery != nil {
		if _, err := c.Photo.Delete().Where(photo.LocationID(l.ID), photo.URL(*p.RemoveGallery)).Exec(ctx); err != nil {
			return nil, err
		}
	}
	if p.SetImage {
		u := c.Location.UpdateOne(l)
		if p.ImageURL == nil || *p.ImageURL == "" {
			u.ClearImageURL()
		} else {
			u.SetImageURL(*p.ImageURL)
		}
		if err := u.Exec(ctx); err != nil {
			return nil, err
		}
	}
	if p.SetGallery {
		if _, err := c.Photo.Delete().Where(photo.LocationID(l.ID)).Exec(ctx); err != nil {
			return nil, err
		}
		for i, g := range p.GalleryURLs {
			if err := c.Photo.Create().SetLocationID(l.ID).SetURL(g).SetSortOrder(i).Exec(ctx); err != nil {
				return nil, err
			}
		}
	}
	if p.SetHours {
		if _, err := c.OpeningHours.Delete().Where(openinghours.LocationID(l.ID)).Exec(ctx); err != nil {
			return nil, err
		}
		for _, d := range p.OpeningHours {
			q := c.OpeningHours.Create().SetLocationID(l.ID).SetWeekday(d.Weekday).SetClosed(d.Closed)
			if !d.Closed {
				q.SetOpensAt(d.OpensAt).SetClosesAt(d.ClosesAt)
			}
			if err := q.Exec(ctx); err != nil {
				return nil, err
			}
		}
	}
	// The location's own row changes only with its image; touch it so
	// updated_at follows every change of the location's set-up.
	if !p.SetImage {
		if err := c.Location.UpdateOne(l).Exec(ctx); err != nil {
			return nil, err
		}
	}
	if err := record(ctx, c, "location.updated", "location:"+l.ID.String(), nil); err != nil {
		return nil, err
	}
	return LocationOf(ctx, c, id)
}

package appointments

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/service"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/media"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Write warnings of the service image writes.
const (
	WarnPreviousImage = "previous_image_not_removed"
	WarnUpload        = "upload_not_removed"
)

// ImageResult is a service image write: the service's image URL and what
// the clean-up could not do.
type ImageResult struct {
	URL           string
	Width, Height int
	Warnings      []string
}

func imageTarget(id uuid.UUID) string { return "service:" + id.String() }

// publishedKey is the media key of an image URL this service published, or
// "" for another URL (set by an import, say).
func publishedKey(url string) string {
	if k, ok := strings.CutPrefix(url, media.PublicPrefix); ok && strings.HasPrefix(k, "services/") {
		return k
	}
	return ""
}

func unknownWrite() *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: "UNKNOWN_WRITE_OUTCOME",
		Message: "whether the service changed is not known; reload it, or retry with the same Idempotency-Key and body"}).
		With("write_state", "unknown")
}

func imageRefused(reason, message string) *apperr.Error {
	return unprocessable("VALIDATION_FAILED", message).With("reason", reason)
}

// ServiceImageUpload opens an upload for service id of the viewer's venue.
func ServiceImageUpload(ctx context.Context, client *ent.Client, m *media.Service, id uuid.UUID) (*media.Ticket, error) {
	svc, err := client.Service.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, ErrServiceNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: service: %w", err)
	}
	return m.NewTicket(ctx, svc.OrganizationID, imageTarget(svc.ID))
}

// FinalizeServiceImage decodes the upload at path for service id and, when
// it is a JPEG or PNG of at least 1200 x 675 pixels, publishes it and makes
// it the service's image (audited, service.updated recorded). A refused
// upload is removed and nothing changes.
func FinalizeServiceImage(ctx context.Context, client *ent.Client, m *media.Service, id uuid.UUID, path string) (*ImageResult, error) {
	svc, err := client.Service.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, ErrServiceNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: service: %w", err)
	}
	img, err := m.Check(ctx, svc.OrganizationID, imageTarget(svc.ID), path)
	switch {
	case errors.Is(err, media.ErrNoUpload):
		return nil, apperr.NotFound("upload")
	case errors.Is(err, media.ErrNotImage):
		return nil, imageRefused("not_an_image", "the file is not a JPEG or PNG image")
	case errors.Is(err, media.ErrTooSmall):
		return nil, imageRefused("image_too_small", fmt.Sprintf("the image must be at least %d x %d pixels", media.MinWidth, media.MinHeight)).
			With("width", img.Width).With("height", img.Height)
	case err != nil:
		return nil, fmt.Errorf("appointments: image: %w", err)
	}
	key, err := m.Publish(ctx, img, "services/"+svc.OrganizationID.String()+"/"+svc.ID.String()+"/"+img.Ticket.Token)
	if err != nil {
		return nil, fmt.Errorf("appointments: publish image: %w", err)
	}
	url := media.PublicPrefix + key
	old := svc.ImageURL
	err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		n, err := tx.Service.Update().Where(service.ID(svc.ID)).SetImageURL(url).Save(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return ErrServiceNotFound
		}
		return serviceAudit(ctx, tx.Client(), "service.image_updated", svc.ID, map[string]any{"image_url": url})
	})
	var ae *apperr.Error
	switch {
	case errors.As(err, &ae):
		_ = m.Store.Delete(ctx, key)
		return nil, err
	case err != nil:
		// Whether the commit happened is not known: keep the published file
		// (the row may name it) and say so.
		return nil, unknownWrite()
	}
	out := &ImageResult{URL: url, Width: img.Width, Height: img.Height}
	if err := m.Discard(ctx, img.Ticket); err != nil {
		out.Warnings = append(out.Warnings, WarnUpload)
	}
	if k := publishedKey(old); k != "" && k != key {
		if err := m.Store.Delete(ctx, k); err != nil {
			out.Warnings = append(out.Warnings, WarnPreviousImage)
		}
	}
	return out, nil
}

// DeleteServiceImage clears service id's image and removes the file this
// service published for it.
func DeleteServiceImage(ctx context.Context, client *ent.Client, m *media.Service, id uuid.UUID) ([]string, error) {
	svc, err := client.Service.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, ErrServiceNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: service: %w", err)
	}
	if svc.ImageURL == "" {
		return nil, nil
	}
	err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		if err := tx.Service.UpdateOneID(svc.ID).ClearImageURL().Exec(ctx); err != nil {
			return err
		}
		return serviceAudit(ctx, tx.Client(), "service.image_removed", svc.ID, map[string]any{"image_url": svc.ImageURL})
	})
	if err != nil {
		return nil, unknownWrite()
	}
	var warnings []string
	if k := publishedKey(svc.ImageURL); k != "" {
		if err := m.Store.Delete(ctx, k); err != nil {
			warnings = append(warnings, WarnPreviousImage)
		}
	}
	return warnings, nil
}

// serviceAudit records action on service (or bundle) id for the context's
// viewer.
func serviceAudit(ctx context.Context, c *ent.Client, action string, id uuid.UUID, details map[string]any) error {
	kind := "service:"
	if len(action) > 15 && action[:15] == "service_bundle." {
		kind = "service_bundle:"
	}
	e := audit.Entry{Action: action, Target: kind + id.String(), Details: details}
	if u, ok := viewer.UserFromContext(ctx); ok {
		e.ActorKind = audit.KindUser
		e.UserID = &u.UserID
	}
	_, err := audit.Record(ctx, c, e)
	return err
}

// SweepServiceImages removes the published service images (media keys
// services/<venue>/<service>/...) that no service's image_url names any
// more once older than media.PublishedGrace: the previous image a change
// could not remove, a file kept after a write whose outcome was unknown,
// the image of a removed service. It reads the image_url of the services
// the old files belong to across every venue (site
// appointments.image_sweep) and returns how many files it removed.
func SweepServiceImages(ctx context.Context, client *ent.Client, m *media.Service) (int, error) {
	return m.SweepPublished(ctx, "services/", media.PublishedGrace, func(ctx context.Context, keys []string) (map[string]bool, error) {
		var ids []uuid.UUID
		seen := map[uuid.UUID]bool{}
		for _, k := range keys {
			parts := strings.Split(k, "/")
			if len(parts) < 4 {
				continue
			}
			if id, err := uuid.Parse(parts[2]); err == nil && !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		keep := map[string]bool{}
		sctx := system.Allow(ctx, "appointments.image_sweep")
		for len(ids) > 0 {
			n := min(len(ids), 500)
			rows, err := client.Service.Query().Where(service.IDIn(ids[:n]...), service.ImageURLHasPrefix(media.PublicPrefix)).
				Select(service.FieldImageURL).All(sctx)
			if err != nil {
				return nil, fmt.Errorf("appointments: image sweep: %w", err)
			}
			for _, r := range rows {
				if k := publishedKey(r.ImageURL); k != "" {
					keep[k] = true
				}
			}
			ids = ids[n:]
		}
		return keep, nil
	})
}

package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/media"
)

func init() {
	for _, op := range []string{"createServiceImageUpload", "finalizeServiceImage", "deleteServiceImage"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}

// mediaService keeps uploads in the "media" folder of the data folder (a
// folder under the system's temporary folder when the server has none).
func mediaService(d Deps) *media.Service {
	dir := filepath.Join(d.DataDir, "media")
	if d.DataDir == "" {
		dir = filepath.Join(os.TempDir(), "venue-media")
	}
	return &media.Service{Store: media.Local{Dir: dir}}
}

// mediaUpload receives the bytes of an upload at its one-time path (the
// path is the permission, as a pre-signed object-store URL is).
func mediaUpload(m *media.Service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := m.Receive(r.Context(), r.PathValue("token"), http.MaxBytesReader(w, r.Body, media.MaxImageBytes+1))
		var tooBig *http.MaxBytesError
		switch {
		case errors.Is(err, media.ErrNotFound):
			httpx.WriteError(w, r, apperr.NotFound("upload"))
		case errors.Is(err, media.ErrTooLarge) || errors.As(err, &tooBig):
			httpx.WriteError(w, r, &apperr.Error{Status: http.StatusRequestEntityTooLarge, Code: "VALIDATION_ERROR",
				Message: "the file is larger than 10 MiB"})
		case err != nil:
			httpx.WriteError(w, r, apperr.Internal(err))
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
}

// mediaFiles serves published files (services/...), never staged uploads.
func mediaFiles(m *media.Service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.PathValue("key")
		if !strings.HasPrefix(key, "services/") {
			httpx.WriteError(w, r, apperr.NotFound("file"))
			return
		}
		rc, err := m.Store.Get(r.Context(), key)
		if err != nil {
			httpx.WriteError(w, r, apperr.NotFound("file"))
			return
		}
		defer rc.Close()
		br := bufio.NewReader(rc)
		head, _ := br.Peek(512)
		w.Header().Set("Content-Type", http.DetectContentType(head))
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Cache-Control", "public, max-age=86400, immutable")
		_, _ = io.Copy(w, br)
	})
}

// runServiceImageSweep removes, hourly on every instance (idempotent), the
// published service images no service names any more once past
// media.PublishedGrace.
func runServiceImageSweep(ctx context.Context, d Deps, log *slog.Logger) {
	m := mediaService(d)
	go every(ctx, log, time.Hour, "unreferenced service images", func(ctx context.Context) (int, error) {
		return appointments.SweepServiceImages(ctx, d.Client, m)
	})
}

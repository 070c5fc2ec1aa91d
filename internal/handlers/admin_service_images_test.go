package handlers_test

import (
	"bytes"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"io"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func encodedImage(t *testing.T, format string, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(w/2, h/2, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if format == "jpeg" {
		require.NoError(t, jpeg.Encode(&b, img, nil))
	} else {
		require.NoError(t, png.Encode(&b, img))
	}
	return b.Bytes()
}

// TestServiceImageUploadFinalize: through the generated client and the
// upload path, a PNG of exactly 1200x675 becomes the service's image and is
// served from /media; a JPEG replaces it (the previous file is removed);
// a too-small image and a file that is not an image are refused with
// nothing stored; a used, foreign or unknown path is 404; another venue's
// service is 404; a member of staff without bookings.manage is refused; the
// delete clears the image and its file.
func TestServiceImageUploadFinalize(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	staff := e.staff(t, "manager@studio.example", "bookings.manage")
	plain := e.staff(t, "desk@studio.example")
	svc := e.db().Service.Create().SetName("Facial").SetSlug("facial").SetDurationMinutes(50).
		SetPriceMinor(60000).SetCurrency("DKK").SaveX(e.op)
	foreign := e.db().Service.Create().SetName("Other").SetSlug("other").SetDurationMinutes(50).
		SetPriceMinor(60000).SetCurrency("DKK").SaveX(e.otherOp)

	upload := func(id uuid.UUID, body []byte) string {
		t.Helper()
		u, err := staff.CreateServiceImageUpload(ctx, api.CreateServiceImageUploadParams{ID: id, IdempotencyKey: uuid.NewString()})
		require.NoError(t, err)
		require.Equal(t, 1200, u.Data.MinWidth)
		require.Equal(t, 675, u.Data.MinHeight)
		req, err := http.NewRequest(http.MethodPut, e.url+u.Data.UploadURL, bytes.NewReader(body))
		require.NoError(t, err)
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusNoContent, res.StatusCode)
		return u.Data.Path
	}
	finalize := func(id uuid.UUID, path string) (*api.ServiceImageResponse, error) {
		return staff.FinalizeServiceImage(ctx, &api.ServiceImageFinalizeRequest{Path: path},
			api.FinalizeServiceImageParams{ID: id, IdempotencyKey: uuid.NewString()})
	}
	fetch := func(url string) (int, []byte) {
		res, err := http.Get(e.url + url)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}
	imageURL := func() string { return e.db().Service.GetX(e.op, svc.ID).ImageURL }

	pngBytes := encodedImage(t, "png", 1200, 675)
	path := upload(svc.ID, pngBytes)
	done, err := finalize(svc.ID, path)
	require.NoError(t, err)
	require.Equal(t, 1200, done.Data.Width.Value)
	require.Empty(t, done.Data.WriteWarnings)
	require.Equal(t, done.Data.ImageUrl, imageURL())
	status, body := fetch(done.Data.ImageUrl)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, pngBytes, body)
	_, err = finalize(svc.ID, path)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND") // a path is used once
	status, _ = fetch("/media/" + path)
	require.Equal(t, http.StatusNotFound, status, "staged uploads are not served")

	// A JPEG replaces it; the previous file is gone.
	first := done.Data.ImageUrl
	done, err = finalize(svc.ID, upload(svc.ID, encodedImage(t, "jpeg", 1600, 900)))
	require.NoError(t, err)
	require.NotEqual(t, first, done.Data.ImageUrl)
	status, _ = fetch(first)
	require.Equal(t, http.StatusNotFound, status)
	current := imageURL()

	// Refusals change nothing.
	_, err = finalize(svc.ID, upload(svc.ID, encodedImage(t, "png", 1199, 675)))
	es := requireErr(t, err, http.StatusUnprocessableEntity, "VALIDATION_FAILED")
	require.Equal(t, "image_too_small", es.Response.Error.Details.Reason.Value)
	_, err = finalize(svc.ID, upload(svc.ID, encodedImage(t, "jpeg", 1200, 674)))
	requireErr(t, err, http.StatusUnprocessableEntity, "VALIDATION_FAILED")
	_, err = finalize(svc.ID, upload(svc.ID, []byte("GIF89a definitely not a picture")))
	es = requireErr(t, err, http.StatusUnprocessableEntity, "VALIDATION_FAILED")
	require.Equal(t, "not_an_image", es.Response.Error.Details.Reason.Value)
	require.Equal(t, current, imageURL())
	_, err = finalize(svc.ID, "uploads/"+uuid.NewString())
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	other := e.db().Service.Create().SetName("Peel").SetSlug("peel").SetDurationMinutes(30).
		SetPriceMinor(30000).SetCurrency("DKK").SaveX(e.op)
	_, err = finalize(other.ID, upload(svc.ID, pngBytes))
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND") // a path belongs to its service
	_, err = staff.CreateServiceImageUpload(ctx, api.CreateServiceImageUploadParams{ID: foreign.ID, IdempotencyKey: uuid.NewString()})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = plain.CreateServiceImageUpload(ctx, api.CreateServiceImageUploadParams{ID: svc.ID, IdempotencyKey: uuid.NewString()})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	req, err := http.NewRequest(http.MethodPut, e.url+"/media-uploads/"+uuid.NewString(), bytes.NewReader(pngBytes))
	require.NoError(t, err)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusNotFound, res.StatusCode, "an upload needs a path handed out")

	// Delete.
	del, err := staff.DeleteServiceImage(ctx, api.DeleteServiceImageParams{ID: svc.ID, IdempotencyKey: uuid.NewString()})
	require.NoError(t, err)
	require.True(t, bool(del.Data.Ok))
	require.Equal(t, "", imageURL())
	status, _ = fetch(current)
	require.Equal(t, http.StatusNotFound, status)
	require.Equal(t, 2, e.db().AuditLog.Query().Where(auditlog.Action("service.image_updated")).CountX(e.op))
	require.Equal(t, 1, e.db().AuditLog.Query().Where(auditlog.Action("service.image_removed")).CountX(e.op))
}

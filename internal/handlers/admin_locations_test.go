package handlers_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	api "github.com/venueplatform/venue/internal/gen/api"
)

func mustURL(t *testing.T, s string) url.URL {
	t.Helper()
	u, err := url.Parse(s)
	require.NoError(t, err)
	return *u
}

// TestStaffLocations: settings.business or locations.manage read the
// venue's locations; locations.manage sets the main image, replaces the
// gallery and the opening hours, and removes one gallery image; bad hours,
// URLs and mixed or empty patches are 400 and change nothing; another
// venue's location is 404; a keyed retry replays.
func TestStaffLocations(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	reader := e.staff(t, "owner2@studio.example", "settings.business")
	manager := e.staff(t, "places@studio.example", "locations.manage")
	list, err := reader.ListAdminLocations(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, list.Data)
	got, err := manager.GetAdminLocation(ctx, api.GetAdminLocationParams{LocationId: e.location})
	require.NoError(t, err)
	require.True(t, got.Data.ImageURL.Null)
	require.Empty(t, got.Data.GalleryUrls)

	patch := func(c *api.Client, req *api.AdminLocationUpdateRequest) (*api.AdminLocationResponse, error) {
		return c.UpdateAdminLocation(ctx, req, api.UpdateAdminLocationParams{LocationId: e.location})
	}
	_, err = patch(reader, &api.AdminLocationUpdateRequest{ImageURL: api.NewOptNilURI(mustURL(t, "https://img.example/a.jpg"))})
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")

	res, err := patch(manager, &api.AdminLocationUpdateRequest{
		ImageURL:    api.NewOptNilURI(mustURL(t, "https://img.example/main.jpg")),
		GalleryUrls: []url.URL{mustURL(t, "https://img.example/1.jpg"), mustURL(t, "https://img.example/2.jpg"), mustURL(t, "https://img.example/3.jpg")},
		OpeningHours: []api.AdminOpeningHoursInput{
			{Weekday: 1, OpensAt: api.NewOptString("07:00"), ClosesAt: api.NewOptString("21:00")},
			{Weekday: 7, Closed: api.NewOptBool(true)},
		}})
	require.NoError(t, err)
	require.Equal(t, "https://img.example/main.jpg", res.Data.ImageURL.Value)
	require.Equal(t, []string{"https://img.example/1.jpg", "https://img.example/2.jpg", "https://img.example/3.jpg"}, res.Data.GalleryUrls)
	require.Equal(t, []api.OpeningHours{{Weekday: 1, OpensAt: "07:00", ClosesAt: "21:00"}, {Weekday: 7, Closed: true}}, res.Data.OpeningHours)
	saved := res.Data

	// Refusals change nothing.
	for name, req := range map[string]*api.AdminLocationUpdateRequest{
		"empty":             {},
		"remove with other": {RemoveGalleryURL: api.NewOptURI(mustURL(t, "https://img.example/1.jpg")), GalleryUrls: []url.URL{}},
		"twice a weekday": {OpeningHours: []api.AdminOpeningHoursInput{
			{Weekday: 2, OpensAt: api.NewOptString("07:00"), ClosesAt: api.NewOptString("09:00")},
			{Weekday: 2, OpensAt: api.NewOptString("10:00"), ClosesAt: api.NewOptString("12:00")}}},
		"closes before it opens": {OpeningHours: []api.AdminOpeningHoursInput{
			{Weekday: 3, OpensAt: api.NewOptString("18:00"), ClosesAt: api.NewOptString("08:00")}}},
		"closed with times": {OpeningHours: []api.AdminOpeningHoursInput{
			{Weekday: 3, Closed: api.NewOptBool(true), OpensAt: api.NewOptString("08:00")}}},
		"not http":       {ImageURL: api.NewOptNilURI(mustURL(t, "ftp://img.example/a.jpg"))},
		"repeated image": {GalleryUrls: []url.URL{mustURL(t, "https://img.example/x.jpg"), mustURL(t, "https://img.example/x.jpg")}},
	} {
		_, err := patch(manager, req)
		requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
		now, err := manager.GetAdminLocation(ctx, api.GetAdminLocationParams{LocationId: e.location})
		require.NoError(t, err, name)
		require.Equal(t, saved, now.Data, name)
	}

	res, err = patch(manager, &api.AdminLocationUpdateRequest{RemoveGalleryURL: api.NewOptURI(mustURL(t, "https://img.example/2.jpg"))})
	require.NoError(t, err)
	require.Equal(t, []string{"https://img.example/1.jpg", "https://img.example/3.jpg"}, res.Data.GalleryUrls)
	require.Len(t, res.Data.OpeningHours, 2, "hours untouched")
	// Null removes the main image; [] empties the gallery.
	res, err = patch(manager, &api.AdminLocationUpdateRequest{ImageURL: api.OptNilURI{Set: true, Null: true}, GalleryUrls: []url.URL{}})
	require.NoError(t, err)
	require.True(t, res.Data.ImageURL.Null)
	require.Empty(t, res.Data.GalleryUrls)
	require.Len(t, res.Data.OpeningHours, 2)
	require.Equal(t, 3, e.db().AuditLog.Query().Where(auditlog.Action("location.updated")).CountX(e.op))
	// A retry with the same Idempotency-Key replays the first answer and changes nothing more.
	keyed := func() (*api.AdminLocationResponse, error) {
		return manager.UpdateAdminLocation(ctx, &api.AdminLocationUpdateRequest{
			GalleryUrls: []url.URL{mustURL(t, "https://img.example/9.jpg")}},
			api.UpdateAdminLocationParams{LocationId: e.location, IdempotencyKey: api.NewOptString("gallery-9")})
	}
	first, err := keyed()
	require.NoError(t, err)
	again, err := keyed()
	require.NoError(t, err)
	require.Equal(t, first.Data, again.Data)
	require.Equal(t, 4, e.db().AuditLog.Query().Where(auditlog.Action("location.updated")).CountX(e.op))

	_, err = manager.GetAdminLocation(ctx, api.GetAdminLocationParams{LocationId: uuid.New()})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = e.staff(t, "clerk@studio.example", "pos.sell").ListAdminLocations(ctx)
	requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
}

package handlers_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/venue"
)

// TestVenueContextBySlug: X-Organization-Slug stands in for X-Organization-ID
// on the operations that take a venue context. The studio's slug books in
// the studio; another venue's slug finds nothing of the studio's; an unknown
// slug finds nothing at all; a malformed one is 400 naming the header; with
// both headers the id wins.
func TestVenueContextBySlug(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	other, err := venue.Create(ctx, e.client, venue.CreateParams{Name: "Other", Slug: "other"})
	require.NoError(t, err)
	class := e.class(t, e.op, e.classType, 48*time.Hour, 5).ID
	ana := e.member(t, e.op, "ana-slug@example.com", e.ten, ptrInt(5))

	call := func(method, path string, body any, headers map[string]string) (int, envelope) {
		t.Helper()
		var buf bytes.Buffer
		if body != nil {
			require.NoError(t, json.NewEncoder(&buf).Encode(body))
		}
		req, err := http.NewRequest(method, e.url+"/api/v1"+path, &buf)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+ana.token)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var env envelope
		require.NoError(t, json.NewDecoder(res.Body).Decode(&env))
		return res.StatusCode, env
	}
	book := map[string]any{"class_instance_id": class}

	// The features of the venue the slug names (case-insensitive).
	status, env := call(http.MethodGet, "/me/features", nil, map[string]string{"X-Organization-Slug": "Studio"})
	require.Equal(t, http.StatusOK, status, env.Error.Code)
	byID, envID := call(http.MethodGet, "/me/features", nil, map[string]string{"X-Organization-ID": e.venue.ID.String()})
	require.Equal(t, http.StatusOK, byID)
	require.JSONEq(t, string(envID.Data), string(env.Data))

	// Another venue's slug and an unknown slug see nothing of the studio's:
	// the same refusal as that venue's id, or an id nobody has.
	for slug, id := range map[string]string{"other": other.ID.String(), "no-such-venue": uuid.NewString()} {
		status, env = call(http.MethodPost, "/bookings", book, map[string]string{"X-Organization-Slug": slug})
		require.Contains(t, []int{http.StatusForbidden, http.StatusNotFound}, status, "%s: %s", slug, env.Error.Code)
		idStatus, idEnv := call(http.MethodPost, "/bookings", book, map[string]string{"X-Organization-ID": id})
		require.Equal(t, idStatus, status, slug)
		require.Equal(t, idEnv.Error.Code, env.Error.Code, slug)
	}
	// A malformed slug is refused naming the header.
	status, env = call(http.MethodPost, "/bookings", book, map[string]string{"X-Organization-Slug": "not a slug!"})
	require.Equal(t, http.StatusBadRequest, status)
	require.Equal(t, "VALIDATION_ERROR", env.Error.Code)
	require.Equal(t, "X-Organization-Slug", env.Error.Details["parameter"])
	require.Zero(t, e.client.Booking.Query().Where(entbooking.MemberID(ana.m.ID)).CountX(e.op), "nothing was booked")

	// With both headers the id wins over another venue's slug.
	status, env = call(http.MethodPost, "/bookings", book, map[string]string{
		"X-Organization-Slug": "other", "X-Organization-ID": e.venue.ID.String()})
	require.Equal(t, http.StatusCreated, status, env.Error.Code)
	require.Equal(t, 1, e.client.Booking.Query().Where(entbooking.MemberID(ana.m.ID)).CountX(e.op))

	// The slug alone books too (and finds the booking just made).
	class2 := e.class(t, e.op, e.classType, 72*time.Hour, 5).ID
	status, env = call(http.MethodPost, "/bookings", map[string]any{"class_instance_id": class2},
		map[string]string{"X-Organization-Slug": "studio"})
	require.Equal(t, http.StatusCreated, status, env.Error.Code)
	require.Equal(t, 2, e.client.Booking.Query().Where(entbooking.MemberID(ana.m.ID)).CountX(e.op))
}

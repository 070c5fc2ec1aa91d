package venuectx_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/venuectx"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestParse(t *testing.T) {
	id := uuid.New()
	for _, tc := range []struct {
		name, id, slug string
		want           venuectx.Selection
		badHeader      string
	}{
		{name: "nothing"},
		{name: "id", id: id.String(), want: venuectx.Selection{ID: id}},
		{name: "upper-case id", id: strings.ToUpper(id.String()), want: venuectx.Selection{ID: id}},
		{name: "id wins over slug", id: id.String(), slug: "other", want: venuectx.Selection{ID: id}},
		{name: "slug", slug: "demo-studio", want: venuectx.Selection{Slug: "demo-studio"}},
		{name: "slug lower-cased", slug: " Demo-Studio ", want: venuectx.Selection{Slug: "demo-studio"}},
		{name: "id not a uuid", id: "42", badHeader: venuectx.HeaderID},
		{name: "id without hyphens", id: strings.ReplaceAll(id.String(), "-", ""), badHeader: venuectx.HeaderID},
		{name: "id as urn", id: "urn:uuid:" + id.String(), badHeader: venuectx.HeaderID},
		{name: "nil id", id: uuid.Nil.String(), badHeader: venuectx.HeaderID},
		{name: "malformed id with a good slug", id: "x", slug: "demo", badHeader: venuectx.HeaderID},
		{name: "slug with a slash", slug: "a/b", badHeader: venuectx.HeaderSlug},
		{name: "slug with spaces", slug: "a b", badHeader: venuectx.HeaderSlug},
		{name: "slug too long", slug: strings.Repeat("a", 101), badHeader: venuectx.HeaderSlug},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := venuectx.Parse(tc.id, tc.slug)
			if tc.badHeader != "" {
				e := apperr.From(err)
				require.Equal(t, http.StatusBadRequest, e.Status)
				require.Equal(t, apperr.CodeValidation, e.Code)
				require.Equal(t, tc.badHeader, e.Details["parameter"])
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
			require.Equal(t, tc.id == "" && tc.slug == "", got.IsZero())
		})
	}
}

// world is two venues with one location each.
type world struct {
	client *ent.Client
	a, b   *venue.Venue
}

func newWorld(t *testing.T) *world {
	t.Helper()
	client := db.NewClient(pgtest.NewPool(t))
	ctx := context.Background()
	w := &world{client: client}
	for i, slug := range []string{"venue-a", "venue-b"} {
		v, err := venue.Create(ctx, client, venue.CreateParams{Name: slug, Slug: slug})
		require.NoError(t, err)
		op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "test"})
		_, err = client.Location.Create().SetName("Hall of " + slug).Save(op)
		require.NoError(t, err)
		if i == 0 {
			w.a = v
		} else {
			w.b = v
		}
	}
	return w
}

// locations lists what ctx's viewer sees.
func (w *world) locations(t *testing.T, ctx context.Context) []string {
	t.Helper()
	ls, err := w.client.Location.Query().All(ctx)
	require.NoError(t, err)
	var names []string
	for _, l := range ls {
		names = append(names, l.Name)
	}
	return names
}

func TestResolveAndWithViewer(t *testing.T) {
	w := newWorld(t)
	ctx := context.Background()

	id, named, err := venuectx.Resolve(ctx, w.client, venuectx.Selection{Slug: "venue-b"})
	require.NoError(t, err)
	require.True(t, named)
	require.Equal(t, w.b.ID, id)

	_, named, err = venuectx.Resolve(ctx, w.client, venuectx.Selection{})
	require.NoError(t, err)
	require.False(t, named)

	t.Run("anonymous by slug sees that venue only", func(t *testing.T) {
		vctx, id, ok, err := venuectx.WithViewer(ctx, w.client, venuectx.Selection{Slug: "venue-a"})
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, w.a.ID, id)
		require.Equal(t, []string{"Hall of venue-a"}, w.locations(t, vctx))
	})
	t.Run("anonymous by id", func(t *testing.T) {
		vctx, _, _, err := venuectx.WithViewer(ctx, w.client, venuectx.Selection{ID: w.b.ID})
		require.NoError(t, err)
		require.Equal(t, []string{"Hall of venue-b"}, w.locations(t, vctx))
	})
	t.Run("unknown slug gives no rows, not an error", func(t *testing.T) {
		vctx, id, ok, err := venuectx.WithViewer(ctx, w.client, venuectx.Selection{Slug: "nowhere"})
		require.NoError(t, err)
		require.True(t, ok)
		require.Equal(t, venuectx.NoVenue, id)
		require.Empty(t, w.locations(t, vctx))
		n, err := w.client.Alert.Query().Count(vctx)
		require.NoError(t, err)
		require.Zero(t, n)
	})
	t.Run("unknown id gives no rows", func(t *testing.T) {
		vctx, _, _, err := venuectx.WithViewer(ctx, w.client, venuectx.Selection{ID: uuid.New()})
		require.NoError(t, err)
		require.Empty(t, w.locations(t, vctx))
	})
	t.Run("no header and no viewer names nothing", func(t *testing.T) {
		vctx, _, ok, err := venuectx.WithViewer(ctx, w.client, venuectx.Selection{})
		require.NoError(t, err)
		require.False(t, ok)
		require.Nil(t, viewer.FromContext(vctx))
	})
	key := viewer.NewContext(ctx, viewer.APIKey{Org: w.a.ID, KeyID: uuid.New(), Scopes: []string{"read:locations"}})
	t.Run("a key keeps its viewer for its own venue", func(t *testing.T) {
		for _, sel := range []venuectx.Selection{{}, {ID: w.a.ID}, {Slug: "venue-a"}} {
			vctx, id, ok, err := venuectx.WithViewer(key, w.client, sel)
			require.NoError(t, err)
			require.True(t, ok)
			require.Equal(t, w.a.ID, id)
			require.IsType(t, viewer.APIKey{}, viewer.FromContext(vctx))
			require.Equal(t, []string{"Hall of venue-a"}, w.locations(t, vctx))
		}
	})
	t.Run("a key naming another venue sees no rows", func(t *testing.T) {
		for _, sel := range []venuectx.Selection{{ID: w.b.ID}, {Slug: "venue-b"}, {Slug: "nowhere"}} {
			vctx, id, _, err := venuectx.WithViewer(key, w.client, sel)
			require.NoError(t, err)
			require.Equal(t, venuectx.NoVenue, id)
			require.Empty(t, w.locations(t, vctx))
		}
	})
}

func TestMiddleware(t *testing.T) {
	var got venuectx.Selection
	h := venuectx.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = venuectx.FromContext(r.Context())
	}))
	id := uuid.New()
	req := httptest.NewRequest(http.MethodGet, "/api/v1/instructors", nil)
	req.Header.Set(venuectx.HeaderID, id.String())
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusOK, rec.Code)
	require.Equal(t, id, got.ID)

	req = httptest.NewRequest(http.MethodGet, "/api/v1/instructors", nil)
	req.Header.Set(venuectx.HeaderID, "not-a-uuid")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	require.Equal(t, http.StatusBadRequest, rec.Code)
	var env struct {
		Data  any `json:"data"`
		Error struct {
			Code    string         `json:"code"`
			Details map[string]any `json:"details"`
		} `json:"error"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &env))
	require.Nil(t, env.Data)
	require.Equal(t, "VALIDATION_ERROR", env.Error.Code)
	require.Equal(t, "X-Organization-ID", env.Error.Details["parameter"])
}

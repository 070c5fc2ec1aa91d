package handlers_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apikey"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/scope"
)

// catalogueReads are the venue catalogue reads that accept an API key, with
// the scope each needs.
func catalogueReads(c *api.Client, slug string) map[string]struct {
	scope string
	call  func(context.Context) error
} {
	type read = struct {
		scope string
		call  func(context.Context) error
	}
	return map[string]read{
		"schedule": {scope.ReadSchedule, func(ctx context.Context) error {
			_, err := c.GetVenueSchedule(ctx, api.GetVenueScheduleParams{Slug: slug})
			return err
		}},
		"pricing": {scope.ReadPricing, func(ctx context.Context) error {
			_, err := c.GetVenuePricing(ctx, api.GetVenuePricingParams{Slug: slug})
			return err
		}},
		"classes": {scope.ReadClasses, func(ctx context.Context) error {
			_, err := c.ListVenueClassTypes(ctx, api.ListVenueClassTypesParams{Slug: slug})
			return err
		}},
		"instructors": {scope.ReadInstructors, func(ctx context.Context) error {
			_, err := c.ListVenueInstructors(ctx, api.ListVenueInstructorsParams{Slug: slug})
			return err
		}},
		"locations": {scope.ReadLocations, func(ctx context.Context) error {
			_, err := c.ListVenueLocations(ctx, api.ListVenueLocationsParams{Slug: slug})
			return err
		}},
		"brands": {scope.ReadBrands, func(ctx context.Context) error {
			_, err := c.ListVenueBrands(ctx, api.ListVenueBrandsParams{Slug: slug})
			return err
		}},
		"brand": {scope.ReadBrands, func(ctx context.Context) error {
			_, err := c.GetVenueBrand(ctx, api.GetVenueBrandParams{Slug: slug, BrandSlug: "hot-yoga"})
			return err
		}},
	}
}

// TestCatalogueScopes: every catalogue read that takes an API key needs its
// own scope (403 ACCESS_DENIED, reason scope, naming it, when the key lacks
// it, whatever else the key holds), a key with only that scope reads, and
// the anonymous caller gets the same public view.
func TestCatalogueScopes(t *testing.T) {
	s := newStudio(t, "studio")
	ctx := context.Background()
	issue := func(scopes []string) string {
		k, err := apikey.Create(s.op, s.client, apikey.CreateParams{Name: "scoped", Scopes: scopes})
		require.NoError(t, err)
		return k.Secret
	}
	for name, r := range catalogueReads(s.apiClient(t, ""), "studio") {
		require.NoError(t, r.call(ctx), "anonymous %s", name)

		others := slices.DeleteFunc(scope.Reads(), func(sc string) bool { return sc == r.scope })
		denied := catalogueReads(s.apiClient(t, issue(others)), "studio")[name]
		es := errorOf(t, denied.call(ctx))
		require.Equal(t, http.StatusForbidden, es.StatusCode, name)
		require.Equal(t, "ACCESS_DENIED", es.Response.Error.Code, name)
		require.Equal(t, "scope", es.Response.Error.Details.Reason.Value, name)
		require.Equal(t, []string{r.scope}, es.Response.Error.Details.RequiredScopes, name)

		only := catalogueReads(s.apiClient(t, issue([]string{r.scope})), "studio")[name]
		require.NoError(t, only.call(ctx), "a key with only %s reads %s", r.scope, name)
	}
}

package pagination_test

import (
	"net/http"
	"net/url"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/pagination"
)

// requireValidation asserts err is a 400 VALIDATION_ERROR naming parameter.
func requireValidation(t *testing.T, err error, parameter string) {
	t.Helper()
	require.Error(t, err)
	e := apperr.From(err)
	require.Equal(t, http.StatusBadRequest, e.Status)
	require.Equal(t, apperr.CodeValidation, e.Code)
	require.Equal(t, parameter, e.Details["parameter"])
}

func TestPageParse(t *testing.T) {
	venues := pagination.PageRule{DefaultLimit: 20, MaxLimit: 100}
	set := func(v int) pagination.Optional { return pagination.Value(v, true) }
	unset := pagination.Unset()

	p, err := venues.Parse(unset, unset)
	require.NoError(t, err)
	require.Equal(t, pagination.Page{Number: 1, Limit: 20}, p)
	require.Zero(t, p.Offset())

	p, err = venues.Parse(set(3), set(100))
	require.NoError(t, err)
	require.Equal(t, pagination.Page{Number: 3, Limit: 100}, p)
	require.Equal(t, 200, p.Offset())

	for _, tc := range []struct {
		page, limit pagination.Optional
		param       string
	}{
		{set(0), unset, "page"},
		{set(-1), unset, "page"},
		{set(pagination.MaxPage + 1), unset, "page"},
		{unset, set(0), "limit"},
		{unset, set(101), "limit"},
		{unset, set(-5), "limit"},
	} {
		_, err := venues.Parse(tc.page, tc.limit)
		requireValidation(t, err, tc.param)
	}
	_, err = venues.Parse(unset, set(101))
	e := apperr.From(err)
	require.Equal(t, 1, e.Details["minimum"])
	require.Equal(t, 100, e.Details["maximum"])
	require.Contains(t, e.Message, "between 1 and 100")
}

func TestPageParseQuery(t *testing.T) {
	discovery := pagination.PageRule{DefaultLimit: 4, MaxLimit: 4}
	p, err := discovery.ParseQuery(url.Values{})
	require.NoError(t, err)
	require.Equal(t, pagination.Page{Number: 1, Limit: 4}, p)

	p, err = discovery.ParseQuery(url.Values{"page": {"2"}, "limit": {"3"}})
	require.NoError(t, err)
	require.Equal(t, pagination.Page{Number: 2, Limit: 3}, p)

	_, err = discovery.ParseQuery(url.Values{"page": {"two"}})
	requireValidation(t, err, "page")
	_, err = discovery.ParseQuery(url.Values{"limit": {""}})
	requireValidation(t, err, "limit")
	_, err = discovery.ParseQuery(url.Values{"limit": {"5"}})
	requireValidation(t, err, "limit")
}

func TestPageMeta(t *testing.T) {
	for _, tc := range []struct {
		page, limit, total int
		more               bool
	}{
		{1, 20, 0, false},
		{1, 20, 20, false},
		{1, 20, 21, true},
		{2, 20, 41, true},
		{3, 20, 41, false},
		{9, 20, 41, false}, // past the end: an empty page
	} {
		m := pagination.Page{Number: tc.page, Limit: tc.limit}.Meta(tc.total)
		require.Equal(t, pagination.PageMeta{Page: tc.page, Limit: tc.limit, Total: tc.total, HasMore: tc.more}, m, "%+v", tc)
	}
}

func TestCursorLimit(t *testing.T) {
	l, err := pagination.CursorLists.ParseLimit(pagination.Unset())
	require.NoError(t, err)
	require.Equal(t, 20, l)
	l, err = pagination.CursorLists.ParseLimitQuery(url.Values{"limit": {"100"}})
	require.NoError(t, err)
	require.Equal(t, 100, l)
	_, err = pagination.CursorLists.ParseLimitQuery(url.Values{"limit": {"101"}})
	requireValidation(t, err, "limit")
	_, err = pagination.CursorLists.ParseLimitQuery(url.Values{"limit": {"1e2"}})
	requireValidation(t, err, "limit")
}

package handlers_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGiftCardLookupsAreLimitedPerIP: the 21st lookup in a minute from one
// address is refused with 429, Retry-After and the RateLimit headers.
func TestGiftCardLookupsAreLimitedPerIP(t *testing.T) {
	s := newStudio(t, "studio")
	s.seedCatalogue(t)
	url := s.srv.URL + "/api/v1/venues/studio/gift-cards/NOPE/balance"
	for i := 0; i < 20; i++ {
		res, err := http.Get(url)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusNotFound, res.StatusCode, "lookup %d", i+1)
		require.NotEmpty(t, res.Header.Get("RateLimit"))
		require.NotEmpty(t, res.Header.Get("RateLimit-Policy"))
	}
	status, body := getRaw(t, url, "")
	require.Equal(t, http.StatusTooManyRequests, status)
	require.Equal(t, "RATE_LIMITED", body.Error.Code)
	res, err := http.Get(url)
	require.NoError(t, err)
	res.Body.Close()
	retry, err := strconv.Atoi(res.Header.Get("Retry-After"))
	require.NoError(t, err)
	require.Greater(t, retry, 0)
	// Other public reads keep their own, larger allowance.
	res, err = http.Get(s.srv.URL + "/api/v1/venues/studio/pricing")
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusOK, res.StatusCode)
}

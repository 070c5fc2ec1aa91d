package handlers_test

import (
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCatalogueRateLimitsAcrossInstances: an API key gets 100 requests a
// minute whichever instance serves them, with RateLimit headers counting down;
// then it is 429 with Retry-After. Anonymous callers are counted per address
// (300 a minute), apart from the key.
func TestCatalogueRateLimitsAcrossInstances(t *testing.T) {
	s := newStudio(t, "studio")
	instances := []string{s.srv.URL, newServer(t, s)}
	do := func(i int, key string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, instances[i%2]+"/api/v1/venues/studio/classes", nil)
		require.NoError(t, err)
		if key != "" {
			req.Header.Set("X-API-Key", key)
		}
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	// The window holds the whole minute's 100 as a burst: the first 100 pass.
	for i := range 100 {
		res := do(i, s.key)
		require.Equal(t, http.StatusOK, res.StatusCode, "request %d", i+1)
		require.Equal(t, `"default";q=100;w=60`, res.Header.Get("RateLimit-Policy"))
		require.Regexp(t, `^"default";r=\d+;t=\d+$`, res.Header.Get("RateLimit"), "request %d", i+1)
	}
	// Then the key is refused on either instance. One window per instance
	// would let 200 through; a shared one refuses within the next few (the
	// window refills one request every 0.6 s).
	refused := 0
	for i := 100; i < 200 && refused == 0; i++ {
		if res := do(i, s.key); res.StatusCode == http.StatusTooManyRequests {
			refused = i + 1
			retry, err := strconv.Atoi(res.Header.Get("Retry-After"))
			require.NoError(t, err)
			require.Positive(t, retry)
			require.Regexp(t, `^"default";r=0;t=\d+$`, res.Header.Get("RateLimit"))
		} else {
			require.Equal(t, http.StatusOK, res.StatusCode)
		}
	}
	require.NotZero(t, refused, "the 100-a-minute window is shared by the instances")

	// The anonymous allowance of this address is apart from the key's.
	status, body := getRaw(t, instances[1]+"/api/v1/venues/studio/classes", "")
	require.Equal(t, http.StatusOK, status, body.Error.Code)
	res := do(0, "")
	require.Equal(t, http.StatusOK, res.StatusCode)
	require.Equal(t, `"anonymous";q=300;w=60`, res.Header.Get("RateLimit-Policy"))
	require.Regexp(t, `^"anonymous";r=(298|299);t=\d+$`, res.Header.Get("RateLimit"))
}

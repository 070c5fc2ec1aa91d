package bench

import (
	"net"
	"net/http"
	"time"
)

// clip returns b as a string of at most n bytes (and an ellipsis).
func clip(b []byte, n int) string {
	if len(b) > n {
		return string(b[:n]) + "..."
	}
	return string(b)
}

// NewClient returns an HTTP client for loopback load: keep-alive with an
// idle connection per worker (and some), no proxy, no compression, and a
// per-request timeout.
func NewClient(maxConcurrency int, timeout time.Duration) *http.Client {
	idle := 2*maxConcurrency + 16
	return &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			MaxIdleConns:        idle,
			MaxIdleConnsPerHost: idle,
			IdleConnTimeout:     90 * time.Second,
			DisableCompression:  true,
			ForceAttemptHTTP2:   false,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

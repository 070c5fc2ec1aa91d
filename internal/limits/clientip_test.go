package limits_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/limits"
)

func TestParsePrefixes(t *testing.T) {
	ps, err := limits.ParsePrefixes(" 10.0.0.0/8, 127.0.0.1 ,::1, fd00::/8,")
	require.NoError(t, err)
	require.Len(t, ps, 4)
	require.Equal(t, "127.0.0.1/32", ps[1].String())
	require.Equal(t, "::1/128", ps[2].String())
	_, err = limits.ParsePrefixes("10.0.0.0/8,proxy.local")
	require.Error(t, err)
	ps, err = limits.ParsePrefixes("")
	require.NoError(t, err)
	require.Empty(t, ps)
}

func TestClientIP(t *testing.T) {
	trusted, err := limits.ParsePrefixes("10.0.0.0/8,2001:db8:ffff::/48")
	require.NoError(t, err)
	xff := limits.NewClientIP("", trusted)
	fwd := limits.NewClientIP("Forwarded", trusted)
	real := limits.NewClientIP("X-Real-IP", trusted)
	none := limits.NewClientIP("", nil)

	for _, tc := range []struct {
		name    string
		c       *limits.ClientIP
		peer    string
		headers map[string][]string
		want    string
	}{
		{"no proxy configured: the peer", none, "10.1.1.1:5", map[string][]string{"X-Forwarded-For": {"1.1.1.1"}}, "10.1.1.1"},
		{"untrusted peer: header ignored", xff, "192.0.2.1:5", map[string][]string{"X-Forwarded-For": {"1.1.1.1"}}, "192.0.2.1"},
		{"trusted peer, one hop", xff, "10.0.0.2:5", map[string][]string{"X-Forwarded-For": {"198.51.100.4"}}, "198.51.100.4"},
		{"spoofed left entries are skipped", xff, "10.0.0.2:5", map[string][]string{"X-Forwarded-For": {"6.6.6.6, 198.51.100.4"}}, "198.51.100.4"},
		{"trusted hops are skipped from the right", xff, "10.0.0.2:5", map[string][]string{"X-Forwarded-For": {"198.51.100.4, 10.9.9.9", "10.8.8.8"}}, "198.51.100.4"},
		{"all hops trusted: the leftmost", xff, "10.0.0.2:5", map[string][]string{"X-Forwarded-For": {"10.3.3.3, 10.4.4.4"}}, "10.3.3.3"},
		{"garbage hop stops the walk", xff, "10.0.0.2:5", map[string][]string{"X-Forwarded-For": {"198.51.100.4, nonsense, 10.4.4.4"}}, "10.4.4.4"},
		{"no header: the peer", xff, "10.0.0.2:5", nil, "10.0.0.2"},
		{"hops with ports", xff, "10.0.0.2:5", map[string][]string{"X-Forwarded-For": {"198.51.100.4:8080"}}, "198.51.100.4"},
		{"IPv6 hops", xff, "[2001:db8:ffff::1]:443", map[string][]string{"X-Forwarded-For": {"2001:db8:1::7"}}, "2001:db8:1::7"},
		{"Forwarded header", fwd, "10.0.0.2:5", map[string][]string{"Forwarded": {`for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711"`}}, "2001:db8:cafe::17"},
		{"X-Real-IP", real, "10.0.0.2:5", map[string][]string{"X-Real-Ip": {"198.51.100.9"}}, "198.51.100.9"},
		{"mapped peer", none, "[::ffff:192.0.2.1]:1", nil, "192.0.2.1"},
		{"unreadable peer", none, "pipe", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/", nil)
			r.RemoteAddr = tc.peer
			for k, vs := range tc.headers {
				for _, v := range vs {
					r.Header.Add(k, v)
				}
			}
			require.Equal(t, tc.want, tc.c.String(r))
		})
	}
}

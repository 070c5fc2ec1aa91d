package deliver

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCheckAddr(t *testing.T) {
	blocked := []string{
		"0.0.0.0", "::", "127.0.0.1", "127.8.9.10", "::1",
		"10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "fd12:3456::1", "fc00::1",
		"100.64.0.1", "100.127.255.254",
		"169.254.1.1", "fe80::1", "fe80::1%eth0",
		"224.0.0.1", "239.255.255.250", "ff02::1",
		"240.0.0.1", "198.18.0.1", "255.255.255.255",
		"::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::a00:1", "64:ff9b::7f00:1",
		"169.254.169.254", "fd00:ec2::254", "100.100.100.200",
	}
	for _, s := range blocked {
		require.ErrorIs(t, CheckAddr(netip.MustParseAddr(s), false), ErrBlockedAddress, s)
	}
	public := []string{"93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "64:ff9b::808:808"}
	for _, s := range public {
		require.NoError(t, CheckAddr(netip.MustParseAddr(s), false), s)
	}

	// AllowPrivate opens the private ranges but never the metadata services.
	for _, s := range []string{"127.0.0.1", "::1", "10.0.0.1", "fd12::1", "169.254.1.1"} {
		require.NoError(t, CheckAddr(netip.MustParseAddr(s), true), s)
	}
	for _, s := range []string{"169.254.169.254", "::ffff:169.254.169.254", "fd00:ec2::254", "100.100.100.200", "255.255.255.255"} {
		require.ErrorIs(t, CheckAddr(netip.MustParseAddr(s), true), ErrBlockedAddress, s)
	}
}

func TestCheckURL(t *testing.T) {
	strict := Options{}
	for _, raw := range []string{
		"http://example.com/hook",  // plain http
		"ftp://example.com/hook",   // other scheme
		"https:///hook",            // no host
		"https:example.com",        // opaque
		"example.com/hook",         // relative
		"https://example.com/#top", // fragment
		"::not a url",
	} {
		_, err := CheckURL(raw, strict)
		require.ErrorIs(t, err, ErrInvalidURL, raw)
	}
	for _, raw := range []string{
		"https://127.0.0.1/hook", "https://[::1]:8443/hook", "https://10.0.0.1/",
		"https://localhost/hook", "https://LOCALHOST./hook", "https://app.localhost/",
		"https://169.254.169.254/latest/meta-data",
	} {
		_, err := CheckURL(raw, strict)
		require.ErrorIs(t, err, ErrBlockedAddress, raw)
	}
	u, err := CheckURL("https://hooks.example.com:8443/venue?token=x", strict)
	require.NoError(t, err)
	require.Equal(t, "hooks.example.com", u.Hostname())

	loose := Options{AllowHTTP: true, AllowPrivate: true}
	for _, raw := range []string{"http://127.0.0.1:8080/hook", "http://localhost/hook", "https://10.0.0.1/"} {
		_, err := CheckURL(raw, loose)
		require.NoError(t, err, raw)
	}
	_, err = CheckURL("http://169.254.169.254/", loose)
	require.ErrorIs(t, err, ErrBlockedAddress)
}

// The address is checked when dialling, after resolution: a request that gets past CheckURL
// (as one to a name that resolves to loopback would) still never connects.
func TestDialerRefusesBlockedAddresses(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()

	s := New(Options{AllowHTTP: true}) // private targets refused
	resp, err := s.client.Post(srv.URL, "application/json", nil)
	if resp != nil {
		resp.Body.Close()
	}
	require.ErrorIs(t, err, ErrBlockedAddress)
	require.Equal(t, ClassBlocked, classifyErr(err))
	require.Zero(t, hits.Load())

	require.ErrorIs(t, control(false)("tcp6", "[fe80::1%lo]:443", nil), ErrBlockedAddress)
	require.ErrorIs(t, control(false)("tcp", "no-port", nil), ErrBlockedAddress)
	require.NoError(t, control(false)("tcp4", "93.184.216.34:443", nil))
}

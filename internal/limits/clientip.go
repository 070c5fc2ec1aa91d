package limits

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/venueplatform/venue/internal/config"
)

// ClientIP finds the client address of a request behind trusted proxies.
type ClientIP struct {
	header  string
	trusted []netip.Prefix
}

// NewClientIP returns a ClientIP that believes header (X-Forwarded-For when
// empty; "Forwarded" reads RFC 7239 for= elements) only from peers within
// trusted. With no trusted prefixes every request is its peer's.
func NewClientIP(header string, trusted []netip.Prefix) *ClientIP {
	if header == "" {
		header = "X-Forwarded-For"
	}
	return &ClientIP{header: http.CanonicalHeaderKey(header), trusted: trusted}
}

// ParsePrefixes parses a comma-separated list of CIDR prefixes or bare
// addresses (config.ParsePrefixes, which the VENUE_TRUSTED_PROXIES setting uses).
func ParsePrefixes(list string) ([]netip.Prefix, error) {
	p, err := config.ParsePrefixes(list)
	if err != nil {
		return nil, fmt.Errorf("limits: %w", err)
	}
	return p, nil
}

// Addr returns the client address of r: the peer, or, when the peer is a
// trusted proxy, the rightmost untrusted address of the header (the leftmost
// when every hop is trusted). An unparsable hop ends the walk at the last
// trusted one. The zero Addr means the peer address was unreadable.
func (c *ClientIP) Addr(r *http.Request) netip.Addr {
	peer := parseHost(r.RemoteAddr)
	if !peer.IsValid() || !c.isTrusted(peer) {
		return peer
	}
	hops := c.hops(r.Header.Values(c.header))
	client := peer
	for i := len(hops) - 1; i >= 0; i-- {
		a := parseHost(hops[i])
		if !a.IsValid() {
			break
		}
		client = a
		if !c.isTrusted(a) {
			break
		}
	}
	return client
}

// String is Addr as text ("" for the zero Addr), the shape Config.ClientIP
// takes.
func (c *ClientIP) String(r *http.Request) string {
	if a := c.Addr(r); a.IsValid() {
		return a.String()
	}
	return ""
}

func (c *ClientIP) isTrusted(a netip.Addr) bool {
	for _, p := range c.trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// hops lists the addresses of the header values, first hop first.
func (c *ClientIP) hops(values []string) []string {
	var out []string
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			part = strings.TrimSpace(part)
			if c.header == "Forwarded" {
				part = forwardedFor(part)
			}
			out = append(out, part)
		}
	}
	return out
}

// forwardedFor returns the for= value of one Forwarded element.
func forwardedFor(element string) string {
	for _, pair := range strings.Split(element, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if ok && strings.EqualFold(k, "for") {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

// parseHost parses an address with or without a port ("1.2.3.4",
// "1.2.3.4:80", "::1", "[::1]:80").
func parseHost(s string) netip.Addr {
	s = strings.TrimSpace(s)
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap()
	}
	if host, _, err := net.SplitHostPort(s); err == nil {
		s = host
	}
	a, err := netip.ParseAddr(strings.Trim(s, "[]"))
	if err != nil {
		return netip.Addr{}
	}
	return a.Unmap()
}

// bucketOf is the limited unit of a client address: IPv4 addresses one by
// one, IPv6 per /64 (what one subscriber usually holds).
func bucketOf(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	if a.Is6() {
		p, _ := a.WithZone("").Prefix(64)
		return p.String()
	}
	return a.String()
}

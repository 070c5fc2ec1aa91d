package deliver

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// Errors of the guard.
var (
	// ErrBlockedAddress is a target address the options do not allow.
	ErrBlockedAddress = errors.New("webhook target address not allowed")
	// ErrInvalidURL is a URL that cannot be a webhook target: not absolute, without a host,
	// with a scheme other than https (or http when allowed), or with a fragment.
	ErrInvalidURL = errors.New("invalid webhook URL")
)

// blockedRange is an address range and the reason it is refused.
type blockedRange struct {
	prefix netip.Prefix
	reason string
}

func mustRanges(reason string, cidrs ...string) []blockedRange {
	out := make([]blockedRange, 0, len(cidrs))
	for _, c := range cidrs {
		out = append(out, blockedRange{netip.MustParsePrefix(c), reason})
	}
	return out
}

var (
	// metadataAddrs are cloud instance metadata services; refused even with AllowPrivate.
	metadataAddrs = map[netip.Addr]bool{
		netip.MustParseAddr("169.254.169.254"): true, // AWS, GCP, Azure, OpenStack, ...
		netip.MustParseAddr("169.254.170.2"):   true, // AWS ECS task metadata
		netip.MustParseAddr("100.100.100.200"): true, // Alibaba Cloud
		netip.MustParseAddr("fd00:ec2::254"):   true, // AWS over IPv6
	}

	// privateRanges are refused unless AllowPrivate is set.
	privateRanges = concat(
		mustRanges("unspecified", "0.0.0.0/8", "::/128"),
		mustRanges("loopback", "127.0.0.0/8", "::1/128"),
		mustRanges("private", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"),
		mustRanges("carrier-grade NAT", "100.64.0.0/10"),
		mustRanges("link-local", "169.254.0.0/16", "fe80::/10"),
		mustRanges("multicast", "224.0.0.0/4", "ff00::/8"),
		mustRanges("reserved", "192.0.0.0/24", "198.18.0.0/15", "240.0.0.0/4", "100::/64", "2001:db8::/32"),
	)

	// nat64 embeds an IPv4 address in its last 32 bits, which is checked in its place.
	nat64 = netip.MustParsePrefix("64:ff9b::/96")
)

func concat(lists ...[]blockedRange) []blockedRange {
	var out []blockedRange
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// CheckAddr returns an error wrapping ErrBlockedAddress when addr may not be a webhook
// target with allowPrivate as given.
func CheckAddr(addr netip.Addr, allowPrivate bool) error {
	// ::ffff:127.0.0.1 is 127.0.0.1, and Prefix.Contains is false for any zoned address.
	addr = addr.Unmap().WithZone("")
	if addr.Is6() && nat64.Contains(addr) {
		b := addr.As16()
		addr = netip.AddrFrom4([4]byte(b[12:16]))
	}
	if !addr.IsValid() {
		return fmt.Errorf("%w: invalid address", ErrBlockedAddress)
	}
	if metadataAddrs[addr] {
		return fmt.Errorf("%w: %s is a metadata address", ErrBlockedAddress, addr)
	}
	if addr == netip.AddrFrom4([4]byte{255, 255, 255, 255}) {
		return fmt.Errorf("%w: %s is broadcast", ErrBlockedAddress, addr)
	}
	if allowPrivate {
		return nil
	}
	for _, r := range privateRanges {
		if r.prefix.Contains(addr) {
			return fmt.Errorf("%w: %s is %s", ErrBlockedAddress, addr, r.reason)
		}
	}
	return nil
}

// CheckURL validates a subscription URL before it is saved, with the options a Sender would
// send with: the scheme, the host, and, when the host is an address or a name that is
// obviously local, the address. Names are resolved only at delivery time, where the dialer
// checks each address connected to.
func CheckURL(raw string, opts Options) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: does not parse", ErrInvalidURL)
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && opts.AllowHTTP:
	default:
		return nil, fmt.Errorf("%w: scheme %q not allowed", ErrInvalidURL, u.Scheme)
	}
	host := u.Hostname()
	if host == "" || u.Opaque != "" {
		return nil, fmt.Errorf("%w: no host", ErrInvalidURL)
	}
	if u.Fragment != "" {
		return nil, fmt.Errorf("%w: has a fragment", ErrInvalidURL)
	}
	if addr, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		if err := CheckAddr(addr, opts.AllowPrivate); err != nil {
			return nil, err
		}
		return u, nil
	}
	lower := strings.ToLower(strings.TrimSuffix(host, "."))
	if !opts.AllowPrivate && (lower == "localhost" || strings.HasSuffix(lower, ".localhost")) {
		return nil, fmt.Errorf("%w: %s is loopback", ErrBlockedAddress, host)
	}
	return u, nil
}

// control is the dialer's Control function: it runs for each address the dialer is about to
// connect to, after resolution, so it sees exactly the IP the connection goes to.
func control(allowPrivate bool) func(network, address string, _ syscall.RawConn) error {
	return func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrBlockedAddress, err)
		}
		addr, err := netip.ParseAddr(host)
		if err != nil {
			return fmt.Errorf("%w: %s is not an address", ErrBlockedAddress, host)
		}
		return CheckAddr(addr, allowPrivate)
	}
}

package handlers

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// GeoConfig says which proxy headers carry the caller's location and which
// peers are trusted to set them.
type GeoConfig struct {
	CountryHeader  string
	CityHeader     string
	TrustedProxies []netip.Prefix
}

// DefaultGeoConfig trusts a proxy on the same machine to set CF-IPCountry and
// X-Geo-City.
func DefaultGeoConfig() GeoConfig {
	return GeoConfig{
		CountryHeader:  "CF-IPCountry",
		CityHeader:     "X-Geo-City",
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")},
	}
}

type geoKey struct{}

type geoValue struct{ country, city string }

var countryCode = regexp.MustCompile(`^[A-Z]{2}$`)

// GeoMiddleware reads the geo headers of a trusted proxy into the request
// context; headers from any other peer are ignored.
func GeoMiddleware(cfg GeoConfig, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if trusted(cfg.TrustedProxies, r.RemoteAddr) {
			var g geoValue
			if c := strings.ToUpper(strings.TrimSpace(r.Header.Get(cfg.CountryHeader))); countryCode.MatchString(c) && c != "XX" {
				g.country = c
			}
			if city := geoCity(r.Header.Get(cfg.CityHeader)); city != "" && len(city) <= 100 {
				g.city = city
			}
			r = r.WithContext(context.WithValue(r.Context(), geoKey{}, g))
		}
		next.ServeHTTP(w, r)
	})
}

// geoCity reads a city header. Hosting providers percent-encode names
// outside ASCII (K%C3%B8benhavn); a value that decodes to valid UTF-8 is
// answered decoded, and one with control characters is dropped.
func geoCity(v string) string {
	v = strings.TrimSpace(v)
	if strings.Contains(v, "%") {
		if d, err := url.PathUnescape(v); err == nil && utf8.ValidString(d) {
			v = strings.TrimSpace(d)
		}
	}
	if strings.IndexFunc(v, unicode.IsControl) >= 0 {
		return ""
	}
	return v
}

func trusted(prefixes []netip.Prefix, remote string) bool {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	addr, err := netip.ParseAddr(host)
	if err != nil {
		return false
	}
	addr = addr.Unmap()
	for _, p := range prefixes {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}

func geoFromContext(ctx context.Context) (country, city string) {
	g, _ := ctx.Value(geoKey{}).(geoValue)
	return g.country, g.city
}

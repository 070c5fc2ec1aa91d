package config

import (
	"flag"
	"fmt"
	"io"
	"net/mail"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"
)

// LookupFunc reads one environment variable (os.LookupEnv, or a map in tests).
type LookupFunc func(name string) (value string, ok bool)

// FromEnvironment is the configuration of the process environment alone, no
// flags: what a test harness or a tool without flags runs on.
func FromEnvironment() (Config, error) {
	return Load(nil, os.LookupEnv, io.Discard)
}

// Default is the configuration with every setting at its default.
func Default() Config {
	c, err := Load(nil, func(string) (string, bool) { return "", false }, io.Discard)
	if err != nil {
		panic("config: the defaults do not parse: " + err.Error()) // a bug in Settings
	}
	return c
}

// Load parses the server's flags in args over the environment of lookup.
// A flag wins over its variable, a variable over the default; an empty
// variable counts as unset. Usage and errors of the flags go to output;
// -h and --help answer flag.ErrHelp after printing the settings.
func Load(args []string, lookup LookupFunc, output io.Writer) (Config, error) {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	fs.SetOutput(output)
	flags := map[string]*string{}
	for _, s := range Settings {
		if s.Flag != "" {
			flags[s.Env] = fs.String(s.Flag, s.Default, s.Usage())
		}
	}
	fs.Usage = func() { WriteUsage(fs.Output(), fs) }
	if err := fs.Parse(args); err != nil {
		return Config{}, err
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	return parse(func(s Setting) string {
		if s.Flag != "" && given[s.Flag] {
			return *flags[s.Env]
		}
		if v, ok := lookup(s.Env); ok && v != "" {
			return v
		}
		return s.Default
	})
}

// Resolve returns the value of s from the environment of lookup, else its
// default: a flag's default for a command whose flags parse elsewhere
// (venuectl's global flags).
func Resolve(s Setting, lookup LookupFunc) string {
	if v, ok := lookup(s.Env); ok && v != "" {
		return v
	}
	return s.Default
}

// Usage is the flag usage of s: its description and its variable.
func (s Setting) Usage() string {
	u := plain(s.Description) + " (" + s.Env
	if s.Default == "" && s.DefaultText != "" {
		u += "; default " + plain(s.DefaultText)
	}
	return u + ")"
}

// plain is README text for a terminal: no code marks, no pointer to the
// README's prose.
func plain(s string) string {
	s = strings.ReplaceAll(s, "`", "")
	return strings.ReplaceAll(s, installationDefault, "the installation's, kept in the database")
}

// WriteUsage prints the server's --help: its flags, then the settings read
// from the environment only.
func WriteUsage(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage of server:\n")
	fs.PrintDefaults()
	fmt.Fprintf(w, "\nEnvironment (flags win over variables; README, Configuration):\n")
	for _, s := range Settings {
		if s.Flag != "" {
			continue
		}
		def := s.DefaultText
		if def == "" {
			def = s.Default
		}
		fmt.Fprintf(w, "  %s\n    \t%s (default %s)\n", s.Env, plain(s.Description), plain(def))
	}
}

// parse builds the typed configuration from the text of every setting,
// refusing malformed values with the errors the server has always given.
func parse(value func(Setting) string) (Config, error) {
	v := func(env string) string {
		s, ok := Lookup(env)
		if !ok {
			panic("config: no setting " + env)
		}
		return value(s)
	}
	var c Config
	var err error
	c.Server = Server{Addr: v("ADDR"), DatabaseURL: v("DATABASE_URL"), DataDir: v("VENUE_DATA_DIR")}
	if c.Server.Migrate, err = strconv.ParseBool(v("VENUE_MIGRATE")); err != nil {
		return c, fmt.Errorf("--migrate: %w", err)
	}
	if d := v("VENUE_DEMO"); d != "" {
		b, err := strconv.ParseBool(d)
		if err != nil {
			return c, fmt.Errorf("--demo: %w", err)
		}
		c.Server.Demo = &b
	}
	if c.Timeouts, err = parseTimeouts(v); err != nil {
		return c, err
	}

	if c.Proxy.TrustedProxies, err = ParsePrefixes(v("VENUE_TRUSTED_PROXIES")); err != nil {
		return c, fmt.Errorf("VENUE_TRUSTED_PROXIES: %w", err)
	}
	c.Proxy.ClientIPHeader = v("VENUE_CLIENT_IP_HEADER")
	c.Proxy.GeoCountryHeader = v("VENUE_GEO_COUNTRY_HEADER")
	c.Proxy.GeoCityHeader = v("VENUE_GEO_CITY_HEADER")

	c.Tokens = Tokens{
		SigningKey:            v("VENUE_JWT_SIGNING_KEY"),
		VerificationKeys:      list(v("VENUE_JWT_VERIFICATION_KEYS")),
		Issuer:                v("VENUE_JWT_ISSUER"),
		Audience:              v("VENUE_JWT_AUDIENCE"),
		Pepper:                v("VENUE_CODE_PEPPER"),
		MFAKey:                v("VENUE_MFA_KEY"),
		MFAPreviousKeys:       list(v("VENUE_MFA_PREVIOUS_KEYS")),
		DeviceVerificationURI: v("VENUE_DEVICE_VERIFICATION_URI"),
		HandoffDomains:        list(v("VENUE_HANDOFF_DOMAINS")),
	}
	c.Cursors.Secret = v("VENUE_CURSOR_SECRET")
	for _, o := range list(v("VENUE_EMBED_ORIGINS")) {
		if o = strings.TrimRight(strings.TrimSpace(o), "/"); o != "" {
			c.Embed.Origins = append(c.Embed.Origins, o)
		}
	}
	c.Inquiries.NotifyURL = v("VENUE_INQUIRY_NOTIFY_URL")
	c.Mail.Dir = v("VENUE_MAIL_DIR")
	c.Payments = Payments{
		SecretKey:            v("VENUE_STRIPE_SECRET_KEY"),
		WebhookSecret:        v("VENUE_STRIPE_WEBHOOK_SECRET"),
		ConnectWebhookSecret: v("VENUE_STRIPE_CONNECT_WEBHOOK_SECRET"),
		APIBase:              strings.TrimRight(v("VENUE_STRIPE_API_BASE"), "/"),
	}
	if t := v("VENUE_STRIPE_TIMEOUT"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			return c, fmt.Errorf("VENUE_STRIPE_TIMEOUT: want a positive duration such as 20s")
		}
		c.Payments.Timeout = d
	}

	if c.SMTP, err = parseSMTP(v); err != nil {
		return c, err
	}
	if c.Webhooks, err = parseWebhooks(v); err != nil {
		return c, err
	}
	return c, nil
}

// parseTimeouts reads the connection timeouts: each a positive duration.
func parseTimeouts(v func(string) string) (Timeouts, error) {
	var c Timeouts
	for _, t := range []struct {
		env string
		to  *time.Duration
	}{
		{"VENUE_READ_HEADER_TIMEOUT", &c.ReadHeader}, {"VENUE_BODY_TIMEOUT", &c.Body},
		{"VENUE_WRITE_TIMEOUT", &c.Write}, {"VENUE_IDLE_TIMEOUT", &c.Idle},
	} {
		d, err := time.ParseDuration(v(t.env))
		if err != nil || d <= 0 {
			return c, fmt.Errorf("%s: want a positive duration", t.env)
		}
		*t.to = d
	}
	return c, nil
}

// SMTP transport security modes.
var smtpTLS = []string{"auto", "required", "implicit", "off"}

func parseSMTP(v func(string) string) (SMTP, error) {
	c := SMTP{Host: v("VENUE_SMTP_HOST"), From: v("VENUE_SMTP_FROM"), Username: v("VENUE_SMTP_USERNAME"),
		Password: v("VENUE_SMTP_PASSWORD"), TLS: v("VENUE_SMTP_TLS")}
	if c.Host == "" {
		return SMTP{}, nil // no server: the rest does not matter
	}
	port := v("VENUE_SMTP_PORT")
	p, err := strconv.Atoi(port)
	if err != nil || p <= 0 || p > 65535 {
		return SMTP{}, fmt.Errorf("VENUE_SMTP_PORT: not a port: %q", port)
	}
	c.Port = p
	ok := false
	for _, m := range smtpTLS {
		ok = ok || c.TLS == m
	}
	if !ok {
		return SMTP{}, fmt.Errorf("VENUE_SMTP_TLS: one of auto, required, implicit, off: %q", c.TLS)
	}
	if _, err := mail.ParseAddress(c.From); err != nil {
		return SMTP{}, fmt.Errorf("VENUE_SMTP_FROM: not an address: %q", c.From)
	}
	return c, nil
}

func parseWebhooks(v func(string) string) (Webhooks, error) {
	c := Webhooks{RetryDelays: v("VENUE_WEBHOOK_RETRY_DELAYS"), SecretKey: strings.TrimSpace(v("VENUE_WEBHOOK_SECRET_KEY"))}
	var err error
	for _, b := range []struct {
		env string
		to  *bool
	}{{"VENUE_WEBHOOK_ALLOW_PRIVATE", &c.AllowPrivate}, {"VENUE_WEBHOOK_ALLOW_HTTP", &c.AllowHTTP}} {
		if *b.to, err = strconv.ParseBool(v(b.env)); err != nil {
			return c, fmt.Errorf("%s: want true or false", b.env)
		}
	}
	if s := v("VENUE_WEBHOOK_TIMEOUT"); s != "" {
		if c.Timeout, err = time.ParseDuration(s); err != nil || c.Timeout <= 0 {
			return c, fmt.Errorf("%s: want a positive duration", "VENUE_WEBHOOK_TIMEOUT")
		}
	}
	if s := v("VENUE_WEBHOOK_WORKERS"); s != "" {
		if c.Workers, err = strconv.Atoi(s); err != nil || c.Workers < 1 {
			return c, fmt.Errorf("%s: want a positive integer", "VENUE_WEBHOOK_WORKERS")
		}
	}
	if s := v("VENUE_JOBS_RESCUE_AFTER"); s != "" {
		if c.RescueAfter, err = time.ParseDuration(s); err != nil || c.RescueAfter < 15*time.Second {
			return c, fmt.Errorf("%s: want a duration of at least 15s", "VENUE_JOBS_RESCUE_AFTER")
		}
	}
	for _, k := range list(v("VENUE_WEBHOOK_SECRET_PREVIOUS_KEYS")) {
		if k = strings.TrimSpace(k); k != "" {
			c.PreviousKeys = append(c.PreviousKeys, k)
		}
	}
	return c, nil
}

// list splits a comma-separated value, dropping blank items (items keep
// their spaces: their owners trim what they must).
func list(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// ParsePrefixes parses a comma-separated list of CIDR prefixes or bare
// addresses, e.g. the value of VENUE_TRUSTED_PROXIES.
func ParsePrefixes(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return nil, fmt.Errorf("trusted proxy %q: not an address or CIDR prefix", f)
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}

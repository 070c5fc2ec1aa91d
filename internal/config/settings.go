package config

// Setting defines one setting: where it is read from, its default, and the
// words the README and --help show for it.
type Setting struct {
	// Env is the environment variable.
	Env string
	// Flag is the command-line flag of cmd/server without dashes ("": none).
	Flag string
	// Shared marks a flag that venuectl takes too, as a global flag.
	Shared bool
	// Default is the value taken when neither flag nor variable sets one
	// ("": none, and the consumer's own default applies).
	Default string
	// DefaultText is the README's wording of the default when the value alone
	// does not say it (a consumer's default, an installation secret).
	DefaultText string
	// Description says what the setting is (the README's "setting" column
	// and the flag's usage).
	Description string
	// Secret marks key material and credentials: never logged or printed.
	Secret bool
	// InstallBytes, when positive, makes the setting an installation secret:
	// left unset, it is taken from the database, which generates the base64
	// of that many random bytes on the first start (FillSecrets).
	InstallBytes int
}

// installationDefault is the README wording of an installation secret's default.
const installationDefault = "the installation's (below)"

// Settings are every setting of the service, in the README's order.
var Settings = []Setting{
	{Env: "ADDR", Flag: "addr", Default: "127.0.0.1:8080", Description: "listen address"},
	{Env: "DATABASE_URL", Flag: "database-url", Shared: true, Secret: true,
		DefaultText: "unset: a managed local PostgreSQL in the data folder", Description: "PostgreSQL URL of the database"},
	{Env: "VENUE_DATA_DIR", Flag: "data-dir", Shared: true, Default: "./.venue",
		Description: "data folder of the managed database"},
	{Env: "VENUE_MIGRATE", Flag: "migrate", Default: "true", Description: "apply pending migrations at start"},
	{Env: "VENUE_DEMO", Flag: "demo", DefaultText: "`true` with the managed database, `false` otherwise",
		Description: "create the demo venue when the database has no venue"},
	{Env: "VENUE_READ_HEADER_TIMEOUT", Default: "10s", Description: "time to read a request's headers"},
	{Env: "VENUE_BODY_TIMEOUT", Default: "30s",
		Description: "time to read a request's whole body; a slower body is cut"},
	{Env: "VENUE_WRITE_TIMEOUT", Default: "60s",
		Description: "time to write an answer after the request headers (MCP: the longest stall of one write)"},
	{Env: "VENUE_IDLE_TIMEOUT", Default: "120s", Description: "time a keep-alive connection may wait for its next request"},
	{Env: "VENUE_TRUSTED_PROXIES", Default: "127.0.0.0/8,::1/128",
		Description: "proxies trusted for client address and geo headers"},
	{Env: "VENUE_CLIENT_IP_HEADER", Default: "X-Forwarded-For",
		Description: "header naming the client address behind a trusted proxy"},
	{Env: "VENUE_GEO_COUNTRY_HEADER", Default: "CF-IPCountry",
		Description: "country header of the trusted proxy (`GET /geo`)"},
	{Env: "VENUE_GEO_CITY_HEADER", Default: "X-Geo-City",
		Description: "city header of the trusted proxy (`GET /geo`)"},
	{Env: "VENUE_CURSOR_SECRET", Secret: true, InstallBytes: 48, DefaultText: installationDefault,
		Description: "pagination cursor signing secret"},
	{Env: "VENUE_JWT_SIGNING_KEY", Secret: true, InstallBytes: 32, DefaultText: installationDefault,
		Description: "access-token signing key (base64 Ed25519 seed or PKCS #8 PEM)"},
	{Env: "VENUE_JWT_VERIFICATION_KEYS", DefaultText: "none",
		Description: "extra token verification keys (rotation), comma-separated"},
	{Env: "VENUE_JWT_ISSUER", Default: "venue-platform", Description: "token issuer"},
	{Env: "VENUE_JWT_AUDIENCE", Default: "venue-api", Description: "token audience"},
	{Env: "VENUE_CODE_PEPPER", Secret: true, InstallBytes: 32, DefaultText: installationDefault,
		Description: "pepper for one-time codes (base64, at least 32 bytes)"},
	{Env: "VENUE_EMBED_ORIGINS", DefaultText: "none",
		Description: "browser origins allowed to call `GET /me/minimal`, comma-separated"},
	{Env: "VENUE_DEVICE_VERIFICATION_URI", DefaultText: "`https://venue.example/device`",
		Description: "where TV users type device codes (`verification_uri`)"},
	{Env: "VENUE_HANDOFF_DOMAINS", DefaultText: "none (hand-off refused)",
		Description: "hosts SSO hand-off codes may target, comma-separated"},
	{Env: "VENUE_MFA_KEY", Secret: true, DefaultText: "derived from `VENUE_CODE_PEPPER`",
		Description: "TOTP secret sealing key (base64 of 32 bytes)"},
	{Env: "VENUE_MFA_PREVIOUS_KEYS", Secret: true, DefaultText: "none",
		Description: "previous TOTP sealing keys (rotation), comma-separated"},
	{Env: "VENUE_INQUIRY_NOTIFY_URL", DefaultText: "none (logged)",
		Description: "relay told of new booking inquiries (JSON POST)"},
	{Env: "VENUE_SMTP_HOST", DefaultText: "unset: notification e-mails are written to the log, codes to the mail folder",
		Description: "SMTP server for notification e-mail and sign-in codes"},
	{Env: "VENUE_SMTP_PORT", Default: "587", Description: "SMTP server port"},
	{Env: "VENUE_MAIL_DIR", DefaultText: "`mail` in the data folder",
		Description: "mail folder of codes when no SMTP server is set (development)"},
	{Env: "VENUE_SMTP_FROM", DefaultText: "none (required with a host)", Description: "notification e-mail sender"},
	{Env: "VENUE_SMTP_USERNAME", DefaultText: "none", Description: "SMTP PLAIN user name"},
	{Env: "VENUE_SMTP_PASSWORD", Secret: true, DefaultText: "none", Description: "SMTP PLAIN password"},
	{Env: "VENUE_SMTP_TLS", Default: "auto", DefaultText: "`auto` (STARTTLS when offered)",
		Description: "SMTP transport security (`auto`, `required`, `implicit`, `off`)"},
	{Env: "VENUE_WEBHOOK_ALLOW_PRIVATE", Default: "false",
		Description: "allow webhook targets on loopback, private and link-local addresses (development)"},
	{Env: "VENUE_WEBHOOK_ALLOW_HTTP", Default: "false", Description: "allow plain `http` webhook targets"},
	{Env: "VENUE_WEBHOOK_RETRY_DELAYS", DefaultText: "5s, 30s, 2m, 10m, 30m, 1h, 2h, 4h, 8h, then 8h to 72h",
		Description: "webhook retry waits, comma-separated (replaces the 72-hour schedule; tests)"},
	{Env: "VENUE_WEBHOOK_WORKERS", DefaultText: "`20`", Description: "concurrent webhook deliveries per instance"},
	{Env: "VENUE_WEBHOOK_TIMEOUT", DefaultText: "`10s`", Description: "timeout of one webhook delivery attempt"},
	{Env: "VENUE_JOBS_RESCUE_AFTER", DefaultText: "`2m`",
		Description: "a running job is taken as abandoned by a crashed instance after"},
	{Env: "VENUE_WEBHOOK_SECRET_KEY", Secret: true, InstallBytes: 32, DefaultText: installationDefault,
		Description: "webhook secret sealing key (base64 of 32 bytes)"},
	{Env: "VENUE_WEBHOOK_SECRET_PREVIOUS_KEYS", Secret: true, DefaultText: "none",
		Description: "previous webhook secret sealing keys (rotation), comma-separated"},
	{Env: "VENUE_STRIPE_SECRET_KEY", Secret: true, DefaultText: "none (card payments off: `CARD_PAYMENTS_UNAVAILABLE`)",
		Description: "the platform's Stripe secret key (`sk_test_...` or `sk_live_...`)"},
	{Env: "VENUE_STRIPE_WEBHOOK_SECRET", Secret: true, DefaultText: "none (platform events refused)",
		Description: "signing secret of the platform's Stripe event endpoint (`whsec_...`)"},
	{Env: "VENUE_STRIPE_CONNECT_WEBHOOK_SECRET", Secret: true, DefaultText: "none (Connect events refused)",
		Description: "signing secret of the Connect event endpoint (`whsec_...`)"},
	{Env: "VENUE_STRIPE_API_BASE", DefaultText: "Stripe's (`https://api.stripe.com`)",
		Description: "Stripe API address (stripe-mock or a test double)"},
	{Env: "VENUE_STRIPE_TIMEOUT", DefaultText: "`20s`",
		Description: "time one Stripe call may take before its outcome counts as unknown (then reconciled)"},
}

// Lookup returns the definition of the environment variable env.
func Lookup(env string) (Setting, bool) {
	for _, s := range Settings {
		if s.Env == env {
			return s, true
		}
	}
	return Setting{}, false
}

package config

import (
	"net/netip"
	"time"
)

// Config is the whole configuration of a server process. Commands build it
// once at start (Load, then FillSecrets) and hand each part to the package
// that needs it.
type Config struct {
	Server    Server
	Timeouts  Timeouts
	Proxy     Proxy
	Tokens    Tokens
	Cursors   Cursors
	Embed     Embed
	Inquiries Inquiries
	SMTP      SMTP
	Mail      Mail
	Webhooks  Webhooks
	Payments  Payments
}

// Server is how the server process starts (operations.md).
type Server struct {
	Addr string
	// DatabaseURL is empty for the managed local PostgreSQL.
	DatabaseURL string
	DataDir     string
	Migrate     bool
	// Demo creates the demo venue when the database has no venue; nil means
	// on with the managed database, off otherwise.
	Demo *bool
}

// Timeouts bound how long one connection may hold the server while a
// request is read or its answer written (VENUE_*_TIMEOUT): slow clients
// cannot pin connections and goroutines.
type Timeouts struct {
	// ReadHeader is the time to read a request's headers
	// (http.Server.ReadHeaderTimeout).
	ReadHeader time.Duration
	// Body is the time, from the start of the handler, to read a request's
	// whole body; a slower body is cut (httpx.BodyDeadline).
	Body time.Duration
	// Write is the time to write an answer, counted from the end of the
	// request headers (http.Server.WriteTimeout); on streaming routes (MCP)
	// it bounds each write instead (httpx.StreamWrites).
	Write time.Duration
	// Idle is how long a keep-alive connection may wait for its next request.
	Idle time.Duration
}

// Proxy says which peers are trusted proxies and which of their headers to
// believe.
type Proxy struct {
	TrustedProxies []netip.Prefix
	// ClientIPHeader names the client address behind a trusted proxy.
	ClientIPHeader string
	// GeoCountryHeader and GeoCityHeader carry the caller's location.
	GeoCountryHeader, GeoCityHeader string
}

// Tokens are the keys and names of sign-in: access tokens, one-time codes,
// second factors, device codes and SSO hand-off. Key material stays in the
// text form of its variable; package accounts decodes it.
type Tokens struct {
	SigningKey       string
	VerificationKeys []string
	Issuer, Audience string
	Pepper           string
	MFAKey           string
	MFAPreviousKeys  []string
	// DeviceVerificationURI is empty for the accounts default.
	DeviceVerificationURI string
	HandoffDomains        []string
}

// Cursors keys the opaque tokens the API hands out (pagination cursors,
// confirmation tokens).
type Cursors struct {
	// Secret is empty for a random secret per process.
	Secret string
}

// Embed are the browser origins allowed to call GET /me/minimal.
type Embed struct {
	Origins []string
}

// Inquiries configures the staff relay of booking inquiries.
type Inquiries struct {
	// NotifyURL is empty to log inquiries instead.
	NotifyURL string
}

// SMTP is the e-mail server of notifications and one-time codes; an empty
// Host means no server. With a host, Port, From and TLS have been checked.
type SMTP struct {
	Host               string
	Port               int
	From               string
	Username, Password string
	// TLS is one of auto, required, implicit and off.
	TLS string
}

// Mail is where one-time codes go without an SMTP server.
type Mail struct {
	// Dir is empty for the "mail" folder in the data folder.
	Dir string
}

// Webhooks configures webhook delivery and the jobs that run it. Zero
// durations and counts take the consumers' defaults.
type Webhooks struct {
	AllowPrivate, AllowHTTP bool
	// RetryDelays is the retry schedule's text ("1s,2s"); empty for the
	// default schedule (package webhooks parses it).
	RetryDelays string
	Workers     int
	Timeout     time.Duration
	RescueAfter time.Duration
	// SecretKey seals webhook secrets at rest (base64 of 32 bytes);
	// PreviousKeys still open what earlier keys sealed.
	SecretKey    string
	PreviousKeys []string
}

// Payments configures card payments through Stripe (Connect, direct mode).
// An empty SecretKey means card payments are off: the server starts and card
// operations answer the contract's unavailability codes.
type Payments struct {
	// SecretKey is the platform's Stripe secret key (sk_...).
	SecretKey string
	// WebhookSecret and ConnectWebhookSecret verify inbound events of the
	// platform's own endpoint and of its Connect endpoint (whsec_...).
	WebhookSecret, ConnectWebhookSecret string
	// APIBase replaces Stripe's API address (stripe-mock, a test double);
	// empty for Stripe's.
	APIBase string
	// Timeout bounds one call to Stripe; zero means 20 s.
	Timeout time.Duration
}

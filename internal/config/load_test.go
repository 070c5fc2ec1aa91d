package config_test

import (
	"io"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/config"
)

// env is an environment of its own for one test.
type env map[string]string

func (e env) lookup(k string) (string, bool) {
	v, ok := e[k]
	return v, ok
}

func load(t *testing.T, e env, args ...string) (config.Config, error) {
	t.Helper()
	return config.Load(args, e.lookup, io.Discard)
}

// TestDefaults: with nothing set, every setting takes the default the
// operations contract and the README give.
func TestDefaults(t *testing.T) {
	c, err := load(t, env{})
	require.NoError(t, err)
	require.Equal(t, config.Server{Addr: "127.0.0.1:8080", DataDir: "./.venue", Migrate: true}, c.Server)
	require.Equal(t, config.Timeouts{ReadHeader: 10 * time.Second, Body: 30 * time.Second,
		Write: 60 * time.Second, Idle: 120 * time.Second}, c.Timeouts)
	require.Equal(t, []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}, c.Proxy.TrustedProxies)
	require.Equal(t, "X-Forwarded-For", c.Proxy.ClientIPHeader)
	require.Equal(t, "CF-IPCountry", c.Proxy.GeoCountryHeader)
	require.Equal(t, "X-Geo-City", c.Proxy.GeoCityHeader)
	require.Equal(t, "venue-platform", c.Tokens.Issuer)
	require.Equal(t, "venue-api", c.Tokens.Audience)
	require.Empty(t, c.SMTP.Host, "no SMTP server")
	require.Equal(t, config.Webhooks{}, c.Webhooks)
	require.Equal(t, c, config.Default())
}

// TestPrecedence: a flag wins over its variable, a variable over the
// default, and an empty variable counts as unset.
func TestPrecedence(t *testing.T) {
	e := env{"ADDR": "0.0.0.0:9000", "VENUE_DATA_DIR": "", "VENUE_DEMO": "false", "DATABASE_URL": "postgres://env"}
	c, err := load(t, e)
	require.NoError(t, err)
	require.Equal(t, "0.0.0.0:9000", c.Server.Addr)
	require.Equal(t, "./.venue", c.Server.DataDir)
	require.Equal(t, "postgres://env", c.Server.DatabaseURL)
	require.NotNil(t, c.Server.Demo)
	require.False(t, *c.Server.Demo)

	c, err = load(t, e, "--addr", "127.0.0.1:1", "--demo=true", "--database-url", "postgres://flag", "--migrate", "false")
	require.NoError(t, err)
	require.Equal(t, "127.0.0.1:1", c.Server.Addr)
	require.True(t, *c.Server.Demo)
	require.False(t, c.Server.Migrate)
	require.Equal(t, "postgres://flag", c.Server.DatabaseURL)
}

// TestMalformedValues: each malformed value is refused at start with the
// error naming its flag or variable.
func TestMalformedValues(t *testing.T) {
	for _, c := range []struct {
		env  env
		args []string
		want string
	}{
		{args: []string{"--migrate", "maybe"}, want: "--migrate: "},
		{env: env{"VENUE_MIGRATE": "maybe"}, want: "--migrate: "},
		{args: []string{"--demo", "sometimes"}, want: "--demo: "},
		{args: []string{"--nope"}, want: "flag provided but not defined"},
		{env: env{"VENUE_TRUSTED_PROXIES": "10.0.0.0/8,not-an-address"}, want: `VENUE_TRUSTED_PROXIES: trusted proxy "not-an-address"`},
		{env: env{"VENUE_SMTP_HOST": "smtp.example.com", "VENUE_SMTP_FROM": "desk@studio.example", "VENUE_SMTP_PORT": "x"}, want: `VENUE_SMTP_PORT: not a port: "x"`},
		{env: env{"VENUE_SMTP_HOST": "smtp.example.com", "VENUE_SMTP_FROM": "desk@studio.example", "VENUE_SMTP_TLS": "sometimes"}, want: "VENUE_SMTP_TLS: one of auto, required, implicit, off"},
		{env: env{"VENUE_SMTP_HOST": "smtp.example.com", "VENUE_SMTP_FROM": "not an address"}, want: "VENUE_SMTP_FROM: not an address"},
		{env: env{"VENUE_WEBHOOK_ALLOW_HTTP": "maybe"}, want: "VENUE_WEBHOOK_ALLOW_HTTP: want true or false"},
		{env: env{"VENUE_WEBHOOK_WORKERS": "0"}, want: "VENUE_WEBHOOK_WORKERS: want a positive integer"},
		{env: env{"VENUE_WEBHOOK_TIMEOUT": "-1s"}, want: "VENUE_WEBHOOK_TIMEOUT: want a positive duration"},
		{env: env{"VENUE_BODY_TIMEOUT": "0s"}, want: "VENUE_BODY_TIMEOUT: want a positive duration"},
		{env: env{"VENUE_WRITE_TIMEOUT": "soon"}, want: "VENUE_WRITE_TIMEOUT: want a positive duration"},
		{env: env{"VENUE_JOBS_RESCUE_AFTER": "1s"}, want: "VENUE_JOBS_RESCUE_AFTER: want a duration of at least 15s"},
	} {
		_, err := load(t, c.env, c.args...)
		require.ErrorContains(t, err, c.want, "%v %v", c.env, c.args)
	}
}

// TestTypedValues: numbers, durations, lists and the SMTP server come out
// typed; SMTP settings without a host are ignored, as the senders ignore them.
func TestTypedValues(t *testing.T) {
	c, err := load(t, env{
		"VENUE_SMTP_HOST": "smtp.example.com", "VENUE_SMTP_FROM": "desk@studio.example", "VENUE_SMTP_PORT": "2525",
		"VENUE_WEBHOOK_ALLOW_PRIVATE": "true", "VENUE_WEBHOOK_WORKERS": "3", "VENUE_WEBHOOK_RETRY_DELAYS": "1s,2s",
		"VENUE_JOBS_RESCUE_AFTER": "20s", "VENUE_WEBHOOK_SECRET_PREVIOUS_KEYS": " a, ,b ",
		"VENUE_EMBED_ORIGINS":   "https://embed.example.com, https://shop.example.com/",
		"VENUE_HANDOFF_DOMAINS": "a.example,,b.example",
		"VENUE_BODY_TIMEOUT":    "1500ms",
	})
	require.NoError(t, err)
	require.Equal(t, config.SMTP{Host: "smtp.example.com", Port: 2525, From: "desk@studio.example", TLS: "auto"}, c.SMTP)
	require.True(t, c.Webhooks.AllowPrivate)
	require.False(t, c.Webhooks.AllowHTTP)
	require.Equal(t, 3, c.Webhooks.Workers)
	require.Equal(t, "1s,2s", c.Webhooks.RetryDelays)
	require.Equal(t, 20*time.Second, c.Webhooks.RescueAfter)
	require.Equal(t, []string{"a", "b"}, c.Webhooks.PreviousKeys)
	require.Equal(t, []string{"https://embed.example.com", "https://shop.example.com"}, c.Embed.Origins)
	require.Equal(t, []string{"a.example", "b.example"}, c.Tokens.HandoffDomains)
	require.Equal(t, 1500*time.Millisecond, c.Timeouts.Body)

	c, err = load(t, env{"VENUE_SMTP_PORT": "x", "VENUE_SMTP_TLS": "sometimes"})
	require.NoError(t, err)
	require.Equal(t, config.SMTP{}, c.SMTP)
}

// TestFillSecrets: the installation's secrets fill only what flags and
// environment left empty, and say which they filled.
func TestFillSecrets(t *testing.T) {
	c, err := load(t, env{"VENUE_CURSOR_SECRET": "set-by-the-operator-0123456789abcdef"})
	require.NoError(t, err)
	asked := map[string]int{}
	filled, err := c.FillSecrets(func(s config.Setting) (string, error) {
		asked[s.Env] = s.InstallBytes
		return "stored:" + s.Env, nil
	})
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"VENUE_JWT_SIGNING_KEY", "VENUE_CODE_PEPPER", "VENUE_WEBHOOK_SECRET_KEY"}, filled)
	require.Equal(t, map[string]int{"VENUE_JWT_SIGNING_KEY": 32, "VENUE_CODE_PEPPER": 32, "VENUE_WEBHOOK_SECRET_KEY": 32}, asked)
	require.Equal(t, "set-by-the-operator-0123456789abcdef", c.Cursors.Secret)
	require.Equal(t, "stored:VENUE_JWT_SIGNING_KEY", c.Tokens.SigningKey)
	require.Equal(t, "stored:VENUE_CODE_PEPPER", c.Tokens.Pepper)
	require.Equal(t, "stored:VENUE_WEBHOOK_SECRET_KEY", c.Webhooks.SecretKey)
}

// TestSettingsAreWellFormed: one definition per variable and flag, each with
// a description and a default (or the words for one); secrets kept by the
// installation are secrets.
func TestSettingsAreWellFormed(t *testing.T) {
	envs, flags := map[string]bool{}, map[string]bool{}
	for _, s := range config.Settings {
		require.False(t, envs[s.Env], "%s defined twice", s.Env)
		envs[s.Env] = true
		if s.Flag != "" {
			require.False(t, flags[s.Flag], "--%s defined twice", s.Flag)
			flags[s.Flag] = true
		}
		require.NotEmpty(t, s.Description, s.Env)
		require.True(t, s.Default != "" || s.DefaultText != "", "%s: a default or its words", s.Env)
		if s.InstallBytes > 0 {
			require.True(t, s.Secret, "%s is an installation secret", s.Env)
		}
		require.False(t, s.Shared && s.Flag == "", "%s: a shared setting is a flag", s.Env)
	}
}

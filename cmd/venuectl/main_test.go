package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/payments/stripetest"
	"github.com/venueplatform/venue/internal/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// cli runs venuectl commands in-process against one test database.
type cli struct {
	t   *testing.T
	url string
	// env adds environment variables to the command line's.
	env map[string]string
}

func newCLI(t *testing.T) *cli { return &cli{t: t, url: pgtest.New(t)} }

// run runs one command line and returns its standard output and error.
func (c *cli) run(args ...string) (string, string, error) {
	c.t.Helper()
	var stdout, stderr bytes.Buffer
	a := &app{stdout: &stdout, stderr: &stderr}
	env := map[string]string{"DATABASE_URL": c.url}
	for k, v := range c.env {
		env[k] = v
	}
	root := newRootCmd(a, func(k string) string { return env[k] })
	root.SetArgs(args)
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	err := root.ExecuteContext(context.Background())
	require.NoError(c.t, a.close())
	return stdout.String(), stderr.String(), err
}

// json runs a command with --json and decodes its output into v.
func (c *cli) json(v any, args ...string) {
	c.t.Helper()
	out, stderr, err := c.run(append(args, "--json")...)
	require.NoError(c.t, err, "venuectl %v: %s", args, stderr)
	require.NoError(c.t, json.Unmarshal([]byte(out), v), "output: %s", out)
}

// fail runs a command that must fail and returns its error text.
func (c *cli) fail(args ...string) string {
	c.t.Helper()
	out, _, err := c.run(args...)
	require.Error(c.t, err, "venuectl %v succeeded: %s", args, out)
	require.Empty(c.t, out, "nothing on standard output on failure")
	return err.Error()
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestMigrate(t *testing.T) {
	c := newCLI(t)
	var out map[string]any
	c.json(&out, "migrate")
	require.Equal(t, []any{}, out["applied"])
	require.NotEmpty(t, out["queue_applied"], "the job queue's tables are created on the first run")
	out = nil
	c.json(&out, "migrate")
	require.Equal(t, map[string]any{"applied": []any{}}, out)
	human, _, err := c.run("migrate")
	require.NoError(t, err)
	require.Equal(t, "database is up to date\n", human)
}

func TestVenueCommands(t *testing.T) {
	c := newCLI(t)
	var created map[string]any
	c.json(&created, "venue", "create", "--name", "Hot Yoga", "--slug", "hot-yoga", "--api-enabled")
	require.Equal(t, []string{"api_enabled", "id", "plan", "slug"}, keys(created))
	require.Equal(t, "pro", created["plan"])
	require.Equal(t, true, created["api_enabled"])

	require.Contains(t, c.fail("venue", "create", "--name", "Again", "--slug", "hot-yoga"), "venue slug is already taken")
	require.Contains(t, c.fail("venue", "create", "--name", "X", "--slug", "x", "--plan", "gold"), `plan "gold"`)
	require.Contains(t, c.fail("venue", "create", "--name", "X", "--slug", "x", "--timezone", "Nowhere/Town"), "time zone")

	var updated map[string]any
	c.json(&updated, "venue", "update", "--slug", "hot-yoga", "--plan", "starter", "--api-enabled=false")
	require.Equal(t, created["id"], updated["id"])
	require.Equal(t, "starter", updated["plan"])
	require.Equal(t, false, updated["api_enabled"])
	require.Contains(t, c.fail("venue", "update", "--slug", "nope", "--plan", "pro"), `venue "nope" not found`)

	var list []map[string]any
	c.json(&list, "venue", "list")
	require.Len(t, list, 1)
	require.Equal(t, []string{"api_enabled", "id", "name", "plan", "slug"}, keys(list[0]))
	require.Equal(t, "Hot Yoga", list[0]["name"])

	human, _, err := c.run("venue", "list")
	require.NoError(t, err)
	require.Contains(t, human, "hot-yoga")
}

func TestStaffAndAPIKeys(t *testing.T) {
	c := newCLI(t)
	_, _, err := c.run("venue", "create", "--name", "Studio", "--slug", "studio")
	require.NoError(t, err)

	var staff map[string]any
	c.json(&staff, "staff", "create", "--venue", "studio", "--email", "Mette@Example.com",
		"--first-name", "Mette", "--last-name", "Hansen", "--permissions", "bookings.manage,staff.view")
	require.Equal(t, []string{"email", "user_id"}, keys(staff))
	require.Equal(t, "mette@example.com", staff["email"])
	require.Contains(t, c.fail("staff", "create", "--venue", "studio", "--email", "x@example.com",
		"--first-name", "X", "--last-name", "Y", "--permissions", "fly"), `unknown permission "fly"`)
	require.Contains(t, c.fail("staff", "create", "--venue", "nowhere", "--email", "x@example.com",
		"--first-name", "X", "--last-name", "Y"), `venue "nowhere" not found`)

	var perms struct {
		UserID      string   `json:"user_id"`
		Permissions []string `json:"permissions"`
	}
	c.json(&perms, "staff", "grant", "--venue", "studio", "--email", "mette@example.com", "--permissions", "pos.sell,staff.view")
	require.Equal(t, staff["user_id"], perms.UserID)
	require.Equal(t, []string{"bookings.manage", "pos.sell", "staff.view"}, perms.Permissions)
	c.json(&perms, "staff", "revoke", "--venue", "studio", "--email", "mette@example.com", "--permissions", "bookings.manage")
	require.Equal(t, []string{"pos.sell", "staff.view"}, perms.Permissions)
	require.Contains(t, c.fail("staff", "grant", "--venue", "studio", "--email", "mette@example.com", "--permissions", "fly"),
		`unknown permission "fly"`)
	require.Contains(t, c.fail("staff", "grant", "--venue", "studio", "--email", "nobody@example.com", "--permissions", "pos.sell"),
		"not a staff member")

	var read map[string]any
	c.json(&read, "apikey", "create", "--venue", "studio", "--name", "reports", "--scopes", "read:members,read:bookings")
	require.Equal(t, []string{"created_by", "id", "key", "scopes"}, keys(read))
	require.Nil(t, read["created_by"])
	require.Equal(t, []any{"read:members", "read:bookings"}, read["scopes"])
	require.Regexp(t, `^vk_[A-Za-z0-9]{10}_[A-Za-z0-9]{40}$`, read["key"])

	require.Contains(t, c.fail("apikey", "create", "--venue", "studio", "--name", "w", "--scopes", "write:schedule"), "--created-by")
	require.Contains(t, c.fail("apikey", "create", "--venue", "studio", "--name", "w", "--scopes", "read:everything"), `unknown scope "read:everything"`)
	require.Contains(t, c.fail("apikey", "create", "--venue", "studio", "--name", "w", "--scopes", "write:schedule",
		"--created-by", "stranger@example.com"), "not a staff member")

	var write map[string]any
	c.json(&write, "apikey", "create", "--venue", "studio", "--name", "scheduler", "--scopes", "write:schedule,read:schedule",
		"--created-by", "mette@example.com")
	require.Equal(t, "mette@example.com", write["created_by"])

	var list []map[string]any
	c.json(&list, "apikey", "list", "--venue", "studio")
	require.Len(t, list, 2)
	for _, k := range list {
		require.Equal(t, []string{"created_at", "id", "last_used_at", "name", "revoked_at", "scopes"}, keys(k))
		require.NotContains(t, k, "key")
	}

	var revoked map[string]any
	c.json(&revoked, "apikey", "revoke", "--id", read["id"].(string))
	require.Equal(t, []string{"id", "revoked_at"}, keys(revoked))
	require.NotNil(t, revoked["revoked_at"])
	require.Contains(t, c.fail("apikey", "revoke", "--id", "6f1c1c8e-0000-4000-8000-000000000000"), "not found")

	var trail []map[string]any
	c.json(&trail, "audit", "list", "--venue", "studio", "--limit", "10")
	require.NotEmpty(t, trail)
	require.Equal(t, []string{"action", "actor", "at", "details", "id", "outcome", "target"}, keys(trail[0]))
	require.Equal(t, "apikey.revoke", trail[0]["action"], "newest first")
	require.Equal(t, "operator:venuectl", trail[0]["actor"])
}

func TestKillSwitch(t *testing.T) {
	c := newCLI(t)
	for _, step := range []struct {
		args []string
		want bool
	}{{[]string{"status"}, false}, {[]string{"on"}, true}, {[]string{"status"}, true}, {[]string{"off"}, false}} {
		var out map[string]any
		c.json(&out, append([]string{"killswitch"}, step.args...)...)
		require.Equal(t, map[string]any{"enabled": step.want}, out, "killswitch %v", step.args)
	}
}

func TestImportThroughCLI(t *testing.T) {
	c := newCLI(t)
	_, _, err := c.run("venue", "create", "--name", "Studio", "--slug", "studio")
	require.NoError(t, err)
	file := filepath.Join("..", "..", "internal", "importer", "testdata", "full.json")

	var dry map[string]any
	c.json(&dry, "import", "--venue", "studio", "--file", file, "--dry-run")
	require.Equal(t, true, dry["dry_run"])
	var first, second struct {
		Counts map[string]int               `json:"counts"`
		IDs    map[string]map[string]string `json:"ids"`
	}
	c.json(&first, "import", "--venue", "studio", "--file", file)
	require.Equal(t, 3, first.Counts["members"])
	require.Len(t, first.IDs["classes"], 3)
	c.json(&second, "import", "--venue", "studio", "--file", file)
	require.Equal(t, first, second, "re-running the same document changes nothing")

	bad := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"format":"venue-import/1","classes":[{"ref":"c7","class_type":"ct1","room":"r9",
		"start_time":"2026-11-23T07:00:00+01:00","end_time":"2026-11-23T08:00:00+01:00"}]}`), 0o600))
	require.Contains(t, c.fail("import", "--venue", "studio", "--file", bad), `classes[c7].room: unknown room ref "r9"`)
}

func TestSeedAndOpenAPI(t *testing.T) {
	c := newCLI(t)
	var res map[string]any
	c.json(&res, "seed", "--venues", "1", "--members", "40", "--days", "2", "--seed", "5")
	require.Equal(t, []any{"seed-5-venue-1"}, res["venues"])
	require.Equal(t, float64(40), res["counts"].(map[string]any)["members"])

	out, _, err := (&cli{t: t, url: "postgres://invalid.invalid/none"}).run("openapi")
	require.NoError(t, err, "openapi needs no database")
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	require.Contains(t, doc, "openapi")
}

func TestPaymentsConnect(t *testing.T) {
	fake := stripetest.New()
	t.Cleanup(fake.Close)
	fake.AddAccount("acct_live1", true)
	c := newCLI(t)
	c.env = map[string]string{"VENUE_STRIPE_SECRET_KEY": "sk_test_x", "VENUE_STRIPE_API_BASE": fake.URL}
	var created map[string]any
	c.json(&created, "venue", "create", "--name", "Hot Yoga", "--slug", "hot-yoga")

	var st map[string]any
	c.json(&st, "payments", "status", "--venue", "hot-yoga")
	require.Equal(t, "", st["account_id"])
	c.json(&st, "payments", "connect", "--venue", "hot-yoga", "--account", "acct_live1")
	require.Equal(t, map[string]any{"venue": "hot-yoga", "account_id": "acct_live1", "charges_enabled": true, "details_submitted": true}, st)
	c.json(&st, "payments", "status", "--venue", "hot-yoga")
	require.Equal(t, "acct_live1", st["account_id"])
	require.Contains(t, c.fail("payments", "connect", "--venue", "hot-yoga", "--account", "acct_missing"), "not found")

	c.env = nil // no Stripe key: card payments are off
	require.Contains(t, c.fail("payments", "connect", "--venue", "hot-yoga", "--account", "acct_live1"), "not available")
}

// TestBillingAdvance: the billing clock renews a venue's memberships month
// by month against the fake Stripe: every invoice paid or overdue, numbers
// in order, and a venue with a real connected account refused.
func TestBillingAdvance(t *testing.T) {
	c := newCLI(t)
	var created map[string]any
	c.json(&created, "venue", "create", "--name", "Clock Yoga", "--slug", "clock-yoga")
	var months []billingMonthJSON
	c.json(&months, "billing", "advance", "--venue", "clock-yoga", "--months", "3", "--members", "10", "--decline-percent", "30", "--hard-decline-percent", "50")
	require.Len(t, months, 3)
	for _, m := range months {
		require.Equal(t, 10, m.Invoices, m.Month)
		require.Equal(t, m.Invoices, m.Paid+m.Overdue, m.Month)
		require.Equal(t, m.Declined, m.Recovered+m.Overdue, m.Month)
	}
	require.Equal(t, months[0].First[:5]+"000001", months[0].First, "the venue's first invoice of the year")
	fake := stripetest.New()
	t.Cleanup(fake.Close)
	fake.AddAccount("acct_real", true)
	c.env = map[string]string{"VENUE_STRIPE_SECRET_KEY": "sk_test_x", "VENUE_STRIPE_API_BASE": fake.URL}
	c.json(&created, "venue", "create", "--name", "Real Yoga", "--slug", "real-yoga")
	var st map[string]any
	c.json(&st, "payments", "connect", "--venue", "real-yoga", "--account", "acct_real")
	require.Contains(t, c.fail("billing", "advance", "--venue", "real-yoga"), "connected account of its own")
	require.Contains(t, c.fail("billing", "advance", "--venue", "clock-yoga", "--months", "0"), "--months")
}

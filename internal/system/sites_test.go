package system_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sites are the named system call sites, each a place where no venue viewer
// can exist yet. Adding one is a decision: add it here with its reason.
var sites = map[string]string{
	"apikey.lookup":            "authenticating a presented key, before any venue is known",
	"events.record":            "writing an event and its webhook deliveries for a change the viewer was already allowed to make (read-only API keys included); rows stay bound to the viewer's venue and subscriptions are read for it explicitly",
	"webhooks.deliver":         "the webhook delivery worker, which holds only a delivery id, loading and updating that delivery, its subscription and attempts",
	"apikey.touch":             "recording a just-authenticated key's last use",
	"venue.create":             "creating a venue (an Organization has no venue above it)",
	"venue.update":             "changing a venue's plan or flags from the admin CLI",
	"venue.list":               "listing all venues for the platform operator",
	"venue.resolve":            "turning a public path slug into a venue",
	"platform.killswitch":      "switching the platform kill switch",
	"installsecrets.ensure":    "generating or reading the installation's secrets at the server's start",
	"audit.record":             "writing an audit entry for a read-only viewer (the entry stays bound to its venue)",
	"members.enroll":           "finding or creating a person's global account when a venue enrols them",
	"accounts.signup":          "creating an account at sign-up, before anyone is signed in",
	"accounts.login":           "finding the account of a login's email and upgrading its password hash",
	"accounts.state":           "reading an email's account state for the account-state check",
	"accounts.password_code":   "finding an account and storing a code for a password reset or change",
	"accounts.password_reset":  "spending a reset code and setting the password, signed out",
	"accounts.password_change": "setting the signed-in user's password and revoking their other sessions",
	"sessions.issue":           "opening a session and its first refresh token at sign-in",
	"sessions.refresh":         "exchanging a refresh token, which is the only credential presented",
	"sessions.workspace":       "reading a bearer session's active organization and the user's relationship there, while the request is authenticated",
	"mfa.status":               "reading whether a user has a confirmed second factor, for their own sign-in or profile",
	"mfa.enroll":               "creating the signed-in user's pending TOTP factor (user-owned rows are created only at named sites)",
	"mfa.verify":               "checking and spending the signed-in user's own factor, challenge or backup code and marking their session",
	"mfa.challenge":            "creating a challenge of the signed-in user's session for their own confirmed factor",
	"mfa.backup_codes":         "replacing the signed-in user's backup codes",
	"mfa.reset":                "an admin with admin.users.manage removing the factors of a person related to their active venue",
	"mfa.reset.key_issuer":     "reading, in an API key's own venue, the relationship of the staff member who issued it, to learn the authority the key carries",
	"device.start":             "creating a TV device authorization, before anyone is signed in",
	"device.approve":           "a signed-in user deciding a device authorization that has no owner until then",
	"device.token":             "exchanging a device code, which is the only credential the TV presents",
	"handoff.mint":             "storing the signed-in user's own hand-off code (user-owned rows are created only at named sites)",
	"handoff.exchange":         "spending a hand-off code, which is the only credential presented",
	"otp.request":              "finding the account of an email and storing its mobile sign-in request, before anyone is signed in",
	"otp.exchange":             "spending a mobile sign-in request, whose code or token is the only credential presented",
	"me.favorites":             "checking that a venue exists (and is listed or related) and storing the signed-in user's own favourite",
	"me.memberships":           "listing the signed-in user's own relationships across venues (bound to the user's id)",
	"bookings.own":             "listing the signed-in user's own bookings across the venues they are related to (bound to the user's member ids)",
	"inquiries.redeliver":      "the sweep that delivers stored but undelivered booking inquiries of every venue to their staff (each delivery acts as its venue)",
	"inquiries.mine":           "listing the signed-in user's own booking inquiries across venues, and those venues' names (bound to the user's id)",
	"me.notify_preferences":    "reading and storing the signed-in user's own notification preferences, a global row bound to the user's id",
	"notify.preferences":       "a venue's message honouring each recipient's own notification preferences, read by the recipients' user ids",
}

var (
	allowCall    = regexp.MustCompile(`system\.Allow\([^,]+,\s*"([^"]+)"\)`)
	decisionCall = regexp.MustCompile(`privacy\.DecisionContext\(`)
)

// TestSystemSitesAreNamed fails when production code bypasses the venue wall
// outside the named sites, or through privacy.DecisionContext directly.
func TestSystemSitesAreNamed(t *testing.T) {
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	var found []string
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			if rel == "ent" || strings.HasPrefix(rel, ".") && rel != "." || rel == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if decisionCall.Match(src) && rel != filepath.Join("internal", "system", "system.go") {
			t.Errorf("%s: privacy.DecisionContext outside package system; use system.Allow with a named site", rel)
		}
		for _, m := range allowCall.FindAllSubmatch(src, -1) {
			site := string(m[1])
			found = append(found, site)
			if _, ok := sites[site]; !ok {
				t.Errorf("%s: unlisted system site %q", rel, site)
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.True(t, slices.Contains(found, "apikey.lookup"), "the scan found no sites: is the walk broken?")
}

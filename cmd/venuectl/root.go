package main

import (
	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/config"
)

// Annotations of commands that handle the database themselves.
const (
	annotationDB = "venuectl/db"
	dbNone       = "none"      // no database at all (openapi)
	dbNoMigrate  = "nomigrate" // open it, but do not migrate first (migrate)
)

// newRootCmd builds the command tree. getenv supplies the environment
// defaults of the global flags, which are the server's settings of the same
// names (package config: one definition for both commands and the README).
func newRootCmd(a *app, getenv func(string) string) *cobra.Command {
	lookup := func(k string) (string, bool) {
		v := getenv(k)
		return v, v != ""
	}
	a.lookup = lookup
	root := &cobra.Command{
		Use:   "venuectl",
		Short: "Administer the venue platform from a shell",
		Long: "venuectl administers the venue platform: migrations, venues, staff, API keys, the\n" +
			"kill switch, imports, synthetic data and the audit trail.\n\n" +
			"Without --database-url (or DATABASE_URL) it uses the managed local PostgreSQL in the\n" +
			"data folder, the same one the server uses, starting it when it is not running.",
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			switch mode := cmd.Annotations[annotationDB]; {
			case mode == dbNone || isCompletion(cmd):
				return nil
			default:
				return a.open(cmd.Context(), mode != dbNoMigrate)
			}
		},
	}
	pf := root.PersistentFlags()
	// The settings venuectl shares with the server, and where it keeps them.
	shared := map[string]*string{"DATABASE_URL": &a.databaseURL, "VENUE_DATA_DIR": &a.dataDir}
	for _, s := range config.Settings {
		if s.Shared {
			pf.StringVar(shared[s.Env], s.Flag, config.Resolve(s, lookup), s.Usage())
		}
	}
	pf.BoolVar(&a.jsonOut, "json", false, "print machine-readable JSON on standard output")

	root.AddCommand(
		newMigrateCmd(a),
		newVenueCmd(a),
		newStaffCmd(a),
		newAPIKeyCmd(a),
		newKillSwitchCmd(a),
		newImportCmd(a),
		newSeedCmd(a),
		newAuditCmd(a),
		newOpenAPICmd(a),
		newPaymentsCmd(a),
		newBillingCmd(a),
	)
	return root
}

// isCompletion reports whether cmd is cobra's help or completion command or
// one of their subcommands: they need no database.
func isCompletion(cmd *cobra.Command) bool {
	for c := cmd; c != nil; c = c.Parent() {
		switch c.Name() {
		case "help", "completion", cobra.ShellCompRequestCmd, cobra.ShellCompNoDescRequestCmd:
			return true
		}
	}
	return false
}

package main

import (
	"fmt"
	"io"
	"os"
	"os/user"

	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/platform"
)

func newKillSwitchCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "killswitch on|off|status",
		Short: "The platform emergency kill switch: while on, every API-key request is refused",
		Long: "The platform emergency kill switch. While it is on, every API-key request (REST and MCP)\n" +
			"is refused on every server instance within 5 seconds.",
	}
	set := func(enabled bool) func(*cobra.Command, []string) error {
		return func(cmd *cobra.Command, _ []string) error {
			s, err := platform.SetKillSwitch(cmd.Context(), a.client, enabled, changedBy())
			if err != nil {
				return err
			}
			return printKillSwitch(a, s)
		}
	}
	cmd.AddCommand(
		&cobra.Command{Use: "on", Short: "Refuse every API-key request", Args: cobra.NoArgs, RunE: set(true)},
		&cobra.Command{Use: "off", Short: "Serve API-key requests again", Args: cobra.NoArgs, RunE: set(false)},
		&cobra.Command{Use: "status", Short: "Show whether the kill switch is on", Args: cobra.NoArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				s, err := platform.KillSwitch(cmd.Context(), a.client)
				if err != nil {
					return err
				}
				return printKillSwitch(a, s)
			}},
	)
	return cmd
}

func printKillSwitch(a *app, s platform.KillSwitchState) error {
	return a.output(struct {
		Enabled bool `json:"enabled"`
	}{s.Enabled}, func(w io.Writer) {
		fmt.Fprintf(w, "kill switch is %s", onOff(s.Enabled))
		if s.ChangedBy != "" {
			fmt.Fprintf(w, " (set by %s at %s)", s.ChangedBy, s.ChangedAt.UTC().Format("2006-01-02 15:04:05 MST"))
		}
		fmt.Fprintln(w)
	})
}

// changedBy names the operator who flips the switch.
func changedBy() string {
	who := "unknown"
	if u, err := user.Current(); err == nil {
		who = u.Username
	}
	host, _ := os.Hostname()
	if host != "" {
		who += "@" + host
	}
	return "venuectl:" + who
}

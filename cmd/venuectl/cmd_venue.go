package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// venueJSON is the --json shape of venue create and update.
type venueJSON struct {
	ID         string `json:"id"`
	Slug       string `json:"slug"`
	Plan       string `json:"plan"`
	APIEnabled bool   `json:"api_enabled"`
}

// venueListJSON is an item of venue list --json.
type venueListJSON struct {
	ID         string `json:"id"`
	Slug       string `json:"slug"`
	Name       string `json:"name"`
	Plan       string `json:"plan"`
	APIEnabled bool   `json:"api_enabled"`
}

func newVenueCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "venue", Short: "Create, change and list venues"}
	cmd.AddCommand(newVenueCreateCmd(a), newVenueUpdateCmd(a), newVenueListCmd(a))
	return cmd
}

func newVenueCreateCmd(a *app) *cobra.Command {
	var p venue.CreateParams
	cmd := &cobra.Command{
		Use:   "create --name N --slug S",
		Short: "Create a venue",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			v, err := venue.Create(cmd.Context(), a.client, p)
			if err != nil {
				return err
			}
			recordVenue(cmd.Context(), a, v, "venue.create")
			return printVenue(a, v, "created")
		},
	}
	f := cmd.Flags()
	f.StringVar(&p.Name, "name", "", "display name (required)")
	f.StringVar(&p.Slug, "slug", "", "URL slug, e.g. hot-yoga-cph (required)")
	f.StringVar(&p.Plan, "plan", venue.DefaultPlan, "plan: starter, pro or enterprise")
	f.StringVar(&p.Currency, "currency", venue.DefaultCurrency, "ISO 4217 currency")
	f.StringVar(&p.Timezone, "timezone", venue.DefaultTimezone, "IANA time zone")
	f.BoolVar(&p.APIEnabled, "api-enabled", false, "enable API access (feature_provisioning.api_enabled)")
	_ = cmd.MarkFlagRequired("name")
	_ = cmd.MarkFlagRequired("slug")
	return cmd
}

func newVenueUpdateCmd(a *app) *cobra.Command {
	var slug, plan string
	var apiEnabled bool
	cmd := &cobra.Command{
		Use:   "update --slug S [--plan P] [--api-enabled=true|false]",
		Short: "Change a venue's plan or API flag",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var p venue.UpdateParams
			if cmd.Flags().Changed("plan") {
				p.Plan = &plan
			}
			if cmd.Flags().Changed("api-enabled") {
				p.APIEnabled = &apiEnabled
			}
			if p.Plan == nil && p.APIEnabled == nil {
				return fmt.Errorf("nothing to change: give --plan or --api-enabled")
			}
			v, err := venue.Update(cmd.Context(), a.client, slug, p)
			if err != nil {
				if isNotFound(err) {
					return fmt.Errorf("venue %q not found", slug)
				}
				return err
			}
			recordVenue(cmd.Context(), a, v, "venue.update")
			return printVenue(a, v, "updated")
		},
	}
	f := cmd.Flags()
	f.StringVar(&slug, "slug", "", "the venue's slug (required)")
	f.StringVar(&plan, "plan", "", "plan: starter, pro or enterprise")
	f.BoolVar(&apiEnabled, "api-enabled", false, "API access on or off")
	_ = cmd.MarkFlagRequired("slug")
	return cmd
}

func newVenueListCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List venues",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			vs, err := venue.List(cmd.Context(), a.client)
			if err != nil {
				return err
			}
			out := make([]venueListJSON, len(vs))
			for i, v := range vs {
				out[i] = venueListJSON{ID: v.ID.String(), Slug: v.Slug, Name: v.Name, Plan: string(v.Plan), APIEnabled: v.APIEnabled()}
			}
			return a.output(out, func(w io.Writer) {
				if len(out) == 0 {
					fmt.Fprintln(w, "no venues")
					return
				}
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "SLUG\tNAME\tPLAN\tAPI\tID")
				for _, v := range out {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", v.Slug, v.Name, v.Plan, onOff(v.APIEnabled), v.ID)
				}
				_ = tw.Flush()
			})
		},
	}
}

func printVenue(a *app, v *venue.Venue, verb string) error {
	out := venueJSON{ID: v.ID.String(), Slug: v.Slug, Plan: string(v.Plan), APIEnabled: v.APIEnabled()}
	return a.output(out, func(w io.Writer) {
		fmt.Fprintf(w, "%s venue %s: plan %s, API %s (id %s)\n", verb, out.Slug, out.Plan, onOff(out.APIEnabled), out.ID)
	})
}

// recordVenue leaves an audit entry in the venue's trail; a failure to
// record does not undo the change, it is reported on standard error.
func recordVenue(ctx context.Context, a *app, v *venue.Venue, action string) {
	vctx := system.Elevate(ctx, "venuectl.operator", viewer.Operator{Org: v.ID, Name: operatorName})
	record(vctx, a, audit.Entry{Action: action, Target: "venue:" + v.Slug,
		Details: map[string]any{"plan": string(v.Plan), "api_enabled": v.APIEnabled()}})
}

// record appends an entry to the trail of the venue of ctx.
func record(ctx context.Context, a *app, e audit.Entry) {
	if _, err := audit.Record(ctx, a.client, e); err != nil {
		fmt.Fprintln(a.stderr, "venuectl: warning: audit entry not recorded:", err)
	}
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/audit"
)

// auditJSON is an item of audit list --json.
type auditJSON struct {
	ID      string         `json:"id"`
	At      string         `json:"at"`
	Actor   string         `json:"actor"`
	Action  string         `json:"action"`
	Target  string         `json:"target"`
	Outcome string         `json:"outcome"`
	Details map[string]any `json:"details"`
}

func newAuditCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "audit", Short: "Read a venue's audit trail"}
	cmd.AddCommand(newAuditListCmd(a))
	return cmd
}

func newAuditListCmd(a *app) *cobra.Command {
	var slug string
	var limit int
	cmd := &cobra.Command{
		Use:   "list --venue S [--limit N]",
		Short: "The audit trail, newest first",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if limit < 1 || limit > 10000 {
				return fmt.Errorf("--limit must be between 1 and 10000")
			}
			vctx, _, err := a.venueContext(cmd.Context(), slug)
			if err != nil {
				return err
			}
			rows, err := audit.List(vctx, a.client, limit)
			if err != nil {
				return err
			}
			out := make([]auditJSON, len(rows))
			for i, r := range rows {
				details := r.Details
				if details == nil {
					details = map[string]any{}
				}
				out[i] = auditJSON{ID: r.ID.String(), At: r.CreatedAt.UTC().Format(time.RFC3339Nano), Actor: r.Actor,
					Action: r.Action, Target: r.Target, Outcome: string(r.Outcome), Details: details}
			}
			return a.output(out, func(w io.Writer) {
				if len(out) == 0 {
					fmt.Fprintln(w, "no entries")
					return
				}
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "AT\tACTOR\tACTION\tTARGET\tOUTCOME\tDETAILS")
				for _, e := range out {
					d, _ := json.Marshal(e.Details)
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.At[:19], e.Actor, e.Action, e.Target, e.Outcome, d)
				}
				_ = tw.Flush()
			})
		},
	}
	cmd.Flags().StringVar(&slug, "venue", "", "the venue's slug (required)")
	cmd.Flags().IntVar(&limit, "limit", 50, "entries to show")
	_ = cmd.MarkFlagRequired("venue")
	return cmd
}

package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/jobs"
)

func newMigrateCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:         "migrate",
		Short:       "Apply pending database migrations",
		Args:        cobra.NoArgs,
		Annotations: map[string]string{annotationDB: dbNoMigrate},
		RunE: func(cmd *cobra.Command, _ []string) error {
			applied, err := db.Migrate(cmd.Context(), a.pool)
			if err != nil {
				return err
			}
			// The job queue's own tables (River), versioned apart from the schema's.
			queue, err := jobs.Migrate(cmd.Context(), a.pool)
			if err != nil {
				return err
			}
			return a.output(struct {
				Applied      []string `json:"applied"`
				QueueApplied []int    `json:"queue_applied,omitempty"`
			}{applied, queue}, func(w io.Writer) {
				if len(queue) > 0 {
					fmt.Fprintf(w, "applied %d job queue migration(s)\n", len(queue))
				}
				if len(applied) == 0 {
					fmt.Fprintln(w, "database is up to date")
					return
				}
				fmt.Fprintf(w, "applied %d migration(s): %s\n", len(applied), strings.Join(applied, ", "))
			})
		},
	}
}

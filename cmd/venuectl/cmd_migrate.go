package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/db"
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
			return a.output(struct {
				Applied []string `json:"applied"`
			}{applied}, func(w io.Writer) {
				if len(applied) == 0 {
					fmt.Fprintln(w, "database is up to date")
					return
				}
				fmt.Fprintf(w, "applied %d migration(s): %s\n", len(applied), strings.Join(applied, ", "))
			})
		},
	}
}

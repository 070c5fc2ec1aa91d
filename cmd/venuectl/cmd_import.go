package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/importer"
)

func newImportCmd(a *app) *cobra.Command {
	var slug, file string
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "import --venue S --file F [--dry-run]",
		Short: "Import a venue's data (format venue-import/1)",
		Long: "Import a venue's data from a JSON document in the format venue-import/1, in one\n" +
			"transaction: on any error nothing is written. Re-running a document updates the rows\n" +
			"it created before. --file - reads standard input.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in := io.Reader(os.Stdin)
			if file != "-" {
				f, err := os.Open(file)
				if err != nil {
					return err
				}
				defer f.Close()
				in = f
			}
			doc, err := importer.Parse(in)
			if err != nil {
				return err
			}
			vctx, v, err := a.venueContext(cmd.Context(), slug)
			if err != nil {
				return err
			}
			bar := newProgress(a.stderr, "importing", a.interactive)
			res, err := importer.Import(vctx, a.client, doc, importer.Options{DryRun: dryRun, Progress: bar.update})
			bar.finish()
			if err != nil {
				return err
			}
			if !dryRun {
				record(vctx, a, audit.Entry{Action: "import", Target: "venue:" + v.Slug,
					Details: map[string]any{"counts": res.Counts, "created": res.Created}})
			}
			return a.output(res, func(w io.Writer) {
				total, created := 0, 0
				var parts []string
				for _, s := range importer.Sections {
					total += res.Counts[s]
					created += res.Created[s]
					if res.Counts[s] > 0 {
						parts = append(parts, fmt.Sprintf("%s %d", s, res.Counts[s]))
					}
				}
				verb := "imported"
				if dryRun {
					verb = "dry run, nothing written: would import"
				}
				fmt.Fprintf(w, "%s %d items into %s (%d new, %d existing)\n", verb, total, v.Slug, created, total-created)
				if len(parts) > 0 {
					fmt.Fprintln(w, strings.Join(parts, ", "))
				}
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&slug, "venue", "", "the venue's slug (required)")
	f.StringVar(&file, "file", "", "the document to import, - for standard input (required)")
	f.BoolVar(&dryRun, "dry-run", false, "validate and report counts without writing")
	_ = cmd.MarkFlagRequired("venue")
	_ = cmd.MarkFlagRequired("file")
	return cmd
}

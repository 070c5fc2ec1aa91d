package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/seed"
)

func newSeedCmd(a *app) *cobra.Command {
	var p seed.Params
	cmd := &cobra.Command{
		Use:   "seed --venues N --members M --days D [--seed X]",
		Short: "Create synthetic venues at scale, deterministic for a seed",
		Long: "Create synthetic venues for demos and benchmarks: each with locations, rooms, class types,\n" +
			"instructors, a schedule of --days days from today with bookings, pass types, and --members\n" +
			"members (per venue) with passes and payments. Venue i of seed X has slug seed-X-venue-i;\n" +
			"venues that already exist are skipped, so re-running a seed is safe.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bar := newProgress(a.stderr, "seeding", a.interactive)
			p.Progress = bar.update
			start := time.Now()
			res, err := seed.Run(cmd.Context(), a.pool, p)
			bar.finish()
			if err != nil {
				return err
			}
			return a.output(res, func(w io.Writer) {
				created := slices.DeleteFunc(slices.Clone(res.Venues), func(s string) bool { return slices.Contains(res.Skipped, s) })
				fmt.Fprintf(w, "seeded %d venue(s) in %s: %s\n", len(created), time.Since(start).Round(100*time.Millisecond), strings.Join(created, ", "))
				if len(created) > 0 {
					fmt.Fprintf(w, "members %d, classes %d, bookings %d, passes %d, payments %d\n", res.Counts["members"],
						res.Counts["class_instances"], res.Counts["bookings"], res.Counts["passes"], res.Counts["payments"])
				}
				if len(res.Skipped) > 0 {
					fmt.Fprintf(w, "skipped (already there): %s\n", strings.Join(res.Skipped, ", "))
				}
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&p.Venues, "venues", 1, "number of venues")
	f.IntVar(&p.Members, "members", 1000, "members per venue")
	f.IntVar(&p.Days, "days", 7, "days of schedule from today")
	f.Uint64Var(&p.Seed, "seed", 1, "seed of the random data")
	return cmd
}

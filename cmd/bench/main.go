package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/venueplatform/venue/internal/bench"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := newRootCmd().ExecuteContext(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		stop()
		os.Exit(1)
	}
}

// newRootCmd returns the bench command with its flags.
func newRootCmd() *cobra.Command {
	var (
		cfg     bench.Config
		ops     string
		asJSON  bool
		listOps bool
	)
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "HTTP load benchmark of the venue platform's REST API",
		Long: `bench seeds or reuses synthetic data, drives each chosen operation at each
concurrency level for --duration with closed-loop workers over loopback HTTP,
and reports throughput and p50/p95/p99 per step, the service/baseline ratios
of the schedule read and the p99 scale ratio of the venue geo search.

Without --database-url it runs on a throwaway managed PostgreSQL in
--data-dir (a temporary directory when unset; give one to reuse seeded
data between runs). Without --target it serves the service in-process on
127.0.0.1; a --target must read --database-url and trust X-Forwarded-For
from loopback (cmd/server does by default), because the load comes from
many simulated client addresses. Each step's --duration is measured in
--rounds slices interleaved with the level's other steps, so that a busy
machine disturbs the service and the baseline alike. Progress goes to
standard error, the report to standard output.`,
		Example: `  bench --venues 1 --members 20000 --days 14 --ops schedule,schedule-baseline --concurrency 1,16,64 --duration 10s
  bench --ops venues-geo --geo-venues 100,10000 --concurrency 1,16 --duration 10s --json`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if listOps {
				for _, op := range bench.Ops() {
					fmt.Fprintf(cmd.OutOrStdout(), "%-20s %s\n", op.Name, op.Help)
				}
				return nil
			}
			cfg.Ops = strings.Split(ops, ",")
			if ops == bench.AppointmentsOp { // its own data and report (internal/bench/appointments.go)
				return bench.RunAppointments(cmd.Context(), &cfg, cmd.OutOrStdout())
			}
			d := bench.NewDisplay(os.Stderr, bench.IsTerminal(os.Stderr))
			rep, err := bench.Execute(cmd.Context(), cfg, d)
			if rep != nil {
				if werr := bench.Write(cmd.OutOrStdout(), rep, asJSON); werr != nil && err == nil {
					err = werr
				}
			}
			if errors.Is(err, context.Canceled) {
				return errors.New("interrupted")
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&cfg.DatabaseURL, "database-url", os.Getenv("DATABASE_URL"),
		"PostgreSQL URL to seed and read (DATABASE_URL); unset runs a throwaway managed PostgreSQL")
	f.StringVar(&cfg.DataDir, "data-dir", "", "data folder of the managed PostgreSQL (default: a temporary directory, removed at the end)")
	f.IntVar(&cfg.Venues, "venues", 1, "venues of the main data set")
	f.IntVar(&cfg.Members, "members", 2000, "members per venue of the main data set")
	f.IntVar(&cfg.Days, "days", 14, "days of schedule from today")
	f.Uint64Var(&cfg.Seed, "seed", 1, "seed of the synthetic data; venues of this seed that exist are reused")
	f.IntSliceVar(&cfg.GeoVenues, "geo-venues", []int{100, 10000}, "venue counts of the geo search data sets")
	f.IntVar(&cfg.GeoMembers, "geo-members", 0, "members per venue of the geo data sets")
	f.IntSliceVar(&cfg.MemberScales, "member-scales", []int{10000, 1000000},
		"members of one venue at each scale of the members-* ops, smallest first (the smallest also runs beside the largest)")
	f.StringVar(&ops, "ops", "schedule,schedule-baseline", "operations to drive, comma-separated (--list-ops shows them)")
	f.BoolVar(&listOps, "list-ops", false, "list the operations and exit")
	f.IntSliceVar(&cfg.Concurrency, "concurrency", []int{1, 16, 64}, "concurrency levels (closed-loop workers)")
	f.DurationVar(&cfg.Duration, "duration", 10*time.Second, "measured time per step")
	f.DurationVar(&cfg.Warmup, "warmup", 2*time.Second, "unmeasured time before each step (later rounds warm up for at most 250ms)")
	f.IntVar(&cfg.Rounds, "rounds", 5, "split each step's --duration into this many slices, interleaved with the level's other steps")
	f.Int64Var(&cfg.MaxRequests, "requests", 0, "also end each step after this many measured requests (0: no cap)")
	f.DurationVar(&cfg.Timeout, "timeout", 30*time.Second, "timeout of one request")
	f.StringVar(&cfg.Target, "target", "", "base URL of a running service to measure instead of an in-process one (needs --database-url)")
	f.StringVar(&cfg.ProfileDir, "cpuprofile-dir", "", "write a CPU profile of each step (of each round) into this directory")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}

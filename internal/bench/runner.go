package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/seed"
)

// Config is one run of the tool; cmd/bench fills it from its flags.
type Config struct {
	// DatabaseURL is the database to seed and read; empty starts a managed
	// throwaway PostgreSQL in DataDir (a temporary directory when empty).
	DatabaseURL string
	DataDir     string
	// Venues, Members (per venue), Days and Seed are the main set's scale.
	Venues, Members, Days int
	Seed                  uint64
	// GeoVenues are the venue counts of the geo sets; GeoMembers the members
	// of each of their venues.
	GeoVenues  []int
	GeoMembers int
	// MemberScales are the members of one venue at each scale of the
	// members family, smallest first (e.g. 10000 and 1000000).
	MemberScales []int
	// Ops names the operations to drive (see Ops).
	Ops []string
	// Concurrency lists the levels each op runs at.
	Concurrency []int
	// Warmup and Duration are each step's unmeasured and measured time;
	// MaxRequests, when positive, also caps each step's measured requests.
	Warmup, Duration time.Duration
	MaxRequests      int64
	// Rounds splits each step's measured window into this many slices,
	// run in turn with the other steps of the same concurrency level (A B A
	// B ...), so that a change in the machine's background load during the
	// level affects every op alike. Zero means 1.
	Rounds int
	// Timeout bounds each request.
	Timeout time.Duration
	// ProfileDir, when set, receives a CPU profile of the whole process per
	// step (<op>-<set>-c<concurrency>.pprof); useful with the in-process
	// service, where the server's frames are in it.
	ProfileDir string
	// Target is the base URL of a running service to measure instead of an
	// in-process one; it must read DatabaseURL. Geo ops then run on the main
	// set against it, without scale sets.
	Target string
}

// Validate checks cfg and returns the ops it names.
func (cfg *Config) Validate() ([]*Op, error) {
	ops, err := Lookup(cfg.Ops)
	if err != nil {
		return nil, err
	}
	switch {
	case len(cfg.Concurrency) == 0:
		return nil, errors.New("no concurrency levels given")
	case slices.ContainsFunc(cfg.Concurrency, func(c int) bool { return c < 1 || c > 4096 }):
		return nil, errors.New("concurrency levels must be between 1 and 4096")
	case cfg.Duration <= 0 && cfg.MaxRequests <= 0:
		return nil, errors.New("--duration must be positive")
	case cfg.Rounds < 0 || cfg.Rounds > 100:
		return nil, errors.New("--rounds must be between 1 and 100")
	case cfg.Warmup < 0:
		return nil, errors.New("--warmup must not be negative")
	case cfg.Target != "" && cfg.DatabaseURL == "":
		return nil, errors.New("--target needs --database-url: the target's database, where the data is seeded")
	case cfg.Target != "" && !strings.HasPrefix(cfg.Target, "http://") && !strings.HasPrefix(cfg.Target, "https://"):
		return nil, errors.New("--target must be a base URL such as http://127.0.0.1:8080")
	case slices.ContainsFunc(cfg.GeoVenues, func(n int) bool { return n < 1 || n > 100*seed.MaxVenues }):
		return nil, fmt.Errorf("--geo-venues must be between 1 and %d", 100*seed.MaxVenues)
	case slices.ContainsFunc(ops, func(op *Op) bool { return op.Family == FamilyMembers }):
		switch {
		case cfg.Target != "":
			return nil, errors.New("the members family's ops run on the in-process service only (no --target)")
		case len(cfg.MemberScales) == 0:
			return nil, errors.New("--member-scales must name at least one scale")
		case slices.ContainsFunc(cfg.MemberScales, func(n int) bool { return n < 1 || n > seed.MaxMembers }):
			return nil, fmt.Errorf("--member-scales must be between 1 and %d", seed.MaxMembers)
		case !slices.IsSorted(cfg.MemberScales) || len(slices.Compact(slices.Clone(cfg.MemberScales))) != len(cfg.MemberScales):
			return nil, errors.New("--member-scales must be increasing")
		}
	}
	return ops, nil
}

// Execute seeds or reuses the data, starts the servers, drives every op at
// every concurrency level and returns the report. Progress goes to d.
// Cancelling ctx stops the run; the steps done so far are reported with the
// context's error.
func Execute(ctx context.Context, cfg Config, d *Display) (*Report, error) {
	ops, err := cfg.Validate()
	if err != nil {
		return nil, err
	}
	cfg.Target = strings.TrimRight(cfg.Target, "/")
	rep := &Report{
		Started: time.Now().UTC().Truncate(time.Second),
		Environment: Environment{
			GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH,
			CPUs: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), Target: "in-process",
		},
		Settings: Settings{
			Ops: opNames(ops), Concurrency: cfg.Concurrency,
			Duration: Millis(cfg.Duration), Warmup: Millis(cfg.Warmup), MaxRequests: cfg.MaxRequests,
			Rounds: max(cfg.Rounds, 1),
		},
	}
	if cfg.Target != "" {
		rep.Environment.Target = cfg.Target
	}

	dbs, err := openDatabases(ctx, &cfg, d)
	if err != nil {
		return nil, err
	}
	defer dbs.close()

	sets, cleanup, err := prepare(ctx, &cfg, ops, dbs, d)
	defer cleanup()
	if err != nil {
		return nil, err
	}
	for _, ds := range sets {
		rep.Sets = append(rep.Sets, SetReport{
			Name: ds.Name, Venues: len(ds.Venues), Members: ds.Members, Classes: ds.Classes,
			Days: ds.Params.Days, Seed: ds.Params.Seed, Seeded: ds.Seeded, SeedTime: Millis(ds.SeedTime),
		})
	}
	if err := sets[0].Pool.QueryRow(ctx, "SHOW server_version").Scan(&rep.Environment.PostgreSQL); err == nil {
		rep.Environment.PostgreSQL = "PostgreSQL " + strings.Fields(rep.Environment.PostgreSQL)[0]
	}

	meter := cpuMeter{}
	if dbs.cluster != nil {
		meter.pgDataDir = dbs.cluster.DataDir()
	}
	client := NewClient(slices.Max(cfg.Concurrency), cfg.Timeout)
	defer client.CloseIdleConnections()
	for _, c := range cfg.Concurrency {
		steps, err := runLevel(ctx, c, ops, sets, &cfg, client, meter, d)
		rep.Steps = append(rep.Steps, steps...)
		if err != nil {
			rep.Compare(ops)
			return rep, err
		}
	}
	rep.Compare(ops)
	return rep, nil
}

// planned is a data set to prepare in the database named suffix.
type planned struct {
	ds     *DataSet
	suffix string
}

// prepare builds the data sets the ops need and starts their servers. The
// returned cleanup stops the servers and closes the pools.
func prepare(ctx context.Context, cfg *Config, ops []*Op, dbs *databases, d *Display) ([]*DataSet, func(), error) {
	var (
		sets      []*DataSet
		listeners []*listener
	)
	cleanup := func() {
		for _, l := range listeners {
			l.close()
		}
		for _, ds := range sets {
			if ds.Pool != nil {
				ds.Pool.Close()
			}
		}
	}
	needMain, needGeo, needMembers, needBaseline, needBearer := false, false, false, false, false
	needStaff, needLocal, needProducts := false, false, false
	needPayments := false
	var scopes []string
	for _, op := range ops {
		needMain = needMain || op.Family == FamilyMain || cfg.Target != ""
		needGeo = needGeo || (op.Family == FamilyGeo && cfg.Target == "")
		needMembers = needMembers || op.Family == FamilyMembers
		needBaseline = needBaseline || op.Baseline
		needBearer = needBearer || op.Bearer
		needStaff = needStaff || op.Staff
		needLocal = needLocal || op.Local
		needProducts = needProducts || op.Products
		needPayments = needPayments || op.Payments
		for _, s := range op.Scopes {
			if !slices.Contains(scopes, s) {
				scopes = append(scopes, s)
			}
		}
	}
	var plan []planned
	if needMain {
		plan = append(plan, planned{ds: &DataSet{Name: FamilyMain, Family: FamilyMain, Params: seed.Params{
			Venues: cfg.Venues, Members: cfg.Members, Days: cfg.Days, Seed: cfg.Seed,
		}}})
	}
	if needGeo {
		for _, n := range cfg.GeoVenues {
			name := fmt.Sprintf("geo-%d", n)
			plan = append(plan, planned{suffix: strings.ReplaceAll(name, "-", "_"), ds: &DataSet{
				Name: name, Family: FamilyGeo,
				Params: seed.Params{Venues: n, Members: cfg.GeoMembers, Days: 1, Seed: cfg.Seed},
			}})
		}
	}
	if needMembers {
		plan = append(plan, membersPlan(cfg)...)
	}
	for _, p := range plan {
		sets = append(sets, p.ds)
		if err := prepareSet(ctx, dbs, p.ds, p.suffix, d); err != nil {
			return sets, cleanup, err
		}
		ds := p.ds
		if cfg.Target != "" && ds.Family == FamilyMain {
			ds.ServiceURL = cfg.Target
		} else {
			l, err := startService(ds)
			if err != nil {
				return sets, cleanup, err
			}
			listeners = append(listeners, l)
			ds.ServiceURL = l.url
		}
		if needBaseline && ds.Family == FamilyMain {
			l, err := serve(NewBaseline(ds.Pool))
			if err != nil {
				return sets, cleanup, err
			}
			listeners = append(listeners, l)
			ds.BaselineURL = l.url
		}
		if len(scopes) > 0 && (ds.Family == FamilyMain || ds.Family == FamilyMembers) {
			if err := issueKeys(ctx, ds, scopes); err != nil {
				return sets, cleanup, err
			}
		}
		if (needStaff || needLocal) && ds.Family == FamilyMembers {
			if err := prepareHistory(ctx, ds); err != nil {
				return sets, cleanup, fmt.Errorf("history of %s: %w", ds.Name, err)
			}
		}
		if needProducts && ds.Family == FamilyMembers {
			if err := prepareProducts(ctx, ds); err != nil {
				return sets, cleanup, err
			}
		}
		if needPayments && ds.Family == FamilyMembers {
			if err := preparePayments(ctx, ds); err != nil {
				return sets, cleanup, err
			}
		}
		if needLocal && ds.Family == FamilyMembers {
			l, err := startAudit(ds)
			if err != nil {
				return sets, cleanup, err
			}
			listeners = append(listeners, l)
			ds.LocalURL = l.url
		}
		if (needBearer || needStaff) && ds.Family == FamilyMembers {
			if err := signIn(ctx, ds, needBearer, needStaff, cfg.Timeout); err != nil {
				return sets, cleanup, err
			}
			if needStaff {
				if err := readCursor(ctx, ds, cfg.Timeout); err != nil {
					return sets, cleanup, err
				}
			}
		}
	}
	return sets, cleanup, nil
}

// Write writes rep to w as text, or as JSON when asJSON.
func Write(w io.Writer, rep *Report, asJSON bool) error {
	if asJSON {
		return rep.WriteJSON(w)
	}
	return rep.WriteText(w)
}

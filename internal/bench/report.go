package bench

import (
	"cmp"
	"encoding/json"
	"slices"
	"time"
)

// Report is the outcome of a run: what ran on what, every step's figures,
// the ratios the ops' goals ask for, and whether the goals are met.
type Report struct {
	Started     time.Time    `json:"started"`
	Environment Environment  `json:"environment"`
	Settings    Settings     `json:"settings"`
	Sets        []SetReport  `json:"data_sets"`
	Steps       []StepReport `json:"steps"`
	Baseline    []RatioRow   `json:"baseline_ratios"`
	Scale       []ScaleRow   `json:"scale_ratios"`
	Goals       []GoalResult `json:"goals"`
}

// Environment describes the machine and software measured.
type Environment struct {
	GoVersion  string `json:"go_version"`
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	CPUs       int    `json:"cpus"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	PostgreSQL string `json:"postgresql"`
	// Target is the base URL of the measured service ("in-process" when the
	// tool started it).
	Target string `json:"target"`
}

// Settings are the run's parameters, as given.
type Settings struct {
	Ops         []string `json:"ops"`
	Concurrency []int    `json:"concurrency"`
	Duration    Millis   `json:"duration_ms"`
	Warmup      Millis   `json:"warmup_ms"`
	Rounds      int      `json:"rounds"`
	MaxRequests int64    `json:"max_requests,omitempty"`
}

// SetReport describes a data set.
type SetReport struct {
	Name     string `json:"name"`
	Venues   int    `json:"venues"`
	Members  int    `json:"members"`
	Classes  int    `json:"classes"`
	Days     int    `json:"days"`
	Seed     uint64 `json:"seed"`
	Seeded   bool   `json:"seeded"`
	SeedTime Millis `json:"seed_time_ms,omitempty"`
}

// StepReport is one step's figures.
type StepReport struct {
	Op          string  `json:"op"`
	Set         string  `json:"set"`
	Concurrency int     `json:"concurrency"`
	Requests    int64   `json:"requests"`
	Errors      int64   `json:"errors"`
	Seconds     float64 `json:"seconds"`
	Throughput  float64 `json:"throughput_rps"`
	Mean        Millis  `json:"mean_ms"`
	P50         Millis  `json:"p50_ms"`
	P95         Millis  `json:"p95_ms"`
	P99         Millis  `json:"p99_ms"`
	Max         Millis  `json:"max_ms"`
	// Bytes is the mean size of an answer's body.
	Bytes int64 `json:"mean_response_bytes"`
	// CPU is this process's CPU time per answered request (the load
	// generator and the in-process servers); DBCPU the managed PostgreSQL's
	// (absent with another database).
	CPU         Millis   `json:"cpu_ms_per_request"`
	DBCPU       *Millis  `json:"db_cpu_ms_per_request,omitempty"`
	ErrorSample []string `json:"error_samples,omitempty"`
}

// totalCPU returns CPU plus DBCPU where known.
func (s *StepReport) totalCPU() float64 {
	t := float64(s.CPU)
	if s.DBCPU != nil {
		t += float64(*s.DBCPU)
	}
	return t
}

// RatioRow compares a service op with the baseline op that mirrors it at one
// concurrency: ours divided by baseline.
type RatioRow struct {
	Op          string  `json:"op"`
	Baseline    string  `json:"baseline"`
	Set         string  `json:"set"`
	Concurrency int     `json:"concurrency"`
	Throughput  float64 `json:"throughput_ratio"`
	P50         float64 `json:"p50_ratio"`
	P99         float64 `json:"p99_ratio"`
	// CPU is the CPU time per request, this process and the database
	// together where known: what the throughput ratio tends to when the
	// machine is the limit, and steadier than it on a busy machine.
	CPU float64 `json:"cpu_per_request_ratio"`
}

// ScaleRow compares an op's p99 on the largest and smallest sets of its
// family at one concurrency.
type ScaleRow struct {
	Op          string  `json:"op"`
	Small       string  `json:"small_set"`
	Large       string  `json:"large_set"`
	Concurrency int     `json:"concurrency"`
	SmallP99    Millis  `json:"small_p99_ms"`
	LargeP99    Millis  `json:"large_p99_ms"`
	P99         float64 `json:"p99_ratio"`
}

// GoalResult is one goal checked at one concurrency.
type GoalResult struct {
	Op          string  `json:"op"`
	Goal        string  `json:"goal"`
	Concurrency int     `json:"concurrency"`
	Value       float64 `json:"value"`
	Limit       float64 `json:"limit"`
	Met         bool    `json:"met"`
}

// Millis is a duration that JSON shows as fractional milliseconds.
type Millis time.Duration

// MarshalJSON implements json.Marshaler.
func (m Millis) MarshalJSON() ([]byte, error) {
	return json.Marshal(roundTo(float64(m)/1e6, 3))
}

// String formats m for the text report.
func (m Millis) String() string { return fmtDuration(time.Duration(m)) }

// NewStepReport summarises a Result.
func NewStepReport(r *Result) StepReport {
	h := r.Latency
	self, db := r.CPUPerRequest()
	var dbCPU *Millis
	if db >= 0 {
		m := Millis(db)
		dbCPU = &m
	}
	return StepReport{
		CPU: Millis(self), DBCPU: dbCPU,
		Bytes: r.Bytes / max(r.Requests, 1),
		Op:    r.Op, Set: r.Set, Concurrency: r.Concurrency,
		Requests: r.Requests, Errors: r.Errors,
		Seconds:     roundTo(r.Elapsed.Seconds(), 3),
		Throughput:  roundTo(r.Throughput(), 1),
		Mean:        Millis(h.Mean()),
		P50:         Millis(h.Quantile(0.50)),
		P95:         Millis(h.Quantile(0.95)),
		P99:         Millis(h.Quantile(0.99)),
		Max:         Millis(h.Max()),
		ErrorSample: r.ErrorSamples,
	}
}

// Compare fills the ratio rows and goal results from the steps, using the
// ops' Mirrors and Goals. ops must hold every op named by a step.
func (rep *Report) Compare(ops []*Op) {
	rep.Baseline, rep.Scale, rep.Goals = nil, nil, nil
	byName := map[string]*Op{}
	for _, op := range ops {
		byName[op.Name] = op
	}
	find := func(op, set string, c int) *StepReport {
		for i := range rep.Steps {
			s := &rep.Steps[i]
			if s.Op == op && s.Set == set && s.Concurrency == c {
				return s
			}
		}
		return nil
	}
	for _, s := range rep.Steps {
		base := byName[s.Op]
		if base == nil || base.Mirrors == "" {
			continue
		}
		ours := find(base.Mirrors, s.Set, s.Concurrency)
		if ours == nil {
			continue
		}
		row := RatioRow{
			Op: ours.Op, Baseline: s.Op, Set: s.Set, Concurrency: s.Concurrency,
			Throughput: ratio(ours.Throughput, s.Throughput),
			P50:        ratio(float64(ours.P50), float64(s.P50)),
			P99:        ratio(float64(ours.P99), float64(s.P99)),
			CPU:        ratio(ours.totalCPU(), s.totalCPU()),
		}
		rep.Baseline = append(rep.Baseline, row)
		rep.checkGoals(byName[ours.Op], GoalBaselineThroughput, row.Concurrency, row.Throughput)
	}
	for _, op := range ops {
		if op.Family != FamilyGeo && op.Family != FamilyMembers {
			continue
		}
		levels := map[int][]*StepReport{}
		for i := range rep.Steps {
			if s := &rep.Steps[i]; s.Op == op.Name && !isPlatformSet(s.Set) {
				levels[s.Concurrency] = append(levels[s.Concurrency], s)
			}
		}
		for _, c := range sortedKeys(levels) {
			steps := levels[c]
			if len(steps) < 2 {
				continue
			}
			slices.SortFunc(steps, func(a, b *StepReport) int { return cmp.Compare(setScale(a.Set), setScale(b.Set)) })
			small, large := steps[0], steps[len(steps)-1]
			row := ScaleRow{
				Op: op.Name, Small: small.Set, Large: large.Set, Concurrency: c,
				SmallP99: small.P99, LargeP99: large.P99,
				P99: ratio(float64(large.P99), float64(small.P99)),
			}
			rep.Scale = append(rep.Scale, row)
			rep.checkGoals(op, GoalScaleP99, c, row.P99)
		}
	}
	rep.compareMembers(ops, find)
}

// checkGoals records op's goals of kind at concurrency c for value v.
func (rep *Report) checkGoals(op *Op, kind string, c int, v float64) {
	if op == nil {
		return
	}
	for _, g := range op.Goals {
		if g.Kind != kind || (g.Concurrency != 0 && g.Concurrency != c) {
			continue
		}
		met := v >= g.Limit
		if kind != GoalBaselineThroughput {
			met = v <= g.Limit
		}
		rep.Goals = append(rep.Goals, GoalResult{
			Op: op.Name, Goal: g.String(), Concurrency: c, Value: v, Limit: g.Limit, Met: met,
		})
	}
}

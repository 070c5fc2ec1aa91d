package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"time"
)

// rewarm is the warmup of the later rounds of a step: enough to open the
// connections again.
const rewarm = 250 * time.Millisecond

// runLevel runs every op on its sets at concurrency c, in cfg.Rounds
// interleaved slices, and returns one merged report per step.
func runLevel(ctx context.Context, c int, ops []*Op, sets []*DataSet, cfg *Config, client *http.Client, meter cpuMeter, d *Display) ([]StepReport, error) {
	rounds := max(cfg.Rounds, 1)
	type key struct{ op, set string }
	var order []key
	merged := map[key]*Result{}
	report := func() []StepReport {
		var out []StepReport
		for _, k := range order {
			if r := merged[k]; r.Elapsed > 0 {
				out = append(out, NewStepReport(r))
			}
		}
		return out
	}
	for round := range rounds {
		for _, op := range ops {
			for _, ds := range sets {
				if ds.Family != op.Family && (cfg.Target == "" || op.Family != FamilyGeo) {
					continue
				}
				if op.Bearer || op.Staff {
					if err := refreshTokens(ctx, ds); err != nil {
						return report(), fmt.Errorf("sign in again: %w", err)
					}
				}
				step := newStep(op, ds, c, cfg, client)
				step.Round, step.Rounds = round+1, rounds
				step.FirstRequest = uint64(round) << 40
				step.Duration = cfg.Duration / time.Duration(rounds)
				if cfg.MaxRequests > 0 {
					step.MaxRequests = max(cfg.MaxRequests/int64(rounds), 1)
				}
				if round > 0 {
					step.Warmup = min(cfg.Warmup, rewarm)
				}
				stopProfile, err := startProfile(cfg.ProfileDir, step)
				if err != nil {
					return report(), err
				}
				before := meter.sample()
				res, err := Run(ctx, step, d.Step(step.Warmup+step.Duration))
				after := meter.sample()
				stopProfile()
				if res != nil {
					res.CPU, res.DBCPU = after.self-before.self, -1
					if before.db >= 0 && after.db >= 0 {
						res.DBCPU = after.db - before.db
					}
				}
				k := key{op.Name, ds.Name}
				if merged[k] == nil {
					order = append(order, k)
					merged[k] = &Result{Op: op.Name, Set: ds.Name, Concurrency: c, Latency: &Histogram{}}
				}
				if res != nil {
					merged[k].Merge(res)
				}
				if err != nil {
					return report(), err
				}
				// Every slice starts from the same state: no idle connections
				// to another server, no garbage of the previous slice.
				client.CloseIdleConnections()
				runtime.GC()
			}
		}
	}
	out := report()
	for _, sr := range out {
		d.Printf("%s %s c=%d: %d requests, %d errors, %.1f req/s, p50 %s, p95 %s, p99 %s",
			sr.Op, sr.Set, sr.Concurrency, sr.Requests, sr.Errors, sr.Throughput, sr.P50, sr.P95, sr.P99)
	}
	return out, nil
}

// newStep builds the step of op on ds at concurrency c.
func newStep(op *Op, ds *DataSet, c int, cfg *Config, client *http.Client) *Step {
	base := ds.ServiceURL
	if op.Baseline {
		base = ds.BaselineURL
	}
	if op.Local {
		base = ds.LocalURL
	}
	auth := len(op.Scopes) > 0
	return &Step{
		Op: op.Name, Set: ds.Name, Concurrency: c,
		Warmup: cfg.Warmup, Duration: cfg.Duration, MaxRequests: cfg.MaxRequests,
		Client: client,
		Check:  op.Check,
		Request: func(ctx context.Context, n uint64) (*http.Request, error) {
			path, v := op.Request(ds, n)
			method, body := http.MethodGet, io.Reader(nil)
			if op.Body != nil {
				method, body = http.MethodPost, bytes.NewReader(op.Body(ds, n))
			}
			req, err := http.NewRequestWithContext(ctx, method, base+path, body)
			if err != nil {
				return nil, err
			}
			if op.Body != nil {
				req.Header.Set("Content-Type", "application/json")
			}
			h := mix(n ^ 0x5bd1e995)
			if auth && v != nil && len(v.Keys) > 0 {
				req.Header.Set("X-API-Key", v.Keys[h%uint64(len(v.Keys))])
			}
			if op.Bearer && v != nil && len(v.Tokens) > 0 {
				req.Header.Set("Authorization", "Bearer "+v.Tokens[h%uint64(len(v.Tokens))])
			}
			if op.Staff && v != nil && len(v.StaffTokens) > 0 {
				req.Header.Set("Authorization", "Bearer "+v.StaffTokens[h%uint64(len(v.StaffTokens))])
			}
			if op.Header != nil && v != nil {
				op.Header(req.Header, v, n)
			}
			req.Header.Set("X-Forwarded-For", clientAddr(h>>32))
			return req, nil
		},
	}
}

// startProfile starts a CPU profile of step in dir (none when dir is
// empty) and returns the function that ends it.
func startProfile(dir string, s *Step) (func(), error) {
	if dir == "" {
		return func() {}, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("profile directory: %w", err)
	}
	name := fmt.Sprintf("%s-%s-c%d", s.Op, s.Set, s.Concurrency)
	if s.Rounds > 1 {
		name += fmt.Sprintf("-r%d", s.Round)
	}
	f, err := os.Create(filepath.Join(dir, name+".pprof"))
	if err != nil {
		return nil, fmt.Errorf("profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// SimulatedClients is the number of client addresses the load comes from.
// Real traffic comes from many clients, and the service limits anonymous
// calls per client address (300 a minute); one address would measure the
// rate limiter's 429 answers. Each request names its client in
// X-Forwarded-For, which the service trusts from loopback.
const SimulatedClients = 1 << 16

// clientAddr returns simulated client address h (mod SimulatedClients), in
// 10.0.0.0/8.
func clientAddr(h uint64) string {
	h %= SimulatedClients
	return "10.77." + strconv.Itoa(int(h>>8)) + "." + strconv.Itoa(int(h&0xff))
}

func opNames(ops []*Op) []string {
	out := make([]string, len(ops))
	for i, op := range ops {
		out[i] = op.Name
	}
	return out
}

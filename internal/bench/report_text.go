package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// WriteJSON writes rep as indented JSON.
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// WriteText writes rep as aligned tables for a terminal.
func (rep *Report) WriteText(w io.Writer) error {
	e := rep.Environment
	fmt.Fprintf(w, "%s %s/%s, %d CPUs (GOMAXPROCS %d), %s; service: %s\n",
		e.GoVersion, e.OS, e.Arch, e.CPUs, e.GOMAXPROCS, e.PostgreSQL, e.Target)
	st := rep.Settings
	fmt.Fprintf(w, "each step: %s warmup, then %s measured", st.Warmup, st.Duration)
	if st.MaxRequests > 0 {
		fmt.Fprintf(w, " or %d requests", st.MaxRequests)
	}
	if st.Rounds > 1 {
		fmt.Fprintf(w, ", in %d rounds interleaved with the other steps of its level", st.Rounds)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "data set\tvenues\tmembers\tclasses\tdays\tseed\tdata\t")
	for _, s := range rep.Sets {
		how := "reused"
		if s.Seeded {
			how = "seeded in " + s.SeedTime.String()
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%s\t\n", s.Name, s.Venues, s.Members, s.Classes, s.Days, s.Seed, how)
	}
	tw.Flush()
	fmt.Fprintln(w)

	fmt.Fprintln(tw, "op\tset\tconc\trequests\terrors\treq/s\tmean\tp50\tp95\tp99\tmax\tbody\tcpu/req\tdb cpu/req\t")
	for _, s := range rep.Steps {
		db := "-"
		if s.DBCPU != nil {
			db = s.DBCPU.String()
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%.1f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
			s.Op, s.Set, s.Concurrency, s.Requests, s.Errors, s.Throughput, s.Mean, s.P50, s.P95, s.P99, s.Max,
			fmtBytes(s.Bytes), s.CPU, db)
	}
	tw.Flush()
	for _, s := range rep.Steps {
		for _, e := range s.ErrorSample {
			fmt.Fprintf(w, "  error (%s, %s, c=%d): %s\n", s.Op, s.Set, s.Concurrency, e)
		}
	}

	if len(rep.Baseline) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(tw, "ours / baseline\tset\tconc\tthroughput\tp50\tp99\tcpu/req\t")
		for _, r := range rep.Baseline {
			fmt.Fprintf(tw, "%s / %s\t%s\t%d\t%.2fx\t%.2fx\t%.2fx\t%.2fx\t\n", r.Op, r.Baseline, r.Set, r.Concurrency, r.Throughput, r.P50, r.P99, r.CPU)
		}
		tw.Flush()
	}
	if len(rep.Scale) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(tw, "scale\tconc\tsmall p99\tlarge p99\tratio\t")
		for _, r := range rep.Scale {
			fmt.Fprintf(tw, "%s %s -> %s\t%d\t%s\t%s\t%.2fx\t\n", r.Op, r.Small, r.Large, r.Concurrency, r.SmallP99, r.LargeP99, r.P99)
		}
		tw.Flush()
	}
	if len(rep.Goals) > 0 {
		fmt.Fprintln(w)
		for _, g := range rep.Goals {
			verdict := "MET"
			if !g.Met {
				verdict = "MISSED"
			}
			fmt.Fprintf(w, "goal %s: %s (c=%d): %.2f: %s\n", g.Op, g.Goal, g.Concurrency, g.Value, verdict)
		}
	}
	return nil
}

// fmtBytes shows n bytes in B, kB or MB.
func fmtBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return sig3(float64(n)/(1<<20)) + "MB"
	case n >= 1<<10:
		return sig3(float64(n)/(1<<10)) + "kB"
	}
	return strconv.FormatInt(n, 10) + "B"
}

// setScale orders sets of one family by their venue count ("geo-10000").
func setScale(name string) int {
	i := strings.LastIndexByte(name, '-')
	n := 0
	if i >= 0 {
		fmt.Sscanf(name[i+1:], "%d", &n)
	}
	return n
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return roundTo(a/b, 3)
}

func roundTo(x float64, digits int) float64 {
	p := 1.0
	for range digits {
		p *= 10
	}
	if x < 0 {
		return -float64(int64(-x*p+0.5)) / p
	}
	return float64(int64(x*p+0.5)) / p
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// fmtDuration shows d with three significant digits in a unit that suits it.
func fmtDuration(d time.Duration) string {
	switch {
	case d >= time.Second:
		return sig3(d.Seconds()) + "s"
	case d >= time.Millisecond:
		return sig3(float64(d)/1e6) + "ms"
	default:
		return sig3(float64(d)/1e3) + "µs"
	}
}

// sig3 formats x >= 0 with three significant digits and no exponent.
func sig3(x float64) string {
	decimals := 2
	switch {
	case x >= 100:
		decimals = 0
	case x >= 10:
		decimals = 1
	}
	return strconv.FormatFloat(x, 'f', decimals, 64)
}

package bench

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func step(op, set string, c int, rps float64, p50, p99 time.Duration) StepReport {
	return StepReport{Op: op, Set: set, Concurrency: c, Requests: 100, Throughput: rps, P50: Millis(p50), P99: Millis(p99)}
}

func TestCompareBaselineAndScaleRatios(t *testing.T) {
	ops, err := Lookup([]string{"schedule", "schedule-baseline", "venues-geo"})
	require.NoError(t, err)
	rep := &Report{Steps: []StepReport{
		step("schedule", "main", 1, 400, 2*time.Millisecond, 4*time.Millisecond),
		step("schedule-baseline", "main", 1, 500, time.Millisecond, 2*time.Millisecond),
		step("venues-geo", "geo-100", 1, 900, time.Millisecond, 2*time.Millisecond),
		step("venues-geo", "geo-10000", 1, 800, time.Millisecond, 3*time.Millisecond),
		step("schedule", "main", 16, 900, 10*time.Millisecond, 30*time.Millisecond),
		step("schedule-baseline", "main", 16, 1200, 8*time.Millisecond, 20*time.Millisecond),
		step("venues-geo", "geo-100", 16, 2000, 4*time.Millisecond, 10*time.Millisecond),
		step("venues-geo", "geo-10000", 16, 1000, 9*time.Millisecond, 25*time.Millisecond),
	}}
	rep.Compare(ops)

	require.Equal(t, []RatioRow{
		{Op: "schedule", Baseline: "schedule-baseline", Set: "main", Concurrency: 1, Throughput: 0.8, P50: 2, P99: 2},
		{Op: "schedule", Baseline: "schedule-baseline", Set: "main", Concurrency: 16, Throughput: 0.75, P50: 1.25, P99: 1.5},
	}, rep.Baseline)
	require.Equal(t, []ScaleRow{
		{Op: "venues-geo", Small: "geo-100", Large: "geo-10000", Concurrency: 1,
			SmallP99: Millis(2 * time.Millisecond), LargeP99: Millis(3 * time.Millisecond), P99: 1.5},
		{Op: "venues-geo", Small: "geo-100", Large: "geo-10000", Concurrency: 16,
			SmallP99: Millis(10 * time.Millisecond), LargeP99: Millis(25 * time.Millisecond), P99: 2.5},
	}, rep.Scale)

	// The schedule goal applies at 16 only; the geo goal at every level.
	require.Len(t, rep.Goals, 3)
	require.Equal(t, GoalResult{Op: "schedule", Goal: "throughput >= 0.8x baseline at concurrency 16",
		Concurrency: 16, Value: 0.75, Limit: 0.8, Met: false}, rep.Goals[0])
	require.True(t, rep.Goals[1].Met)
	require.Equal(t, 1, rep.Goals[1].Concurrency)
	require.False(t, rep.Goals[2].Met)
	require.Equal(t, 2.5, rep.Goals[2].Value)
}

func TestCompareWithoutPairs(t *testing.T) {
	ops, err := Lookup([]string{"schedule", "venues-geo"})
	require.NoError(t, err)
	rep := &Report{Steps: []StepReport{
		step("schedule", "main", 1, 400, time.Millisecond, time.Millisecond),
		step("venues-geo", "geo-100", 1, 400, time.Millisecond, time.Millisecond),
	}}
	rep.Compare(ops)
	require.Empty(t, rep.Baseline)
	require.Empty(t, rep.Scale)
	require.Empty(t, rep.Goals)
}

func TestReportWriters(t *testing.T) {
	ops, err := Lookup([]string{"schedule", "schedule-baseline"})
	require.NoError(t, err)
	rep := &Report{
		Environment: Environment{GoVersion: "go1.26", CPUs: 2, GOMAXPROCS: 2, PostgreSQL: "PostgreSQL 15.1", Target: "in-process"},
		Settings:    Settings{Ops: []string{"schedule", "schedule-baseline"}, Concurrency: []int{16}, Duration: Millis(10 * time.Second), Warmup: Millis(time.Second)},
		Sets:        []SetReport{{Name: "main", Venues: 1, Members: 20000, Classes: 1000, Days: 14, Seed: 1, Seeded: true, SeedTime: Millis(1500 * time.Millisecond)}},
		Steps: []StepReport{
			step("schedule", "main", 16, 900, 1234567*time.Nanosecond, 30*time.Millisecond),
			step("schedule-baseline", "main", 16, 1000, 8*time.Millisecond, 20*time.Millisecond),
		},
	}
	rep.Steps[0].ErrorSample = []string{"GET /x: status 500"}
	db := Millis(2 * time.Millisecond)
	rep.Steps[0].CPU, rep.Steps[0].DBCPU, rep.Steps[0].Bytes = Millis(4*time.Millisecond), &db, 400_000
	rep.Steps[1].CPU, rep.Steps[1].DBCPU, rep.Steps[1].Bytes = Millis(2*time.Millisecond), &db, 400_000
	rep.Compare(ops)
	require.Equal(t, 1.5, rep.Baseline[0].CPU, "(4+2)/(2+2)")

	var text bytes.Buffer
	require.NoError(t, Write(&text, rep, false))
	out := text.String()
	for _, want := range []string{
		"2 CPUs", "PostgreSQL 15.1", "seeded in 1.50s", "1.23ms", "0.90x", "status 500", "391kB", "1.50x",
		"goal schedule: throughput >= 0.8x baseline at concurrency 16 (c=16): 0.90: MET",
	} {
		require.Contains(t, out, want)
	}

	var js bytes.Buffer
	require.NoError(t, Write(&js, rep, true))
	var got map[string]any
	require.NoError(t, json.Unmarshal(js.Bytes(), &got))
	s0 := got["steps"].([]any)[0].(map[string]any)
	require.Equal(t, 1.235, s0["p50_ms"], "durations are fractional milliseconds")
	require.Equal(t, 10000.0, got["settings"].(map[string]any)["duration_ms"])
	require.Equal(t, 0.9, got["baseline_ratios"].([]any)[0].(map[string]any)["throughput_ratio"])
	require.Equal(t, true, got["goals"].([]any)[0].(map[string]any)["met"])
	require.Equal(t, 2.0, s0["db_cpu_ms_per_request"])
	require.Equal(t, 400000.0, s0["mean_response_bytes"])
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		850 * time.Nanosecond:             "0.85µs",
		12_345 * time.Nanosecond:          "12.3µs",
		999_400 * time.Microsecond / 1000: "999µs",
		1_500 * time.Microsecond:          "1.50ms",
		123_456 * time.Microsecond:        "123ms",
		2_500 * time.Millisecond:          "2.50s",
	} {
		require.Equal(t, want, fmtDuration(d), d.String())
	}
}

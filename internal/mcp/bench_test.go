//go:build mcpbench

// The benchmark compares against the REST server of package handlers; the
// build tag keeps the endpoint's tests independent of that package:
//
//	go test -tags mcpbench ./internal/mcp -run '^$' -bench ScheduleMCPvsREST -benchtime 800x

package mcp_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/handlers"
	"github.com/venueplatform/venue/internal/mcp"
	"github.com/venueplatform/venue/internal/ratelimit"
)

// benchStats are the figures of one mode at one concurrency.
type benchStats struct {
	rps      float64
	p50, p99 time.Duration
	// rounds is the throughput of each interleaved round.
	rounds []float64
	// n requests took goCPU in this process (clients and servers) and
	// dbCPU in the database server.
	n            int
	goCPU, dbCPU time.Duration
}

// benchMode is one way of reading the schedule.
type benchMode struct {
	name, method, url, body string
	// after runs at the end of each round, inside its timing: the tool
	// modes write their queued audit entries there, so the batches are
	// paid for by the mode that queued them.
	after func()
}

// BenchmarkScheduleMCPvsREST reads the same day of schedule (40 classes with
// bookings) five ways over HTTP, in one process and one run, at concurrency
// 1, 16 and 64. What each mode does per request (statements as counted in
// pg_stat_database at concurrency 16):
//
//   - rest: GET /api/v1/venues/{slug}/schedule on the ogen server of package
//     handlers without the server's middleware chain. The security handler
//     authenticates the key (auth.Authenticate: the key by prefix, its
//     venue, the API flag; the kill switch is cached for 2 s and the key's
//     last use written at most once a minute) and checks the scope; the
//     handler resolves the venue from the slug, reads schedule.List (the
//     classes, then the class types by id) and encodes the rows with ogen's
//     generated encoder. 6 statements. It skips the per-key rate limit that
//     REST as served charges, so it is cheaper than REST is in production.
//   - rest+ratelimit: the same behind one charge of the shared per-key
//     limiter (ratelimit.Limiter.Allow on ratelimit.APIKey(id), the one GCRA
//     statement limits.ChargeAPIKey issues in the server). 7 statements.
//     The like-for-like REST: the same gates and the same limiter as MCP.
//     It still leaves out the rest of the server's REST chain (request id,
//     API version, venue header, idempotency, RateLimit headers).
//   - mcp_tool: POST /api/mcp tools/call search_schedule. The body is
//     decoded; the same auth.Authenticate (its reads scanned by pgx
//     directly) and the same limiter statement; the scope; the arguments
//     validated against the tool's JSON Schema (compiled once); the same
//     schedule.List for the key's venue (no slug to resolve); the answer
//     carries the result twice (text and structuredContent), as the
//     contract says; and the call's audit entry is queued and written in
//     multi-row INSERTs, whose last batch is written at the end of each
//     round inside its timing (after). 6 statements and one audit INSERT
//     per about 5 calls.
//   - mcp_resource: resources/read venue://schedule/{date}: the same gates
//     and read, the result once, no audit entry.
//   - gosdk_tool: the same tool on a server built with the official Go SDK
//     (stateless streamable HTTP) doing the same gates, read and audit entry
//     (NewGoSDKScheduleHandler).
//
// Every mode shares one http.Client; each answer is read whole into a
// reused buffer and checked. The modes run in interleaved rounds; each ratio
// is the median over the rounds of the ratio within a round, so that load
// from elsewhere on the machine falls on every mode alike. It prints
// throughput, p50/p99, each mode's cost relative to rest and to
// rest+ratelimit (their req/s over its req/s), the goal ratios and ours/go-sdk
// (our req/s over the SDK server's). It also prints the CPU time per
// request, of this process (the clients and every server, as go) plus the
// database server's (db), and its ratio to rest+ratelimit's: on a shared
// machine it moves less with other load than throughput does.
//
//	go test -tags mcpbench ./internal/mcp -run '^$' -bench ScheduleMCPvsREST -benchtime 800x
func BenchmarkScheduleMCPvsREST(b *testing.B) {
	if b.N == 1 {
		return // the framework's probe run; -benchtime Nx measures N per mode
	}
	sb := newScheduleBench(b)
	modes, do, flush, f := sb.modes, sb.do, sb.flush, sb.f
	for i := range modes { // warm up caches and connections
		for range 20 {
			do(&modes[i])
		}
	}
	flush()
	meter, err := newCPUMeter(context.Background(), f.pool)
	require.NoError(b, err)

	// Each concurrency runs the modes in interleaved rounds, so that load
	// from elsewhere on the machine falls on all of them alike. A round
	// holds at least two requests per client, so that the clients overlap.
	const rounds = 10
	results := map[string]*benchStats{}
	concurrencies := []int{1, 16, 64}
	b.ResetTimer()
	for _, c := range concurrencies {
		perRound := max(b.N/rounds, 2*c)
		lat := make([][]time.Duration, len(modes))
		stats := make([]*benchStats, len(modes))
		busy := make([]time.Duration, len(modes))
		for mi := range modes {
			stats[mi] = &benchStats{}
		}
		for range rounds {
			for mi := range modes {
				m := &modes[mi]
				// CPU is read outside the round, each side so that the
				// meter's own scan of /proc falls outside the interval.
				d0 := meter.db()
				g0 := meter.self()
				l, elapsed := runRound(c, perRound, func() { do(m) }, m.after)
				g1 := meter.self()
				d1 := meter.db()
				stats[mi].n += len(l)
				stats[mi].goCPU += g1 - g0
				stats[mi].dbCPU += d1 - d0
				lat[mi] = append(lat[mi], l...)
				busy[mi] += elapsed
				stats[mi].rounds = append(stats[mi].rounds, float64(len(l))/elapsed.Seconds())
			}
		}
		for mi, m := range modes {
			l := lat[mi]
			slices.Sort(l)
			s := stats[mi]
			s.rps, s.p50, s.p99 = float64(len(l))/busy[mi].Seconds(), l[len(l)/2], l[min(len(l)-1, len(l)*99/100)]
			results[fmt.Sprintf("%s/c=%d", m.name, c)] = s
			b.ReportMetric(s.rps, fmt.Sprintf("%s_c%d_req/s", m.name, c))
		}
	}
	fmt.Print(benchReport(modes, concurrencies, results))
}

// scheduleBench is the fixture, servers and modes of the schedule
// benchmarks.
type scheduleBench struct {
	f     *fixture
	modes []benchMode
	do    func(*benchMode)
	flush func()
}

// newScheduleBench seeds one day of 40 classes with bookings and starts the
// servers of every mode.
func newScheduleBench(b *testing.B) *scheduleBench {
	f := newFixture(b, 1_000_000_000)
	ctx := f.operatorCtx()
	d := f.today.AddDate(0, 0, 5)
	var bulk []*ent.ClassInstanceCreate
	ct := f.client.ClassType.Query().FirstX(ctx)
	for i := range 40 {
		start := f.at(5, 6).Add(time.Duration(i) * 20 * time.Minute)
		bulk = append(bulk, f.client.ClassInstance.Create().SetClassTypeID(ct.ID).SetStartTime(start).
			SetEndTime(start.Add(time.Hour)).SetCapacity(20))
	}
	classes := f.client.ClassInstance.CreateBulk(bulk...).SaveX(ctx)
	var bookings []*ent.BookingCreate
	for i, c := range classes {
		bookings = append(bookings, f.client.Booking.Create().SetMemberID(f.anna).SetClassInstanceID(c.ID))
		if i%2 == 0 {
			bookings = append(bookings, f.client.Booking.Create().SetMemberID(f.bo).SetClassInstanceID(c.ID).SetStatus(booking.StatusWaitlisted))
		}
	}
	f.client.Booking.CreateBulk(bookings...).ExecX(ctx)

	authn := auth.New(f.client)
	rest, err := handlers.NewServer(handlers.New(f.client, authn, nil))
	require.NoError(b, err)
	restSrv := httptest.NewServer(rest)
	b.Cleanup(restSrv.Close)
	// REST behind the shared per-key limiter, as the server wires it.
	k, err := apikey.Lookup(ctx, f.client, f.keys["all"])
	require.NoError(b, err)
	limiter := ratelimit.New(f.pool, 1_000_000_000, time.Minute)
	limited := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := limiter.Allow(r.Context(), ratelimit.APIKey(k.ID)); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		rest.ServeHTTP(w, r)
	}))
	b.Cleanup(limited.Close)
	sdkSrv := httptest.NewServer(mcp.NewGoSDKScheduleHandler(f.h))
	b.Cleanup(sdkSrv.Close)

	date := d.Format(day)
	key := f.keys["all"]
	flush := func() {
		if err := f.h.Flush(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	toolCall := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_schedule","arguments":{"date":"` + date + `"}}}`
	restURL := "/api/v1/venues/hot-yoga-cph/schedule?from=" + date + "&to=" + date
	modes := []benchMode{
		{"mcp_tool", http.MethodPost, f.url, toolCall, flush},
		{"mcp_resource", http.MethodPost, f.url, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"venue://schedule/` + date + `"}}`, nil},
		{"gosdk_tool", http.MethodPost, sdkSrv.URL, toolCall, flush},
		{"rest", http.MethodGet, restSrv.URL + restURL, "", nil},
		{"rest+ratelimit", http.MethodGet, limited.URL + restURL, "", nil},
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256}}
	bodies := sync.Pool{New: func() any { return new(bytes.Buffer) }}
	do := func(m *benchMode) {
		req, _ := http.NewRequest(m.method, m.url, strings.NewReader(m.body))
		req.Header.Set("X-API-Key", key)
		if m.method == http.MethodPost {
			req.Header.Set("Content-Type", "application/json")
			// Both media types, as Streamable HTTP clients send (the SDK's
			// handler requires them).
			req.Header.Set("Accept", "application/json, text/event-stream")
		}
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		// Every answer is read whole and checked, into a reused buffer and
		// without copying it to a string: the harness's own cost would
		// otherwise grow with the answer's size and be charged to the
		// larger answers (a tools/call sends its result twice).
		buf := bodies.Get().(*bytes.Buffer)
		defer bodies.Put(buf)
		buf.Reset()
		_, _ = buf.ReadFrom(resp.Body)
		resp.Body.Close()
		out := buf.Bytes()
		if resp.StatusCode != http.StatusOK || bytes.Contains(out, []byte(`"error":{`)) ||
			bytes.Contains(out, []byte(`"isError":true`)) || !bytes.Contains(out, []byte("class_type")) {
			b.Fatalf("%s %s: %d %.300s", m.method, m.url, resp.StatusCode, out)
		}
	}
	return &scheduleBench{f: f, modes: modes, do: do, flush: flush}
}

// BenchmarkScheduleMode runs one mode alone at concurrency 16 (b.N
// requests, the mode's audit entries written before the timer stops), for
// profiles and allocation counts that belong to that mode only:
//
//	go test -tags mcpbench ./internal/mcp -run '^$' -bench 'ScheduleMode/mcp_tool$' -benchtime 4000x -cpuprofile cpu.out
func BenchmarkScheduleMode(b *testing.B) {
	sb := newScheduleBench(b)
	meter, err := newCPUMeter(context.Background(), sb.f.pool)
	require.NoError(b, err)
	for i := range sb.modes {
		m := &sb.modes[i]
		b.Run(m.name, func(b *testing.B) {
			for range 20 {
				sb.do(m)
			}
			sb.flush()
			b.ReportAllocs()
			d0, g0 := meter.db(), meter.self()
			b.ResetTimer()
			runRound(16, b.N, func() { sb.do(m) }, m.after)
			b.StopTimer()
			g1, d1 := meter.self(), meter.db()
			b.ReportMetric(float64((g1-g0).Microseconds())/1000/float64(b.N), "go-cpu-ms/op")
			b.ReportMetric(float64((d1-d0).Microseconds())/1000/float64(b.N), "db-cpu-ms/op")
		})
	}
}

// benchReport renders the figures of every mode and the ratios the goals
// name: MCP/REST cost (at most 1.15x), against REST with the same limiter
// (like for like) and against REST without it, and ours/go-sdk throughput
// (at least 1.3x).
func benchReport(modes []benchMode, concurrencies []int, results map[string]*benchStats) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n%-14s %5s %8s %7s %8s %9s %9s %9s %12s %9s\n", "mode", "conc", "req/s", "p50 ms", "p99 ms",
		"cost/REST", "/REST+rl", "p50/+rl", "CPU ms/req", "CPU/+rl")
	for _, c := range concurrencies {
		r, ok1 := results[fmt.Sprintf("rest/c=%d", c)]
		rl, ok2 := results[fmt.Sprintf("rest+ratelimit/c=%d", c)]
		if !ok1 || !ok2 {
			continue
		}
		for _, m := range modes {
			s := results[fmt.Sprintf("%s/c=%d", m.name, c)]
			fmt.Fprintf(&sb, "%-14s %5d %8.0f %7.2f %8.2f %8.2fx %8.2fx %8.2fx %5.2f+%-6.2f %8.2fx\n", m.name, c, s.rps,
				float64(s.p50.Microseconds())/1000, float64(s.p99.Microseconds())/1000,
				roundRatio(r, s), roundRatio(rl, s), float64(s.p50)/float64(rl.p50),
				s.perRequest(s.goCPU), s.perRequest(s.dbCPU), s.perRequest(s.goCPU+s.dbCPU)/rl.perRequest(rl.goCPU+rl.dbCPU))
		}
	}
	fmt.Fprintf(&sb, "\nratios, median of the per-round ratios %26s", "")
	for _, c := range concurrencies {
		fmt.Fprintf(&sb, " %7s", fmt.Sprintf("c=%d", c))
	}
	sb.WriteString("\n")
	line := func(label, num, den string) {
		fmt.Fprintf(&sb, "%-65s", label)
		for _, c := range concurrencies {
			n, d := results[fmt.Sprintf("%s/c=%d", num, c)], results[fmt.Sprintf("%s/c=%d", den, c)]
			fmt.Fprintf(&sb, " %6.2fx", roundRatio(n, d))
		}
		sb.WriteString("\n")
	}
	line("MCP tools/call cost / REST, same limiter (goal <= 1.15x)", "rest+ratelimit", "mcp_tool")
	line("MCP tools/call cost / REST without the limiter (<= 1.15x)", "rest", "mcp_tool")
	line("ours / go-sdk tools/call throughput (goal >= 1.3x)", "mcp_tool", "gosdk_tool")
	return sb.String()
}

// perRequest is d per request, in milliseconds.
func (s *benchStats) perRequest(d time.Duration) float64 {
	return float64(d.Microseconds()) / 1000 / float64(s.n)
}

// roundRatio is the median over the rounds of a's throughput over b's in
// the same round.
func roundRatio(a, b *benchStats) float64 {
	rs := make([]float64, len(a.rounds))
	for i := range a.rounds {
		rs[i] = a.rounds[i] / b.rounds[i]
	}
	slices.Sort(rs)
	if len(rs)%2 == 1 {
		return rs[len(rs)/2]
	}
	return (rs[len(rs)/2-1] + rs[len(rs)/2]) / 2
}

// runRound sends n requests from c goroutines, then runs after (if any),
// and returns the requests' latencies and the wall time the round took.
func runRound(c, n int, do func(), after func()) ([]time.Duration, time.Duration) {
	lat := make([]time.Duration, n)
	var mu sync.Mutex
	next := 0
	start := time.Now()
	var wg sync.WaitGroup
	for range c {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				t0 := time.Now()
				do()
				lat[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	if after != nil {
		after()
	}
	return lat, time.Since(start)
}

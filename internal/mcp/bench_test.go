//go:build mcpbench

// The benchmark compares against the REST server of package handlers; the
// build tag keeps the endpoint's tests independent of that package:
//
//	go test -tags mcpbench ./internal/mcp -run '^$' -bench ScheduleMCPvsREST -benchtime 800x

package mcp_test

import (
	"fmt"
	"io"
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
	"github.com/venueplatform/venue/internal/ratelimit"
)

// benchStats are the figures of one mode at one concurrency.
type benchStats struct {
	rps      float64
	p50, p99 time.Duration
}

// BenchmarkScheduleMCPvsREST reads the same day of schedule (40 classes with
// bookings) three ways over HTTP, in one process and one run: MCP tools/call
// search_schedule, MCP resources/read venue://schedule/{date}, and the REST
// read GET /api/v1/venues/{slug}/schedule (as it is, and behind the shared
// per-key rate limiter as it will be wired), at concurrency 1, 16 and 64. It
// reports throughput and p50/p99 per case and prints each one's cost relative
// to plain REST (REST req/s over its req/s). All pass the key gates; both MCP
// reads also pass the rate limiter, and tools/call writes its audit entry.
//
//	go test -tags mcpbench ./internal/mcp -run '^$' -bench ScheduleMCPvsREST -benchtime 800x
func BenchmarkScheduleMCPvsREST(b *testing.B) {
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
	// REST as it reads once the shared per-key limiter is wired in front of it.
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

	date := d.Format(day)
	key := f.keys["all"]
	modes := []struct {
		name, method, url, body string
	}{
		{"mcp_tool", http.MethodPost, f.url, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search_schedule","arguments":{"date":"` + date + `"}}}`},
		{"mcp_resource", http.MethodPost, f.url, `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"venue://schedule/` + date + `"}}`},
		{"rest", http.MethodGet, restSrv.URL + "/api/v1/venues/hot-yoga-cph/schedule?from=" + date + "&to=" + date, ""},
		{"rest+ratelimit", http.MethodGet, limited.URL + "/api/v1/venues/hot-yoga-cph/schedule?from=" + date + "&to=" + date, ""},
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 256, MaxIdleConnsPerHost: 256}}
	do := func(method, url, body string) {
		req, _ := http.NewRequest(method, url, strings.NewReader(body))
		req.Header.Set("X-API-Key", key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || strings.Contains(string(out), `"error":{`) || !strings.Contains(string(out), "class_type") {
			b.Fatalf("%s %s: %d %.300s", method, url, resp.StatusCode, out)
		}
	}
	for _, m := range modes { // warm up caches and connections
		for range 20 {
			do(m.method, m.url, m.body)
		}
	}

	// Each concurrency runs the modes in interleaved rounds, so that load
	// from elsewhere on the machine falls on all of them alike.
	const rounds = 10
	perRound := max(b.N/rounds, 1)
	results := map[string]benchStats{}
	concurrencies := []int{1, 16, 64}
	b.ResetTimer()
	for _, c := range concurrencies {
		lat := make([][]time.Duration, len(modes))
		busy := make([]time.Duration, len(modes))
		for range rounds {
			for mi, m := range modes {
				l, elapsed := runRound(c, perRound, func() { do(m.method, m.url, m.body) })
				lat[mi] = append(lat[mi], l...)
				busy[mi] += elapsed
			}
		}
		for mi, m := range modes {
			l := lat[mi]
			slices.Sort(l)
			s := benchStats{rps: float64(len(l)) / busy[mi].Seconds(), p50: l[len(l)/2], p99: l[min(len(l)-1, len(l)*99/100)]}
			name := fmt.Sprintf("%s/c=%d", m.name, c)
			results[name] = s
			b.ReportMetric(s.rps, fmt.Sprintf("%s_c%d_req/s", m.name, c))
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n%-14s %5s %10s %9s %9s %11s %11s\n", "mode", "conc", "req/s", "p50 ms", "p99 ms", "cost/REST", "p50/REST")
	for _, c := range concurrencies {
		r, ok := results[fmt.Sprintf("rest/c=%d", c)]
		if !ok {
			continue
		}
		for _, m := range modes {
			s := results[fmt.Sprintf("%s/c=%d", m.name, c)]
			fmt.Fprintf(&sb, "%-14s %5d %10.0f %9.2f %9.2f %10.2fx %10.2fx\n", m.name, c, s.rps,
				float64(s.p50.Microseconds())/1000, float64(s.p99.Microseconds())/1000,
				r.rps/s.rps, float64(s.p50)/float64(r.p50))
		}
	}
	fmt.Print(sb.String())
}

// runRound sends n requests from c goroutines and returns their latencies
// and the wall time the round took.
func runRound(c, n int, do func()) ([]time.Duration, time.Duration) {
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
	return lat, time.Since(start)
}

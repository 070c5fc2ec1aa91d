package bench

import (
	"bytes"
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/seed"
)

// Scale of BenchmarkScheduleRead's data, e.g.
//
//	go test -bench ScheduleRead -run '^$' ./internal/bench/ -args -bench.members 20000
var (
	benchMembers = flag.Int("bench.members", 2000, "members of BenchmarkScheduleRead's venue")
	benchDays    = flag.Int("bench.days", 14, "days of schedule of BenchmarkScheduleRead's venue")
)

// BenchmarkScheduleRead measures one schedule read (a one-week window, the
// service's default range) over HTTP on a seeded venue, through the whole
// service and through the baseline, one request at a time, and reports the
// median and p99 latency (p50-ms, p99-ms) besides ns/op.
func BenchmarkScheduleRead(b *testing.B) {
	ctx := context.Background()
	pool, err := db.Open(ctx, pgtest.New(b))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(pool.Close)
	ds := &DataSet{Name: FamilyMain, Family: FamilyMain, Pool: pool,
		Params: seed.Params{Venues: 1, Members: *benchMembers, Days: *benchDays, Seed: 1}}
	if err := seedSet(ctx, ds, nil); err != nil {
		b.Fatal(err)
	}
	h, err := serviceHandler(pool)
	if err != nil {
		b.Fatal(err)
	}
	for _, target := range []struct {
		name    string
		handler http.Handler
	}{
		{"service", h},
		{"baseline", NewBaseline(pool)},
	} {
		srv := httptest.NewServer(target.handler)
		b.Run(target.name, func(b *testing.B) {
			b.ReportAllocs()
			client := NewClient(1, 30*time.Second)
			defer client.CloseIdleConnections()
			s := &Step{Client: client, Check: checkNonEmptyData,
				Request: func(ctx context.Context, n uint64) (*http.Request, error) {
					path, _ := schedulePath(ds, n)
					req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+path, nil)
					if err == nil {
						req.Header.Set("X-Forwarded-For", clientAddr(mix(n)))
					}
					return req, err
				}}
			r := &run{s: s}
			var hist Histogram
			for n := range uint64(10) { // warm the connection and the caches
				if err := r.do(ctx, n, new(bytes.Buffer)); err != nil {
					b.Fatal(err)
				}
			}
			buf := new(bytes.Buffer)
			for i := 0; b.Loop(); i++ {
				buf.Reset()
				start := time.Now()
				if err := r.do(ctx, uint64(i), buf); err != nil {
					b.Fatal(err)
				}
				hist.Record(time.Since(start))
			}
			b.ReportMetric(float64(hist.Quantile(0.50))/1e6, "p50-ms")
			b.ReportMetric(float64(hist.Quantile(0.99))/1e6, "p99-ms")
		})
		srv.Close()
	}
	b.Logf("data: 1 venue, %d members, %d classes over %d days", ds.Members, ds.Classes, *benchDays)
}

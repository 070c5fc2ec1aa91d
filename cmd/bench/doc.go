// Command bench is the platform's HTTP load benchmark: it seeds (or reuses)
// synthetic data at a given scale, drives chosen REST operations at given
// concurrency levels over loopback HTTP, and reports throughput and latency
// percentiles, with the baseline ratios and scale ratios the targets ask
// for. See package internal/bench.
//
//	go run ./cmd/bench --venues 1 --members 20000 --days 14 \
//	    --ops schedule,schedule-baseline --concurrency 1,16,64 --duration 10s
//
// Usage and flags: bench --help. Operations: bench --list-ops.
package main

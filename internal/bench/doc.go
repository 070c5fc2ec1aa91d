// Package bench is the platform's HTTP load benchmark (cmd/bench): data sets
// seeded or reused through package seed, closed-loop load over loopback
// HTTP, latency histograms, and a report of throughput, p50/p95/p99, body
// size and CPU per request for every step, with the ratios the performance
// targets are stated in.
//
// The parts:
//
//   - Run drives one Step: Concurrency closed-loop workers (send, read the
//     whole answer, send the next) for a warmup, then for the measured window
//     or a request cap. Every measured latency goes into a Histogram
//     (log-linear buckets: constant memory, quantiles within 0.4%). Requests
//     in flight when the window closes finish but are not counted, so every
//     counted request lies inside the window.
//   - Ops are a registry (Register, Lookup): each names its data-set family,
//     builds request n deterministically from n (hashed, so consecutive
//     requests read unrelated venues and dates and no cache is flattered),
//     and may carry goals. A new endpoint is one Register call.
//   - Baseline is the schedule read on net/http and pgx alone, issuing the
//     service's statements in the service's order and writing the same JSON,
//     on its own loopback listener in the same run. TestBaselineIssuesServiceSQL
//     traces both on the same requests and requires the same statements and
//     the same answers, so the baseline follows the service's read.
//   - Execute prepares the data sets (the main set at --venues/--members/
//     --days; one geo set per --geo-venues count, each in a database of its
//     own because the venue search spans every venue of a database; the
//     members family per --member-scales count: "members-<n>", one venue of
//     n members, the smallest alone in its database, and "platform-<n>", the
//     same small venue seeded again beside the venue of n, so other venues'
//     data is the only difference), serves
//     the service in-process (server.New) or uses --target, runs every op at
//     every concurrency level, and builds the Report.
//
// Decisions:
//
//   - The load comes from SimulatedClients addresses, named in
//     X-Forwarded-For (the in-process service trusts loopback, as cmd/server
//     does by default): the service limits anonymous calls per client
//     address, and one address would measure 429 answers. Ops with an API
//     key spread over KeysPerRun keys for the same reason. The per-request
//     rate-limit statement is still paid, as in production.
//   - The baseline leaves out the statements of the service's platform
//     layers (platformStatements: the rate limit), so the ratio prices them
//     with the other layers.
//   - The in-process service logs as in production (a JSON access log line
//     per request) into io.Discard: the encoding is paid, the terminal stays
//     free for progress.
//   - The baseline uses db.Open's pool settings, like the service, so the
//     ratio measures the layers, not the pool size.
//   - Steps run level by level (every op at concurrency 1, then at 16, ...),
//     and within a level in Rounds interleaved slices (A B A B ...), so that
//     a service step and its baseline step see the same background load on a
//     shared machine; idle connections are closed and the heap collected
//     between slices. The later slices of a step warm up for 250ms only.
//   - CPU time per request is reported for this process (load generator and
//     in-process servers) and, with the managed PostgreSQL, for the database
//     (from /proc). On a busy machine it moves much less than throughput,
//     and the ours/baseline CPU ratio is what the throughput ratio tends to
//     when the machine is the limit.
//   - The members family's history ops (history.go) read logs the seed does
//     not write: the data step adds one webhook delivery and one audit entry
//     per member, and signs in staff as signin.go signs in members. The
//     audit op calls audit.List in process (there is no HTTP read of the
//     trail), on a loopback listener of the tool's own.
//   - Seeded data is ANALYZEd before it is measured.
//   - Seeded venues have no coordinates of their own; the geo sets place
//     theirs uniformly over GeoArea (a country), deterministically by slug,
//     and only where the seed left none.
//   - The load generator shares the machine with the service and PostgreSQL;
//     the report states the CPU count. Ratios measured in one run on one
//     machine are comparable; absolute figures belong to that machine.
package bench

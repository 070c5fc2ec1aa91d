package negative_test

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/gen/openapi"
	"github.com/venueplatform/venue/internal/negative"
)

var full = flag.Bool("negative.full", false, "run the whole table instead of the deterministic sample")

// tally counts a run's outcomes and groups its failures by operation and
// bad-value class.
type tally struct {
	mu                                       sync.Mutex
	cases, serverErrors, envelope, leaks     int
	transport, accepted, changed, unanswered int
	failures                                 map[string][]string // "op class": examples
	statuses                                 map[string]int      // "class status": cases
}

func (t *tally) fail(key, detail string) {
	if t.failures == nil {
		t.failures = map[string][]string{}
	}
	if len(t.failures[key]) < 3 {
		t.failures[key] = append(t.failures[key], detail)
	} else if len(t.failures[key]) == 3 {
		t.failures[key] = append(t.failures[key], "...")
	}
}

func (t *tally) record(c negative.Case, res *negative.Response, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cases++
	key := c.Op.ID + " " + string(c.Class)
	if err != nil && c.Class == negative.NUL && strings.HasPrefix(c.Where, "header:") {
		// net/http refuses a control byte in a header before any handler
		// and closes the connection; a reset is that refusal.
		t.transport++
		return
	}
	if err != nil {
		t.unanswered++
		t.fail(key, c.Name()+": no answer: "+err.Error())
		return
	}
	if t.statuses == nil {
		t.statuses = map[string]int{}
	}
	t.statuses[fmt.Sprintf("%s %d", c.Class, res.Status)]++
	v := negative.Judge(c, res)
	if v.Transport {
		t.transport++
	}
	if res.Status < 300 {
		t.accepted++
	}
	if v.ServerError {
		t.serverErrors++
	}
	if v.Envelope {
		t.envelope++
	}
	if v.Leak {
		t.leaks++
	}
	if !v.OK() {
		t.fail(key, c.Name()+": "+v.Detail)
	}
}

func (t *tally) report(tb testing.TB, what string) {
	tb.Logf("negative %s: %d cases, %d 5xx, %d envelope violations, %d internal-text leaks, %d batches with changed rows "+
		"(%d accepted as legitimate, %d refused by net/http itself, %d unanswered)",
		what, t.cases, t.serverErrors, t.envelope, t.leaks, t.changed, t.accepted, t.transport, t.unanswered)
	hist := make([]string, 0, len(t.statuses))
	for k, n := range t.statuses {
		hist = append(hist, fmt.Sprintf("%s:%d", k, n))
	}
	sort.Strings(hist)
	tb.Logf("answers by class and status: %s", strings.Join(hist, ", "))
	keys := make([]string, 0, len(t.failures))
	for k := range t.failures {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		tb.Errorf("%s:\n\t%s", k, strings.Join(t.failures[k], "\n\t"))
	}
}

// TestRESTNegative sends every operation of the bundled OpenAPI document a
// table of bad values (package doc) and requires a bounded 4xx error
// envelope without library text, or an allowed 2xx, and no row changed.
func TestRESTNegative(t *testing.T) {
	ops, err := negative.Parse(openapi.JSON)
	require.NoError(t, err)
	require.NotEmpty(t, ops)
	e := newEnv(t)
	base := e.base()
	ctx := context.Background()
	var tl tally
	start := time.Now()
	for i := range ops {
		op := &ops[i]
		cases := base.Cases(op)
		if !*full {
			cases = negative.Sample(cases)
		}
		e.ensureCallers(t)
		before, err := negative.Take(ctx, e.pool)
		require.NoError(t, err)
		run(e, cases, &tl)
		after, err := negative.Take(ctx, e.pool)
		require.NoError(t, err)
		if changed := before.Changed(after); len(changed) > 0 {
			tl.changed++
			classes := map[string]bool{}
			for _, c := range cases {
				classes[string(c.Class)] = true
			}
			names := make([]string, 0, len(classes))
			for c := range classes {
				names = append(names, c)
			}
			sort.Strings(names)
			tl.fail(op.ID+" changed-rows", fmt.Sprintf("tables %v changed by a batch of %d cases (classes %v)", changed, len(cases), names))
		}
	}
	mode := "sampled"
	if *full {
		mode = "full"
	}
	tl.report(t, fmt.Sprintf("REST %s (%d operations, %s)", mode, len(ops), time.Since(start).Round(time.Second)))
}

// run sends cases on a few connections at once, each after emptying the
// rate-limit buckets.
func run(e *env, cases []negative.Case, tl *tally) {
	work := make(chan negative.Case)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				_, _ = e.pool.Exec(context.Background(), `DELETE FROM rate_limits`)
				res, err := e.do(c.Req, c.Caller)
				if err != nil {
					// One retry: net/http closes the connection after its own
					// refusal of a malformed header, which can reset it before
					// the answer is read.
					res, err = e.do(c.Req, c.Caller)
				}
				tl.record(c, res, err)
			}
		}()
	}
	for _, c := range cases {
		work <- c
	}
	close(work)
	wg.Wait()
}

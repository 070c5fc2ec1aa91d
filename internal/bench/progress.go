package bench

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Display shows progress on standard error: one line rewritten in place on a
// terminal, and a line per finished step everywhere.
type Display struct {
	w    io.Writer
	live bool

	mu    sync.Mutex
	width int // of the live line now shown
}

// NewDisplay returns a Display writing to w; live is whether w is a terminal.
func NewDisplay(w io.Writer, live bool) *Display {
	return &Display{w: w, live: live}
}

// IsTerminal reports whether f is a character device (a terminal).
func IsTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// Live replaces the live line with text (terminals only).
func (d *Display) Live(text string) {
	if d == nil || !d.live {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	pad := max(d.width-len([]rune(text)), 0)
	fmt.Fprintf(d.w, "\r%s%s", text, strings.Repeat(" ", pad))
	d.width = len([]rune(text))
}

// Printf clears the live line and prints a permanent line.
func (d *Display) Printf(format string, args ...any) {
	if d == nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.live && d.width > 0 {
		fmt.Fprintf(d.w, "\r%s\r", strings.Repeat(" ", d.width))
		d.width = 0
	}
	fmt.Fprintf(d.w, format+"\n", args...)
}

// Step returns the progress callback of Run for a step.
func (d *Display) Step(total time.Duration) func(Progress) {
	return func(p Progress) {
		rate := 0.0
		if p.Elapsed > 0 {
			rate = float64(p.Requests) / p.Elapsed.Seconds()
		}
		name := fmt.Sprintf("%s %s c=%d", p.Step.Op, p.Step.Set, p.Step.Concurrency)
		if p.Step.Rounds > 1 {
			name += fmt.Sprintf(" round %d/%d", p.Step.Round, p.Step.Rounds)
		}
		line := fmt.Sprintf("%s: %s %s/%s  %d req  %.0f req/s  p50 %s  p99 %s  errors %d",
			name, "measuring",
			p.Elapsed.Truncate(100*time.Millisecond), total, p.Requests, rate,
			fmtDuration(p.P50), fmtDuration(p.P99), p.Errors)
		if !p.Measuring {
			line = fmt.Sprintf("%s: warming up %s", name, p.Elapsed.Truncate(100*time.Millisecond))
		}
		d.Live(line)
	}
}

// Seeding returns a progress callback for seeding a data set.
func (d *Display) Seeding(set string) func(done, total int) {
	start := time.Now()
	return func(done, total int) {
		pct := 100.0
		if total > 0 {
			pct = 100 * float64(done) / float64(total)
		}
		d.Live(fmt.Sprintf("seeding %s: %5.1f%% (%d of ~%d rows) %s", set, pct, done, total, time.Since(start).Truncate(time.Second)))
	}
}

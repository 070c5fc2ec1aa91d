package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// progress draws a one-line progress bar on a terminal; it draws nothing
// when disabled, so standard error stays clean in scripts and logs.
type progress struct {
	w       io.Writer
	label   string
	enabled bool
	start   time.Time

	mu    sync.Mutex
	last  time.Time
	shown bool
}

const barWidth = 30

func newProgress(w io.Writer, label string, enabled bool) *progress {
	return &progress{w: w, label: label, enabled: enabled, start: time.Now()}
}

// update redraws the bar at most ten times a second, and always at the end.
func (p *progress) update(done, total int) {
	if !p.enabled || total <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if done < total && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	filled := barWidth * done / total
	fmt.Fprintf(p.w, "\r%s [%s%s] %3d%%  %-8s", p.label, strings.Repeat("#", filled), strings.Repeat(" ", barWidth-filled),
		100*done/total, now.Sub(p.start).Round(100*time.Millisecond))
}

// finish ends the bar's line.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprintln(p.w)
		p.shown = false
	}
}

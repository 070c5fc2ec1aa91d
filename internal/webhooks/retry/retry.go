package retry

import (
	"math/rand/v2"
	"time"
)

// Rand is a source of uniform random numbers in [0, 1); *rand.Rand of math/rand/v2 is one.
type Rand interface {
	Float64() float64
}

// Schedule is a retry schedule. The zero value never retries.
type Schedule struct {
	// Delays are the waits after the first, second, ... failed attempt.
	Delays []time.Duration
	// Repeat is the wait after each failure beyond Delays; zero gives up after Delays.
	Repeat time.Duration
	// Horizon bounds the nominal time from the first attempt to the last: no attempt is
	// scheduled later than that.
	Horizon time.Duration
	// Jitter spreads each delay uniformly by up to this fraction either way (0.2 is ±20 %).
	Jitter float64
}

// Default is the schedule of webhook deliveries.
var Default = Schedule{
	Delays: []time.Duration{
		5 * time.Second,
		30 * time.Second,
		2 * time.Minute,
		10 * time.Minute,
		30 * time.Minute,
		time.Hour,
		2 * time.Hour,
		4 * time.Hour,
		8 * time.Hour,
	},
	Repeat:  8 * time.Hour,
	Horizon: 72 * time.Hour,
	Jitter:  0.2,
}

// NextAttempt is Default.Next.
func NextAttempt(attempt int, rng Rand) (time.Duration, bool) {
	return Default.Next(attempt, rng)
}

// Next returns the wait before the attempt that follows failed attempt number attempt
// (1 for the first), and false when the delivery should give up instead. A nil rng uses the
// global source of math/rand/v2.
func (s Schedule) Next(attempt int, rng Rand) (time.Duration, bool) {
	if attempt < 1 || attempt >= s.MaxAttempts() {
		return 0, false
	}
	d := s.nominal(attempt)
	if s.Jitter > 0 {
		f := 0.0
		if rng != nil {
			f = rng.Float64()
		} else {
			f = rand.Float64()
		}
		d = time.Duration(float64(d) * (1 + s.Jitter*(2*f-1)))
	}
	return d, true
}

// MaxAttempts returns the number of attempts, the first included, after which the schedule
// gives up.
func (s Schedule) MaxAttempts() int {
	var total time.Duration
	attempts := 1
	for {
		d := s.nominal(attempts)
		if d <= 0 || (s.Horizon > 0 && total+d > s.Horizon) {
			return attempts
		}
		total += d
		attempts++
	}
}

// Span returns the nominal time from the first attempt to the last.
func (s Schedule) Span() time.Duration {
	var total time.Duration
	for a := 1; a < s.MaxAttempts(); a++ {
		total += s.nominal(a)
	}
	return total
}

// nominal is the wait after failed attempt number attempt, before jitter; zero means none.
func (s Schedule) nominal(attempt int) time.Duration {
	if attempt <= len(s.Delays) {
		return s.Delays[attempt-1]
	}
	if s.Horizon <= 0 {
		return 0 // Repeat without a horizon would retry forever
	}
	return s.Repeat
}

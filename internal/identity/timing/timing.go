package timing

import (
	"context"
	"time"
)

// Floor blocks until at least atLeast has passed since start, measured on
// the monotonic clock, and returns at once if that time has already passed or
// when ctx is done (the client is gone; there is nobody to hide from).
func Floor(ctx context.Context, start time.Time, atLeast time.Duration) {
	wait := atLeast - time.Since(start)
	if wait <= 0 {
		return
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// Run calls fn and returns its results no sooner than atLeast after the call
// began, errors included: a failure must not answer faster than a success.
func Run[T any](ctx context.Context, atLeast time.Duration, fn func() (T, error)) (T, error) {
	defer Floor(ctx, time.Now(), atLeast)
	return fn()
}

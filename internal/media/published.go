package media

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// PublishedGrace is how long a published file no row names is kept before a
// sweep removes it: long past any finalize between its publish and its
// commit, and past the retry of a write whose outcome was unknown.
const PublishedGrace = 24 * time.Hour

// SweepPublished removes the published objects under prefix (a folder key
// such as "services/") that are older than grace and that referenced does
// not claim. referenced is asked about the old objects' keys and answers the
// ones some row still names; an error from it removes nothing. It returns
// how many objects it removed; a store that cannot list is not swept.
func (s *Service) SweepPublished(ctx context.Context, prefix string, grace time.Duration,
	referenced func(ctx context.Context, keys []string) (map[string]bool, error)) (int, error) {
	l, ok := s.Store.(Lister)
	if !ok {
		return 0, nil
	}
	if !strings.HasSuffix(prefix, "/") || strings.HasPrefix(prefix, "uploads/") {
		return 0, fmt.Errorf("media: sweep published: bad prefix %q", prefix)
	}
	objs, err := l.List(ctx, prefix)
	if err != nil {
		return 0, fmt.Errorf("media: sweep published: %w", err)
	}
	now := s.now()
	var old []string
	for _, o := range objs {
		if now.Sub(o.ModTime) > grace {
			old = append(old, o.Key)
		}
	}
	if len(old) == 0 {
		return 0, nil
	}
	keep, err := referenced(ctx, old)
	if err != nil {
		return 0, fmt.Errorf("media: sweep published: %w", err)
	}
	n := 0
	var errs []error
	for _, k := range old {
		if keep[k] {
			continue
		}
		if err := s.Store.Delete(ctx, k); err != nil {
			errs = append(errs, err)
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

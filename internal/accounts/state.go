package accounts

import (
	"context"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/identity/timing"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/system"
)

// StateFloor is the contract's minimum response time of the account-state
// check.
const StateFloor = 250 * time.Millisecond

// The answers of the account-state check.
const (
	StateAbsent            = "absent"
	StateActive            = "active"
	StatePasswordNeverUsed = "password_never_used"
	StateImportedUnclaimed = "imported_unclaimed"
	// StateUnknown: the state could not be read (the database failed or was
	// too slow); the client should offer both sign-in and sign-up.
	StateUnknown = "unknown"
)

// AccountState answers what an email's account looks like, never sooner
// than StateFloor.
func (s *Service) AccountState(ctx context.Context, email string) (string, error) {
	if _, err := members.NormalizeEmail(email); err != nil {
		return "", apperr.Validation("email", "a valid email address is required")
	}
	defer timing.Floor(ctx, time.Now(), StateFloor)
	lctx, cancel := context.WithTimeout(ctx, StateFloor*4/5)
	defer cancel()
	u, err := s.userByEmail(system.Allow(lctx, "accounts.state"), email)
	switch {
	case err != nil:
		s.log.WarnContext(ctx, "account state: lookup", "error", err)
		return StateUnknown, nil
	case u == nil:
		return StateAbsent, nil
	case u.AccountState == "imported_unclaimed":
		return StateImportedUnclaimed, nil
	case u.AccountState == "password_never_used" || u.PasswordHash == "":
		return StatePasswordNeverUsed, nil
	default:
		return StateActive, nil
	}
}

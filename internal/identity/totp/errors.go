package totp

import (
	"errors"
	"fmt"
)

// Errors of the package.
var (
	// ErrInvalidCode means the code is malformed or matches no accepted step.
	ErrInvalidCode = errors.New("invalid totp code")
	// ErrReused means the code is right but its step was already used. It
	// wraps ErrInvalidCode: answer it the same way.
	ErrReused = fmt.Errorf("%w: already used in its time step", ErrInvalidCode)
	// ErrInvalidSecret means a secret is not base32 or has the wrong size.
	ErrInvalidSecret = errors.New("invalid totp secret")
	// ErrInvalidLabel means an issuer or account name cannot be put in a
	// provisioning URI (empty, or containing a colon).
	ErrInvalidLabel = errors.New("invalid totp issuer or account name")
)

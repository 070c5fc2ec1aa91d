package codes

import "errors"

// Errors of the package.
var (
	// ErrInvalidCode means a presented code is malformed or does not match.
	// Every flow answers it the same way (400 INVALID_CODE for device
	// approval); the wrapped detail is for logs.
	ErrInvalidCode = errors.New("invalid code")
	// ErrWeakPepper means the server pepper given to NewHasher is too short.
	ErrWeakPepper = errors.New("pepper must be at least 32 bytes")
	// ErrUnsupportedMethod means a PKCE challenge method other than S256.
	ErrUnsupportedMethod = errors.New("unsupported code challenge method")
)

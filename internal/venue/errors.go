package venue

import "errors"

// Errors of the package; wrapped errors carry the offending value.
var (
	// ErrSlugTaken means another venue already uses the slug.
	ErrSlugTaken = errors.New("venue slug is already taken")
	// ErrInvalid means a field of a create or update is malformed.
	ErrInvalid = errors.New("invalid venue")
)

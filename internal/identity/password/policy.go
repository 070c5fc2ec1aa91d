package password

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Length bounds of the policy, in Unicode code points after NFKC.
const (
	MinLength = 10
	MaxLength = 128
)

// Reasons of a PolicyError, stable strings for error details.
const (
	ReasonTooShort    = "too_short"
	ReasonTooLong     = "too_long"
	ReasonBlank       = "blank"
	ReasonInvalidUTF8 = "invalid_utf8"
)

// PolicyError says which field broke which rule. Err is one of ErrTooShort,
// ErrTooLong, ErrBlank and ErrInvalidUTF8, so errors.Is works on it.
type PolicyError struct {
	// Field is the request field, for example "password" or "new_password".
	Field string
	// Reason is one of the Reason constants.
	Reason string
	// Err is the sentinel error of the rule.
	Err error
}

// Error returns the field and the rule, never the password.
func (e *PolicyError) Error() string { return e.Field + ": " + e.Err.Error() }

// Unwrap returns the sentinel error of the rule.
func (e *PolicyError) Unwrap() error { return e.Err }

// CheckPolicy reports whether password, sent in the request field field, may
// be chosen as a password: valid UTF-8, MinLength to MaxLength characters
// after normalisation, and not only white space or invisible characters.
// It returns nil or a *PolicyError.
func CheckPolicy(field, password string) error {
	if !utf8.ValidString(password) {
		return &PolicyError{Field: field, Reason: ReasonInvalidUTF8, Err: ErrInvalidUTF8}
	}
	if len(password) > maxInputBytes {
		return &PolicyError{Field: field, Reason: ReasonTooLong, Err: ErrTooLong}
	}
	n := utf8.RuneCountInString(norm.NFKC.String(password))
	switch {
	case n < MinLength:
		return &PolicyError{Field: field, Reason: ReasonTooShort, Err: fmt.Errorf("%w: at least %d characters", ErrTooShort, MinLength)}
	case n > MaxLength:
		return &PolicyError{Field: field, Reason: ReasonTooLong, Err: fmt.Errorf("%w: at most %d characters", ErrTooLong, MaxLength)}
	}
	for _, r := range password {
		if !unicode.IsSpace(r) && !unicode.In(r, unicode.Cc, unicode.Cf) {
			return nil
		}
	}
	return &PolicyError{Field: field, Reason: ReasonBlank, Err: ErrBlank}
}

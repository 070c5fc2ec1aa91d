package password

import "errors"

// Errors of the package.
var (
	// ErrMismatch means the password does not match the hash. It is the one
	// answer to a wrong password; callers treat it like an unknown account.
	ErrMismatch = errors.New("password does not match")
	// ErrMalformedHash means a stored hash is not an argon2id PHC string this
	// package can verify (wrong algorithm, version, encoding or parameters
	// out of bounds). It points at bad data, not at a wrong password.
	ErrMalformedHash = errors.New("malformed password hash")
	// ErrInvalidParams means Params are outside the accepted bounds.
	ErrInvalidParams = errors.New("invalid argon2id parameters")

	// ErrTooShort means the password has fewer than MinLength characters.
	ErrTooShort = errors.New("password is too short")
	// ErrTooLong means the password has more than MaxLength characters.
	ErrTooLong = errors.New("password is too long")
	// ErrBlank means the password is only white space.
	ErrBlank = errors.New("password is only white space")
	// ErrInvalidUTF8 means the password is not valid UTF-8.
	ErrInvalidUTF8 = errors.New("password is not valid UTF-8")
)

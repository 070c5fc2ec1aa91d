package input

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// The years a date may lie in (inclusive). PostgreSQL holds far more; the
// business holds nothing before 1900 or after 2200, and a year 0000 or
// 9999 is a typo or a probe.
const (
	MinYear = 1900
	MaxYear = 2200
)

// Error is a value the gate refuses. Reason is a short phrase of this
// package's own ("contains a NUL character"); Field, when set by the caller
// that knows it, names the parameter or JSON path.
type Error struct {
	Field  string
	Reason string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return e.Reason
	}
	return e.Field + ": " + e.Reason
}

// In returns a copy of e naming field, or nil for a nil e.
func (e *Error) In(field string) *Error {
	if e == nil {
		return nil
	}
	c := *e
	c.Field = field
	return &c
}

// The reasons, shared by every face.
const (
	ReasonUTF8      = "must be valid UTF-8"
	ReasonNUL       = "must not contain a NUL character"
	ReasonTooLong   = "is too long"
	ReasonYear      = "must lie between the years 1900 and 2200"
	ReasonUUID      = "must be a UUID in its canonical form (8-4-4-4-12 hexadecimal digits)"
	ReasonDuplicate = "is given more than once"
	ReasonJSON      = "must be a well-formed JSON document"
	ReasonEscape    = "holds a malformed percent escape"
)

// Text checks a string: valid UTF-8 and no NUL character.
func Text(s string) *Error {
	if !utf8.ValidString(s) {
		return &Error{Reason: ReasonUTF8}
	}
	if strings.IndexByte(s, 0) >= 0 {
		return &Error{Reason: ReasonNUL}
	}
	return nil
}

// TextMax checks a string like Text and that it holds at most max
// characters (runes); max <= 0 means no bound.
func TextMax(s string, max int) *Error {
	if err := Text(s); err != nil {
		return err
	}
	if max > 0 && utf8.RuneCountInString(s) > max {
		return &Error{Reason: ReasonTooLong}
	}
	return nil
}

// Date checks that t lies in the years MinYear..MaxYear.
func Date(t time.Time) *Error {
	if y := t.Year(); y < MinYear || y > MaxYear {
		return &Error{Reason: ReasonYear}
	}
	return nil
}

// UUID parses an id in its canonical form only: 36 characters,
// hexadecimal digits (either case) in groups of 8-4-4-4-12. Braces, a urn:
// prefix or missing dashes, which uuid.Parse accepts, are refused.
func UUID(s string) (uuid.UUID, *Error) {
	if !IsCanonicalUUID(s) {
		return uuid.Nil, &Error{Reason: ReasonUUID}
	}
	id, err := uuid.Parse(s)
	if err != nil {
		return uuid.Nil, &Error{Reason: ReasonUUID}
	}
	return id, nil
}

// IsCanonicalUUID reports whether s is a UUID in its canonical textual form.
func IsCanonicalUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !isHex(c) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// EchoMax is the most bytes of an offending value Echo shows.
const EchoMax = 32

// Echo returns a short printable prefix of a caller's value for an error
// message: at most EchoMax bytes on a rune boundary, invalid bytes and
// control characters shown as U+FFFD, "…" appended when cut. A message
// echoes a value at most once, so an answer does not grow with the request.
func Echo(s string) string {
	var b strings.Builder
	for i, r := range s {
		if i >= EchoMax {
			b.WriteString("…")
			break
		}
		if r < 0x20 || r == 0x7f {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	return b.String()
}

package idempotency

import (
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// Header is the request header carrying the key; ReplayedHeader marks a
// replayed answer.
const (
	Header         = "Idempotency-Key"
	ReplayedHeader = "Idempotent-Replayed"
)

// Format is what a key must look like.
type Format struct {
	// Name appears in details.format of a refusal.
	Name string
	// UUID requires a UUID in its 36-character form.
	UUID bool
	// MinLen and MaxLen bound other keys, in characters.
	MinLen, MaxLen int
}

// The key formats the contract names.
var (
	Default     = Format{Name: "default", MinLen: 1, MaxLen: 255}
	UUID        = Format{Name: "uuid", UUID: true}
	Max128      = Format{Name: "max_128", MinLen: 1, MaxLen: 128}
	Max200      = Format{Name: "max_200", MinLen: 1, MaxLen: 200}
	ASCII8To160 = Format{Name: "ascii_8_160", MinLen: 8, MaxLen: 160}
)

// Normalize checks key against f and returns its stored form (UUIDs in lower
// case). The error is the 400 to answer.
func (f Format) Normalize(key string) (string, error) {
	if f == (Format{}) {
		f = Default
	}
	if f.UUID {
		u, err := uuid.Parse(key)
		if err != nil || len(key) != 36 {
			return "", MalformedKey(f)
		}
		return u.String(), nil
	}
	if len(key) < f.MinLen || len(key) > f.MaxLen {
		return "", MalformedKey(f)
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x21 || key[i] > 0x7e {
			return "", MalformedKey(f)
		}
	}
	return key, nil
}

// describe says what f accepts, for error messages.
func (f Format) describe() string {
	if f.UUID {
		return "a UUID"
	}
	var b strings.Builder
	b.WriteString("visible ASCII characters, ")
	if f.MinLen > 1 {
		b.WriteString(strconv.Itoa(f.MinLen) + " to ")
	} else {
		b.WriteString("at most ")
	}
	b.WriteString(strconv.Itoa(f.MaxLen))
	return b.String()
}

// Policy is how one operation treats the header.
type Policy struct {
	// Required refuses requests without a key; otherwise a request without
	// one runs unprotected.
	Required bool
	// Format of the key (zero: Default).
	Format Format
	// InvalidCode, when set, is the code of the 400 answering a key not in
	// Format (a malformed or repeated header) instead of CodeInvalidKey: the
	// contract names IDEMPOTENCY_KEY_INVALID for some UUID-key writes. A
	// missing key keeps CodeInvalidKey.
	InvalidCode string
	// RerunUnknown releases the key of a 409 UNKNOWN_WRITE_OUTCOME answer
	// instead of storing it, so the same key runs the operation again: for
	// an operation whose second run looks its first write's outcome up (it
	// never writes twice) and answers the final result.
	RerunUnknown bool
}

// WithRerunUnknown is p running a request answered 409
// UNKNOWN_WRITE_OUTCOME again on the same key.
func (p Policy) WithRerunUnknown() Policy {
	p.RerunUnknown = true
	return p
}

// WithInvalidCode is p answering a malformed key with code.
func (p Policy) WithInvalidCode(code string) Policy {
	p.InvalidCode = code
	return p
}

// malformed is the 400 of a key that p refuses for its form.
func (p Policy) malformed() error {
	e := MalformedKey(p.Format)
	if p.InvalidCode != "" {
		e.Code = p.InvalidCode
	}
	return e
}

// Required is the policy of an operation that needs a key of format f.
func Required(f Format) Policy { return Policy{Required: true, Format: f} }

// Optional is the policy of an operation that honours a key of format f.
func Optional(f Format) Policy { return Policy{Format: f} }

// Registry maps operation ids (of the OpenAPI document) to their policies;
// operations not listed ignore the header.
type Registry map[string]Policy

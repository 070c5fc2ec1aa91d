package signature

import (
	"crypto/hmac"
	"encoding/base64"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Verifier checks signed messages against a receiver's secrets.
type Verifier struct {
	keys [][]byte
	// Tolerance is how far the timestamp may be from Now, either way; zero means
	// DefaultTolerance.
	Tolerance time.Duration
	// Now is the verifier's clock; nil means time.Now.
	Now func() time.Time
}

// NewVerifier returns a verifier that accepts a message signed with any of secrets: during a
// rotation a receiver holds the new secret and, for a while, the previous one.
func NewVerifier(secrets ...string) (*Verifier, error) {
	if len(secrets) == 0 {
		return nil, fmt.Errorf("%w: none given", ErrInvalidSecret)
	}
	v := &Verifier{}
	for _, s := range secrets {
		key, err := ParseSecret(s)
		if err != nil {
			return nil, err
		}
		v.keys = append(v.keys, key)
	}
	return v, nil
}

// Verify checks the headers of a message and its raw body (the bytes received, before any
// JSON decoding).
func (v *Verifier) Verify(h http.Header, body []byte) error {
	id, tsText, sigs := h.Get(HeaderID), h.Get(HeaderTimestamp), h.Get(HeaderSignature)
	if id == "" || tsText == "" || sigs == "" {
		return fmt.Errorf("verify: %w", ErrMissingHeaders)
	}
	unix, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return fmt.Errorf("verify: %w", ErrInvalidTimestamp)
	}
	now := time.Now
	if v.Now != nil {
		now = v.Now
	}
	tolerance := v.Tolerance
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	nowUnix := now().Unix()
	if unix < nowUnix-int64(tolerance/time.Second) || unix > nowUnix+int64(tolerance/time.Second) {
		return fmt.Errorf("verify: %w", ErrTimestampOutOfRange)
	}
	expected := make([][]byte, len(v.keys))
	for i, key := range v.keys {
		expected[i] = mac(key, id, unix, body)
	}
	// Check every candidate against every key without stopping early on a match, so the time
	// taken does not tell which signature or key matched.
	matched := 0
	for _, candidate := range strings.Fields(sigs) {
		ver, enc, ok := strings.Cut(candidate, ",")
		if !ok || ver != version {
			continue // other schemes, such as v1a, are not ours to judge
		}
		got, err := base64.StdEncoding.DecodeString(enc)
		if err != nil {
			continue
		}
		for _, want := range expected {
			if hmac.Equal(got, want) {
				matched++
			}
		}
	}
	if matched == 0 {
		return fmt.Errorf("verify: %w", ErrNoMatchingSignature)
	}
	return nil
}

// Verify checks a message with the default tolerance and the system clock against any of
// secrets.
func Verify(h http.Header, body []byte, secrets ...string) error {
	v, err := NewVerifier(secrets...)
	if err != nil {
		return err
	}
	return v.Verify(h, body)
}

package signature

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Header names of the Standard Webhooks format. Go canonicalises them on the wire; they are
// case-insensitive in HTTP.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

const (
	// SecretPrefix starts every secret.
	SecretPrefix = "whsec_"
	// SecretBytes is the length of the key NewSecret generates.
	SecretBytes = 32
	// MinSecretBytes and MaxSecretBytes bound the key a secret may carry, as the standard
	// recommends.
	MinSecretBytes = 24
	MaxSecretBytes = 64
	// DefaultTolerance is how far a timestamp may be from the verifier's clock.
	DefaultTolerance = 5 * time.Minute
	// version is the only signature scheme this package writes and reads.
	version = "v1"
)

// Errors of this package; Verify wraps them with a short label.
var (
	// ErrInvalidSecret is a secret without the prefix, with bad base64 or a key of the wrong
	// length.
	ErrInvalidSecret = errors.New("invalid webhook secret")
	// ErrMissingHeaders means one of the three headers is absent or empty.
	ErrMissingHeaders = errors.New("missing webhook headers")
	// ErrInvalidTimestamp is a timestamp that is not a Unix time in seconds.
	ErrInvalidTimestamp = errors.New("invalid webhook timestamp")
	// ErrTimestampOutOfRange is a timestamp further from now than the tolerance.
	ErrTimestampOutOfRange = errors.New("webhook timestamp out of tolerance")
	// ErrNoMatchingSignature means no v1 signature matched any of the secrets.
	ErrNoMatchingSignature = errors.New("no matching webhook signature")
)

// NewSecret returns a new secret: the prefix and the base64 of SecretBytes random bytes.
func NewSecret() (string, error) {
	key := make([]byte, SecretBytes)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("new secret: %w", err)
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(key), nil
}

// ParseSecret returns the HMAC key of a secret.
func ParseSecret(secret string) ([]byte, error) {
	enc, ok := strings.CutPrefix(secret, SecretPrefix)
	if !ok {
		return nil, fmt.Errorf("%w: no %s prefix", ErrInvalidSecret, SecretPrefix)
	}
	key, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return nil, fmt.Errorf("%w: bad base64", ErrInvalidSecret)
	}
	if len(key) < MinSecretBytes || len(key) > MaxSecretBytes {
		return nil, fmt.Errorf("%w: key of %d bytes", ErrInvalidSecret, len(key))
	}
	return key, nil
}

// Sign returns the webhook-signature value for a message: one "v1,<base64>" per secret,
// separated by spaces. Several secrets are for a rotation's overlap, when a receiver may
// still hold the previous one.
func Sign(id string, ts time.Time, body []byte, secrets ...string) (string, error) {
	if len(secrets) == 0 {
		return "", fmt.Errorf("%w: none given", ErrInvalidSecret)
	}
	sigs := make([]string, 0, len(secrets))
	for _, s := range secrets {
		key, err := ParseSecret(s)
		if err != nil {
			return "", err
		}
		sigs = append(sigs, version+","+base64.StdEncoding.EncodeToString(mac(key, id, ts.Unix(), body)))
	}
	return strings.Join(sigs, " "), nil
}

// Headers returns the three headers of a signed message, for a request about to be sent.
func Headers(id string, ts time.Time, body []byte, secrets ...string) (http.Header, error) {
	sig, err := Sign(id, ts, body, secrets...)
	if err != nil {
		return nil, err
	}
	h := http.Header{}
	h.Set(HeaderID, id)
	h.Set(HeaderTimestamp, strconv.FormatInt(ts.Unix(), 10))
	h.Set(HeaderSignature, sig)
	return h, nil
}

// mac is the HMAC-SHA256 of "id.timestamp.body".
func mac(key []byte, id string, unix int64, body []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id))
	m.Write([]byte{'.'})
	m.Write(strconv.AppendInt(nil, unix, 10))
	m.Write([]byte{'.'})
	m.Write(body)
	return m.Sum(nil)
}

package totp

import (
	"crypto/hkdf"
	"crypto/sha256"
	"errors"

	"github.com/venueplatform/venue/internal/secretbox"
)

// KeySize is the size of a sealing key: AES-256.
const KeySize = secretbox.KeySize

// ErrUnknownKey is a sealed secret whose key is not configured.
var ErrUnknownKey = secretbox.ErrUnknownKey

// ErrSealed is a sealed secret that does not open: tampered, or moved to
// another binding (another user's row).
var ErrSealed = secretbox.ErrSealed

// Sealer encrypts TOTP secrets at rest with the service's one keyring,
// secretbox, in its TOTP format ("totp1:<key id>:<base64url(nonce ||
// AES-256-GCM ciphertext and tag)>", the format this package always wrote).
// It seals with its current key and opens with any configured key, so keys
// rotate: configure the new key as current and the old ones as previous;
// secrets sealed with an old key still open and report stale, and the caller
// seals them again.
//
// Each secret is bound to its owner (the binding, the user id) as additional
// authenticated data: a sealed value copied to another user's row does not
// open.
type Sealer struct {
	box *secretbox.Box
}

// NewSealer returns a Sealer sealing with current and opening with current
// and previous; every key must be KeySize bytes.
func NewSealer(current []byte, previous ...[]byte) (*Sealer, error) {
	if current == nil {
		return nil, errors.New("totp: a sealing key is required")
	}
	box, err := secretbox.New(secretbox.FormatTOTP, current, previous...)
	if err != nil {
		return nil, err
	}
	return &Sealer{box: box}, nil
}

// DeriveKey derives a sealing key from another secret of at least 32 bytes
// (the code pepper) with HKDF-SHA256, for deployments without a key of its
// own.
func DeriveKey(secret []byte) ([]byte, error) {
	return hkdf.Key(sha256.New, secret, nil, "venue totp secret sealing v1", KeySize)
}

// Seal encrypts secret for binding.
func (s *Sealer) Seal(secret, binding string) (string, error) {
	return s.box.Seal(secret, binding)
}

// IsSealed reports whether a stored value is in the sealed format (rather
// than a plaintext secret stored before sealing existed).
func IsSealed(stored string) bool { return secretbox.IsSealed(stored) }

// Open returns the secret of a stored value for binding. stale is true when
// the value should be sealed again: a plaintext secret of an earlier version
// (accepted as it is) or one sealed with a previous key.
func (s *Sealer) Open(stored, binding string) (secret string, stale bool, err error) {
	if !IsSealed(stored) {
		if _, err := DecodeSecret(stored); err != nil {
			return "", false, ErrSealed
		}
		return stored, true, nil
	}
	return s.box.Open(stored, binding)
}

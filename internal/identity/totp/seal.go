package totp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the size of a sealing key: AES-256.
const KeySize = 32

// sealPrefix starts every sealed secret: format version 1 is
// "totp1:<key id>:<base64url(nonce || AES-256-GCM ciphertext and tag)>",
// the key id being the first 8 bytes of SHA-256 over the key, in hex.
const sealPrefix = "totp1:"

// ErrUnknownKey is a sealed secret whose key is not configured.
var ErrUnknownKey = errors.New("totp: sealed with a key that is not configured")

// ErrSealed is a sealed secret that does not open: tampered, or moved to
// another binding (another user's row).
var ErrSealed = errors.New("totp: sealed secret does not open")

// Sealer encrypts TOTP secrets at rest with AES-256-GCM. It seals with its
// current key and opens with any configured key, so keys rotate: configure
// the new key as current and the old ones as previous; secrets sealed with an
// old key still open and report stale, and the caller seals them again.
//
// Each secret is bound to its owner (the binding, the user id) as additional
// authenticated data: a sealed value copied to another user's row does not
// open.
type Sealer struct {
	currentID string
	keys      map[string]cipher.AEAD
}

// NewSealer returns a Sealer sealing with current and opening with current
// and previous; every key must be KeySize bytes.
func NewSealer(current []byte, previous ...[]byte) (*Sealer, error) {
	s := &Sealer{keys: map[string]cipher.AEAD{}}
	for i, k := range append([][]byte{current}, previous...) {
		if len(k) != KeySize {
			return nil, fmt.Errorf("totp: sealing key of %d bytes, want %d", len(k), KeySize)
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		id := keyID(k)
		if i == 0 {
			s.currentID = id
		}
		if _, dup := s.keys[id]; !dup {
			s.keys[id] = aead
		}
	}
	return s, nil
}

func keyID(k []byte) string {
	sum := sha256.Sum256(k)
	return hex.EncodeToString(sum[:8])
}

// DeriveKey derives a sealing key from another secret of at least 32 bytes
// (the code pepper) with HKDF-SHA256, for deployments without a key of its
// own.
func DeriveKey(secret []byte) ([]byte, error) {
	return hkdf.Key(sha256.New, secret, nil, "venue totp secret sealing v1", KeySize)
}

// Seal encrypts secret for binding.
func (s *Sealer) Seal(secret, binding string) (string, error) {
	aead := s.keys[s.currentID]
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(secret)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	sealed := aead.Seal(nonce, nonce, []byte(secret), []byte(binding))
	return sealPrefix + s.currentID + ":" + base64.RawURLEncoding.EncodeToString(sealed), nil
}

// IsSealed reports whether a stored value is in the sealed format (rather
// than a plaintext secret stored before sealing existed).
func IsSealed(stored string) bool { return strings.HasPrefix(stored, sealPrefix) }

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
	id, body, ok := strings.Cut(strings.TrimPrefix(stored, sealPrefix), ":")
	if !ok {
		return "", false, ErrSealed
	}
	aead, ok := s.keys[id]
	if !ok {
		return "", false, ErrUnknownKey
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead() {
		return "", false, ErrSealed
	}
	plain, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], []byte(binding))
	if err != nil {
		return "", false, ErrSealed
	}
	return string(plain), id != s.currentID, nil
}

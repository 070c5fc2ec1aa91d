// Package secretbox keeps webhook signing secrets encrypted at rest. Signing needs the secret
// itself (HMAC), so it cannot be hashed; with a key configured (VENUE_WEBHOOK_SECRET_KEY,
// base64 of 32 bytes, given to New by the server at start) each secret is stored as
// "wsk1:<key id>:<base64url(nonce || AES-256-GCM ciphertext and tag)>", bound to its
// subscription's id as additional data, so a value copied to another row does not open.
// Previous keys (VENUE_WEBHOOK_SECRET_PREVIOUS_KEYS) still open what they sealed, so the key
// rotates. Without a key secrets are stored as they are (and still never leave the service
// except once, at creation or rotation); values of either form always open.
package secretbox

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the size of a key: AES-256.
const KeySize = 32

const prefix = "wsk1:"

// Errors of opening.
var (
	ErrUnknownKey = errors.New("secretbox: sealed with a key that is not configured")
	ErrSealed     = errors.New("secretbox: sealed secret does not open")
)

// Box seals with its current key (none: stores plaintext) and opens with any configured one.
type Box struct {
	current string
	keys    map[string]cipher.AEAD
}

// New returns a Box; current may be nil (no sealing), every key must be KeySize bytes.
func New(current []byte, previous ...[]byte) (*Box, error) {
	b := &Box{keys: map[string]cipher.AEAD{}}
	all := previous
	if current != nil {
		all = append([][]byte{current}, previous...)
	}
	for i, k := range all {
		if len(k) != KeySize {
			return nil, fmt.Errorf("secretbox: key of %d bytes, want %d", len(k), KeySize)
		}
		block, err := aes.NewCipher(k)
		if err != nil {
			return nil, err
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(k)
		id := hex.EncodeToString(sum[:8])
		if i == 0 && current != nil {
			b.current = id
		}
		b.keys[id] = aead
	}
	return b, nil
}

// Seal returns the stored form of secret for the row binding.
func (b *Box) Seal(secret, binding string) (string, error) {
	if b == nil || b.current == "" {
		return secret, nil
	}
	aead := b.keys[b.current]
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(secret)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	sealed := aead.Seal(nonce, nonce, []byte(secret), []byte(binding))
	return prefix + b.current + ":" + base64.RawURLEncoding.EncodeToString(sealed), nil
}

// Open returns the secret of a stored value for binding.
func (b *Box) Open(stored, binding string) (string, error) {
	if !strings.HasPrefix(stored, prefix) {
		return stored, nil
	}
	id, body, ok := strings.Cut(strings.TrimPrefix(stored, prefix), ":")
	if !ok {
		return "", ErrSealed
	}
	var aead cipher.AEAD
	if b != nil {
		aead = b.keys[id]
	}
	if aead == nil {
		return "", ErrUnknownKey
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil || len(raw) < aead.NonceSize()+aead.Overhead() {
		return "", ErrSealed
	}
	plain, err := aead.Open(nil, raw[:aead.NonceSize()], raw[aead.NonceSize():], []byte(binding))
	if err != nil {
		return "", ErrSealed
	}
	return string(plain), nil
}

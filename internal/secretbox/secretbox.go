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

// Formats of sealed values: the tag that starts a value, naming the kind of
// secret it holds. The layout after the tag is the same for every format.
const (
	// FormatWebhook is a webhook signing secret, bound to its subscription.
	FormatWebhook = "wsk1"
	// FormatTOTP is a TOTP secret, bound to its user.
	FormatTOTP = "totp1"
)

// formats are the tags Open and IsSealed recognise.
var formats = []string{FormatWebhook, FormatTOTP}

// Errors of opening.
var (
	ErrUnknownKey = errors.New("secretbox: sealed with a key that is not configured")
	ErrSealed     = errors.New("secretbox: sealed secret does not open")
)

// Box is a keyring: it seals in its format with its current key (none:
// stores secrets as they are) and opens values of any format sealed with
// any of its keys.
type Box struct {
	format  string
	current string
	keys    map[string]cipher.AEAD
}

// New returns a Box sealing in format (FormatWebhook, FormatTOTP) with
// current, and opening with current and previous. current may be nil (no
// sealing); every key must be KeySize bytes.
func New(format string, current []byte, previous ...[]byte) (*Box, error) {
	if !known(format) {
		return nil, fmt.Errorf("secretbox: unknown format %q", format)
	}
	b := &Box{format: format, keys: map[string]cipher.AEAD{}}
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
		id := keyID(k)
		if i == 0 && current != nil {
			b.current = id
		}
		if _, dup := b.keys[id]; !dup {
			b.keys[id] = aead
		}
	}
	return b, nil
}

// keyID names a key in sealed values: the first 8 bytes of its SHA-256, in hex.
func keyID(k []byte) string {
	sum := sha256.Sum256(k)
	return hex.EncodeToString(sum[:8])
}

func known(format string) bool {
	for _, f := range formats {
		if f == format {
			return true
		}
	}
	return false
}

// Seals reports whether b seals (has a current key). A nil Box does not.
func (b *Box) Seals() bool { return b != nil && b.current != "" }

// Seal returns the stored form of secret for the row binding: sealed when b
// has a current key, else secret itself.
func (b *Box) Seal(secret, binding string) (string, error) {
	if !b.Seals() {
		return secret, nil
	}
	aead := b.keys[b.current]
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(secret)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	sealed := aead.Seal(nonce, nonce, []byte(secret), []byte(binding))
	return b.format + ":" + b.current + ":" + base64.RawURLEncoding.EncodeToString(sealed), nil
}

// IsSealed reports whether a stored value is in a sealed format (rather than
// a secret stored as it is).
func IsSealed(stored string) bool {
	_, _, ok := cut(stored)
	return ok
}

// cut splits a sealed value of a known format into its key id and body.
func cut(stored string) (id, body string, ok bool) {
	tag, rest, found := strings.Cut(stored, ":")
	if !found || !known(tag) {
		return "", "", false
	}
	id, body, _ = strings.Cut(rest, ":")
	return id, body, true
}

// Open returns the secret of a stored value for binding. A value that is not
// sealed is the secret itself. stale is true when the value should be stored
// again with Seal: b seals, and the value is not sealed or was sealed with a
// previous key.
func (b *Box) Open(stored, binding string) (secret string, stale bool, err error) {
	id, body, sealed := cut(stored)
	if !sealed {
		return stored, b.Seals(), nil
	}
	var aead cipher.AEAD
	if b != nil {
		aead = b.keys[id]
	}
	if aead == nil {
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
	return string(plain), b.Seals() && id != b.current, nil
}

package token

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"strings"
)

// SigningKey is an Ed25519 private key and its key id. Its String and
// GoString methods print the key id only, so a logged key leaks nothing.
type SigningKey struct {
	id   string
	priv ed25519.PrivateKey
}

// VerificationKey is an Ed25519 public key and its key id.
type VerificationKey struct {
	// ID is the RFC 7638 JWK thumbprint of the key: the kid of tokens signed
	// with the matching private key.
	ID string
	// Key is the public key.
	Key ed25519.PublicKey
}

// GenerateSigningKey returns a new random key, for development and tests.
// Production loads its key with ParseSigningKey.
func GenerateSigningKey() (*SigningKey, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("token: generate key: %w", err)
	}
	return newSigningKey(priv), nil
}

// ParseSigningKey reads a private key from s: a PEM "PRIVATE KEY" block
// (PKCS #8, as `openssl genpkey -algorithm ed25519` writes) or the base64 of
// the 32-byte seed, standard or URL alphabet, with or without padding (as
// EncodeSeed writes). Surrounding white space is ignored.
func ParseSigningKey(s string) (*SigningKey, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "-----BEGIN") {
		block, rest := pem.Decode([]byte(s))
		if block == nil || block.Type != "PRIVATE KEY" || strings.TrimSpace(string(rest)) != "" {
			return nil, fmt.Errorf("%w: want one PEM PRIVATE KEY block", ErrInvalidKey)
		}
		k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidKey, err)
		}
		priv, ok := k.(ed25519.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("%w: PEM key is %T, not Ed25519", ErrInvalidKey, k)
		}
		return newSigningKey(priv), nil
	}
	seed, err := decodeBase64(s)
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, fmt.Errorf("%w: want PEM or the base64 of a %d-byte seed", ErrInvalidKey, ed25519.SeedSize)
	}
	return newSigningKey(ed25519.NewKeyFromSeed(seed)), nil
}

// ParseVerificationKey reads a public key from s: a PEM "PUBLIC KEY" block
// (PKIX) or the base64 of the 32-byte key, standard or URL alphabet, with or
// without padding (the x of a JWK).
func ParseVerificationKey(s string) (VerificationKey, error) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "-----BEGIN") {
		block, rest := pem.Decode([]byte(s))
		if block == nil || block.Type != "PUBLIC KEY" || strings.TrimSpace(string(rest)) != "" {
			return VerificationKey{}, fmt.Errorf("%w: want one PEM PUBLIC KEY block", ErrInvalidKey)
		}
		k, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return VerificationKey{}, fmt.Errorf("%w: %v", ErrInvalidKey, err)
		}
		pub, ok := k.(ed25519.PublicKey)
		if !ok {
			return VerificationKey{}, fmt.Errorf("%w: PEM key is %T, not Ed25519", ErrInvalidKey, k)
		}
		return newVerificationKey(pub), nil
	}
	raw, err := decodeBase64(s)
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return VerificationKey{}, fmt.Errorf("%w: want PEM or the base64 of a %d-byte key", ErrInvalidKey, ed25519.PublicKeySize)
	}
	return newVerificationKey(ed25519.PublicKey(raw)), nil
}

func newSigningKey(priv ed25519.PrivateKey) *SigningKey {
	return &SigningKey{id: thumbprint(priv.Public().(ed25519.PublicKey)), priv: priv}
}

func newVerificationKey(pub ed25519.PublicKey) VerificationKey {
	return VerificationKey{ID: thumbprint(pub), Key: pub}
}

// ID returns the key id, the RFC 7638 thumbprint of the public key.
func (k *SigningKey) ID() string { return k.id }

// Public returns the verification half of k.
func (k *SigningKey) Public() VerificationKey {
	return VerificationKey{ID: k.id, Key: k.priv.Public().(ed25519.PublicKey)}
}

// EncodeSeed returns the base64url seed of k, the form ParseSigningKey reads
// from configuration. It is the secret: print it only to set it up.
func (k *SigningKey) EncodeSeed() string {
	return base64.RawURLEncoding.EncodeToString(k.priv.Seed())
}

// String returns the key id only.
func (k *SigningKey) String() string { return "ed25519 signing key " + k.id }

// GoString returns the key id only.
func (k *SigningKey) GoString() string { return "token.SigningKey{" + k.id + "}" }

// thumbprint is the RFC 7638 JWK thumbprint (SHA-256, base64url) of pub:
// the hash of the required members in lexicographic order, no white space.
func thumbprint(pub ed25519.PublicKey) string {
	sum := sha256.Sum256([]byte(`{"crv":"Ed25519","kty":"OKP","x":"` + base64.RawURLEncoding.EncodeToString(pub) + `"}`))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// decodeBase64 accepts both alphabets, padded or not.
func decodeBase64(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if strings.ContainsAny(s, "+/") {
		return base64.RawStdEncoding.Strict().DecodeString(s)
	}
	return base64.RawURLEncoding.Strict().DecodeString(s)
}

// KeySet holds the key that signs new tokens and every key whose tokens are
// still accepted. It is immutable and safe for concurrent use.
type KeySet struct {
	signing *SigningKey
	verify  map[string]ed25519.PublicKey
	order   []string
}

// NewKeySet returns a KeySet that signs with signing (nil for a verify-only
// set) and accepts tokens of signing and of every key in verification:
// retired keys whose tokens have not expired yet, and announced keys other
// instances are about to sign with. Duplicate keys are merged.
func NewKeySet(signing *SigningKey, verification ...VerificationKey) (*KeySet, error) {
	ks := &KeySet{signing: signing, verify: map[string]ed25519.PublicKey{}}
	add := func(k VerificationKey) error {
		if len(k.Key) != ed25519.PublicKeySize {
			return fmt.Errorf("%w: public key of %d bytes", ErrInvalidKey, len(k.Key))
		}
		if k.ID != thumbprint(k.Key) {
			return fmt.Errorf("%w: key id %s is not the key's thumbprint", ErrInvalidKey, quote(k.ID))
		}
		if _, ok := ks.verify[k.ID]; !ok {
			ks.verify[k.ID] = k.Key
			ks.order = append(ks.order, k.ID)
		}
		return nil
	}
	if signing != nil {
		if err := add(signing.Public()); err != nil {
			return nil, err
		}
	}
	for _, k := range verification {
		if err := add(k); err != nil {
			return nil, err
		}
	}
	if len(ks.order) == 0 {
		return nil, fmt.Errorf("%w: key set is empty", ErrInvalidKey)
	}
	return ks, nil
}

// SigningKeyID returns the kid new tokens carry, or "" for a verify-only set.
func (ks *KeySet) SigningKeyID() string {
	if ks.signing == nil {
		return ""
	}
	return ks.signing.id
}

// VerificationKeys returns the accepted keys, the signing key first.
func (ks *KeySet) VerificationKeys() []VerificationKey {
	out := make([]VerificationKey, 0, len(ks.order))
	for _, id := range ks.order {
		out = append(out, VerificationKey{ID: id, Key: ks.verify[id]})
	}
	return out
}

func (ks *KeySet) lookup(kid string) (ed25519.PublicKey, bool) {
	k, ok := ks.verify[kid]
	return k, ok
}

// JWK is the RFC 8037 JSON Web Key of an Ed25519 public key.
type JWK struct {
	Kty string `json:"kty"` // "OKP"
	Crv string `json:"crv"` // "Ed25519"
	X   string `json:"x"`   // the public key, base64url
	Kid string `json:"kid"` // the key id, its thumbprint
	Use string `json:"use"` // "sig"
	Alg string `json:"alg"` // "EdDSA"
}

// JWK returns k as a JSON Web Key.
func (k VerificationKey) JWK() JWK {
	return JWK{Kty: "OKP", Crv: "Ed25519", X: base64.RawURLEncoding.EncodeToString(k.Key), Kid: k.ID, Use: "sig", Alg: algEdDSA}
}

// JWKS returns the accepted public keys as a JWK Set document,
// {"keys":[...]}, for a /.well-known/jwks.json endpoint or for another
// service that verifies the tokens.
func (ks *KeySet) JWKS() ([]byte, error) {
	keys := ks.VerificationKeys()
	doc := struct {
		Keys []JWK `json:"keys"`
	}{Keys: make([]JWK, 0, len(keys))}
	for _, k := range keys {
		doc.Keys = append(doc.Keys, k.JWK())
	}
	return json.Marshal(doc)
}

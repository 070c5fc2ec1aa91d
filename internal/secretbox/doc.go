// Package secretbox is the one keyring for secrets kept at rest that the
// service must read back, so they cannot be hashed: webhook signing secrets
// (HMAC keys) and TOTP secrets. It is a storage-level utility: it knows no
// viewer, entity or request, only keys, bytes and the row a value is bound to.
//
// A sealed value is "<format>:<key id>:<base64url(nonce || AES-256-GCM
// ciphertext and tag)>": the format names the kind of secret (wsk1 for a
// webhook signing secret, totp1 for a TOTP secret), the key id is the first 8
// bytes of SHA-256 over the key, in hex, and the row's binding (the
// subscription id, the user id) is the additional data, so a value copied to
// another row does not open. These are the formats the webhook and TOTP
// sealers wrote before they shared this package, so values already in a
// database open unchanged; a Box opens either format.
//
// A Box seals with its current key and opens with any configured one, so
// keys rotate: configure the new key as current and the old ones as
// previous; Open reports a value sealed with an old key as stale and the
// caller seals it again. Without a current key a Box stores secrets as they
// are (webhook secrets when no VENUE_WEBHOOK_SECRET_KEY is configured); values
// that are not sealed always open as themselves.
//
// The keys come from the configuration, given to New by the caller at start:
// VENUE_WEBHOOK_SECRET_KEY and VENUE_WEBHOOK_SECRET_PREVIOUS_KEYS for webhook
// secrets; VENUE_MFA_KEY and VENUE_MFA_PREVIOUS_KEYS (or a key derived from
// the code pepper) for TOTP secrets, through totp.NewSealer.
package secretbox

// Package codes makes and checks the short-lived secrets of the identity
// flows other than passwords and TOTP: backup codes, six-digit numeric codes,
// TV device codes and user codes, SSO hand-off codes and PKCE. It has no
// database and no HTTP. Every random choice comes from crypto/rand and is
// uniform (rejection sampling, no modulo bias); every comparison of secrets
// takes constant time.
//
// # Storage: what hash for which code
//
// Codes are never stored in clear. The hash depends on the entropy:
//
//   - 256-bit codes (device_code, hand-off codes): SHA-256 ([HashOpaque]).
//     Brute force of 2^256 is out of reach, so a fast unkeyed hash is enough
//     and lookups stay one indexed read.
//   - Short codes (backup codes, 40 bits; numeric codes, 20 bits; user
//     codes, 34.6 bits): HMAC-SHA256 keyed with a server pepper ([Hasher]).
//     A plain SHA-256 of 2^40 values falls to one GPU in minutes, so a copy of
//     the database must not suffice; the pepper lives in configuration, not
//     in the database. Argon2id would also resist that, but costs tens of
//     milliseconds per code, and checking a backup code against a set of ten
//     would cost ten of them; a keyed hash is deterministic, so the row is
//     found by its hash in one read. Online guessing is stopped by the rate
//     limits, the attempt counters and the expiry, not by the hash.
//
// The keyed hash binds a [Purpose] and a subject (the user id for backup and
// reset codes), so a code or a hash from one flow or user is worthless in
// another.
//
// # Single use
//
// Single use is the database's job, done atomically: consume with one
// conditional statement (UPDATE ... SET used_at = now() WHERE hash = $1 AND
// used_at IS NULL AND expires_at > now() RETURNING ...) so two concurrent
// requests cannot both succeed. Count failed attempts on the row and refuse
// the code after the limit (5 for device user codes).
//
// # Formats
//
//	backup code     xxxx-xxxx   lower-case Crockford base32 (no i l o u), 40 bits
//	numeric code    123456      six uniform digits
//	user code       BCDF-GHJK   RFC 8628 consonants BCDFGHJKLMNPQRSTVWXZ, 34.6 bits
//	device code     43 chars    base64url, 256 bits
//	hand-off code   43 chars    base64url, 256 bits
//	PKCE            S256 only, verifier 43..128 unreserved characters
//
// Typed codes are normalised before hashing: case, dashes (also the Unicode
// dashes phones substitute) and white space are ignored; a backup code reads
// o as 0 and i and l as 1. Normalisers reject everything else, so a
// malformed code costs no database read.
package codes

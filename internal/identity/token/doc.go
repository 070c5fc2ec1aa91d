// Package token issues and verifies the access tokens of user sessions and
// mints the refresh tokens that renew them. It has no database and no HTTP.
//
// # Access tokens
//
// An access token is a JWT signed with Ed25519 (alg EdDSA, RFC 8037):
//
//	header  {"alg":"EdDSA","typ":"JWT","kid":"<RFC 7638 thumbprint>"}
//	claims  {"iss","aud","sub":user id,"sid":session id,"jti",
//	         "iat","nbf","exp", "amr"?, "mfa"?, "auth_time"?, "stepup_at"?}
//
// The encoding is written here (about a hundred lines) rather than taken from
// a JWT library, so nothing but EdDSA can ever be negotiated: the algorithm
// is a constant, not a lookup, and a header naming any other algorithm —
// none, HS256 keyed with the public key, RS256, ES256 — is refused before a
// key is even chosen. [Service.Verify] is strict on purpose: it reads only
// tokens this package writes. Every failure is a [*VerifyError] matching
// [ErrInvalidToken] (one 401 for the client) with a [Reason] for the logs.
//
// Tokens live [DefaultTTL] (15 minutes, at most [MaxTTL]): logout revokes the
// session and its refresh token, but an access token stays valid until it
// expires, as the contract says. Clocks may differ by [DefaultLeeway] (30 s).
//
// Step-up: after a second factor the session's next token carries mfa true,
// "otp" or "kba" in amr and stepup_at, the time of the check; an operation
// that requires step-up calls [Claims.SteppedUpWithin] with its own maximum
// age and answers 403 with a step-up hint otherwise.
//
// # Keys and rotation
//
// The signing key is configured as one string (an environment variable):
// the base64url of its 32-byte seed, or a PKCS #8 PEM block; see
// [ParseSigningKey], [GenerateSigningKey] and [SigningKey.EncodeSeed]. The
// kid is the key's RFC 7638 thumbprint, so it needs no configuration and
// cannot disagree with the key. A [KeySet] holds one signing key and any
// number of verification keys; [KeySet.JWKS] publishes the public keys.
//
// Rotation without rejected tokens, with several instances:
//
//  1. Generate the new key. Deploy every instance with the new public key
//     added to the verification keys (old key still signing).
//  2. Deploy with the new key signing and the old public key verifying.
//  3. After TTL + leeway, deploy without the old key.
//
// A compromised key skips the wait: remove it at once; its tokens fail with
// ReasonUnknownKey and clients refresh.
//
// # Refresh tokens
//
// A refresh token is opaque: rt_<lookup>_<secret>, 80 + 256 random bits in
// lowercase base32 ([NewRefreshToken]). The database keeps the lookup id in
// clear (indexed, loggable) and the SHA-256 of the whole token; a fast hash
// suffices because the secret has 256 bits of entropy. [ParseRefreshToken]
// validates a presented token and returns the lookup id and hash;
// [RefreshHashEqual] compares hashes in constant time.
//
// Rotation and reuse detection belong to the session store. The intended
// shape, one family per session:
//
//	sessions        id, user_id, created_at, last_used_at, expires_at
//	                (absolute limit), revoked_at, revoked_reason, mfa_at
//	refresh_tokens  id, session_id (the family), lookup UNIQUE, hash,
//	                parent_id, created_at, expires_at, used_at,
//	                replaced_by_id
//
// Exchange, in one transaction: parse the presented token (malformed: 401),
// SELECT the row by lookup FOR UPDATE, compare hashes with RefreshHashEqual
// (mismatch or missing: 401). If used_at is set, the token is spent: this is
// reuse, a stolen token or a replayed request, so revoke the session (every
// token of the family) and answer 401. If the session is revoked or expired:
// 401. Otherwise set used_at, insert the child token (same session_id,
// parent_id set, replaced_by_id on the parent), issue a new access token
// with the session id as sid, and return both. Logout sets revoked_at on the
// session; access tokens already issued stay valid until exp.
package token

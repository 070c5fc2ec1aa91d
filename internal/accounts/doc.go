// Package accounts owns member and staff accounts and their sessions: sign-up,
// login, the refresh-token chain, logout, forgotten and changed passwords, the
// email account-state check, the second factor (TOTP, backup codes,
// challenges, admin reset), and the other ways into a session (TV device
// codes, SSO hand-off codes, mobile email codes with PKCE). Handlers call it; it calls the primitives of
// package identity (argon2id, EdDSA access tokens, refresh tokens, codes).
//
// # Sessions
//
// A session is one sign-in. Login answers an access token (EdDSA JWT, 15
// minutes, token.DefaultTTL) and a refresh token. A session lives at most
// SessionTTL (30 days) from sign-in; every refresh token of the session
// expires with it. Refresh rotates: the presented token is spent and a new one
// returned. A spent token presented again is reuse (a stolen or replayed
// token), and revokes the whole session. Logout revokes the session; its
// access tokens stay valid until they expire, as the contract says.
//
// # Codes
//
// Forgotten-password and password-change codes are six digits, single use,
// valid CodeTTL (15 minutes), at most MaxCodeAttempts wrong guesses each; a
// new code replaces the user's pending one. Only a keyed hash is stored.
// Codes leave through a CodeSink; LogSink, the default, records that a code
// was sent (user id and purpose) and never the code. The server wires package
// codemail (SMTP, or message files in the mail folder). Tests capture codes
// with their own sink.
//
// # Enumeration
//
// Login answers one 401 INVALID_CREDENTIALS for an unknown email, a wrong
// password and an account without a password, and spends a full argon2id
// verification in every case. The forgotten-password answer is the same 202
// whether the email exists or not, after a 250 ms floor. Sign-up with a
// registered email is 409 ACCOUNT_EXISTS: the account-state check tells the
// same thing by design, and both are limited per client address. Imported
// (imported_unclaimed) and enrolled (password_never_used) people claim their
// account through the forgotten-password code, never through sign-up.
//
// # Second factor
//
// A TOTP factor is pending until its first code confirms it. A user with a
// confirmed factor signs in with mfa_required true and an access token
// without the mfa claim; /auth/mfa/verify (a TOTP code, a backup code, or a
// challenge with a TOTP code) marks the session (mfa_at, amr) and answers
// fresh tokens, spending the session's earlier refresh tokens. A TOTP code is
// accepted once: the factor's last step advances by a conditional update
// (WHERE last_step < step), so a replay, even a concurrent one, updates no
// row. Backup codes are spent by the statement that finds them. Adding a
// factor or new backup codes needs a session past the second factor once a
// factor exists. Only staff with admin.users.manage, in their active venue,
// for a person related to it, reset a factor; API keys cannot.
//
// # Device, hand-off and mobile codes
//
// Device codes, hand-off codes and mobile token hashes are 256-bit and
// stored as SHA-256; user codes and six-digit codes are short and counted
// (MaxDeviceAttempts submissions per user code, MaxCodeAttempts wrong
// guesses per mobile request) on top of the per-user and per-address rate
// limits. Every grant is spent by a conditional update, so a session is
// answered exactly once.
package accounts

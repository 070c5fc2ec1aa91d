// Package accounts owns member and staff accounts and their sessions: sign-up,
// login, the refresh-token chain, logout, forgotten and changed passwords, and
// the email account-state check. Handlers call it; it calls the primitives of
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
// was sent (user id and purpose) and never the code: wire a mail sender in
// production. Tests capture codes with their own sink.
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
package accounts

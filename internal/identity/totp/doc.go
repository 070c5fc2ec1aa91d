// Package totp implements time-based one-time passwords (RFC 6238) as every
// authenticator app understands them: HMAC-SHA1, 6 digits, 30-second steps,
// secrets of 160 bits in base32 without padding. It has no database and no
// HTTP.
//
// # Enrolment
//
// [GenerateSecret] makes a secret; [ProvisioningURI] turns it into the
// otpauth:// URI an app scans as a QR code. The factor stays pending until
// the user proves the app works with one valid code ([Verify]); only then is
// it active. The secret is a credential: store it encrypted at rest, never
// return it after enrolment, never log it.
//
// # Verification and replay
//
// [Verify] accepts the code of the current step and of one step either side
// (clock drift of up to 30 s in each direction, as RFC 6238 section 5.2
// recommends) and returns the step the code belongs to. A code must not
// be accepted twice, so the caller keeps the last accepted step per factor
// and passes it in: a code whose step is at or before it is refused with
// [ErrReused], which also matches [ErrInvalidCode] (one answer for the
// client). Store the returned step with a conditional update, so two
// concurrent requests with the same code cannot both win:
//
//	UPDATE mfa_factors SET last_step = $step
//	 WHERE id = $id AND (last_step IS NULL OR last_step < $step)
//
// and treat zero rows updated as ErrReused. Keeping the step rather than the
// code also refuses an older code after a newer one has been used. Pass 0
// for a factor never used.
//
// Six digits leave a one-in-a-million guess per try, three steps make it
// three: the MFA endpoints' rate limits (5 per 5 minutes per user) are what
// make guessing hopeless.
package totp

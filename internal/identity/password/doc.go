// Package password hashes and verifies member and staff passwords with
// argon2id and checks the password policy. It has no database and no HTTP:
// the signup, login and password-change handlers call it.
//
// # Format
//
// Hashes are PHC strings, the format of the reference implementation:
//
//	$argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>
//
// with salt and key in standard base64 without padding. The parameters travel
// with every hash, so they can be raised later: [Hasher.NeedsRehash] reports a
// hash made with other parameters, and the login handler re-hashes the
// password it has just verified.
//
// # Parameters
//
// [DefaultParams] is the first OWASP recommendation for argon2id: 19 MiB of
// memory, 2 passes, 1 lane, a 16-byte salt and a 32-byte key. OWASP rates
// its options (among them 64 MiB × 1 pass) as equally strong; this one
// needs under a third of the memory, which is what limits a login burst on
// a small server. The server has 2 cores: with one lane per hash two logins
// hash at once, one per core, instead of each login taking both cores for
// the same total work, and a single hash cannot starve the other requests.
// On the development machine (2 vCPUs, idle) a hash or a verification takes
// about 28 ms, and each one allocates its 19 MiB; see the package
// benchmarks (go test -bench . ./internal/identity/password).
//
// A [Hasher] also bounds the number of argon2id computations running at once
// (by default GOMAXPROCS, the usable CPUs): the rest queue, honouring their
// context. More would not finish sooner, only hold more memory: argon2id
// memory stays below that bound × 19 MiB (38 MiB on 2 cores) whatever the
// load, and the rate limits of the login endpoints bound the queue.
//
// # Unknown accounts
//
// A login for an email that has no account must take as long as a login with
// a wrong password, or the response time tells an attacker which emails are
// registered. [Hasher.DummyVerify] runs one full verification against a hash
// made at start-up with the current parameters; call it whenever there is no
// stored hash to verify against. Stored hashes with older, cheaper parameters
// are faster to verify until they are re-hashed at the next login.
//
// # Normalisation
//
// Passwords are normalised to Unicode NFKC before hashing and verifying
// (NIST SP 800-63B 5.1.1.2), so a password typed with a composed or a
// decomposed accent, or with full-width digits, is the same password.
// Normalisation never changes ASCII.
//
// # Policy
//
// [CheckPolicy] accepts 10 to 128 characters (Unicode code points, counted
// after normalisation) that are valid UTF-8 and not all white space. It has no
// composition rules and no forced rotation, as NIST recommends; length is what
// makes a password strong. Its errors are [*PolicyError] values naming the
// field, for a 400 VALIDATION_ERROR answer.
package password

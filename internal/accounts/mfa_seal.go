package accounts

import (
	"fmt"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/identity/totp"
)

// TOTP secrets at rest. mfa_factors.secret holds a sealed value (package
// identity/totp: AES-256-GCM, "totp1:<key id>:<base64url>", bound to the
// user id), never the secret. The key is Config.MFAKey (VENUE_MFA_KEY);
// without one it is derived from the code pepper (HKDF-SHA256), so a
// deployment that sets VENUE_CODE_PEPPER keeps working factors across
// restarts, and the embedded default (random pepper) behaves like its other
// per-process secrets. Rotation: set the new key as VENUE_MFA_KEY and the old
// one in VENUE_MFA_PREVIOUS_KEYS; each factor is sealed again with the new
// key the next time a code of it is accepted.
//
// Rows written before secrets were sealed hold the base32 secret itself: they
// stay readable and are sealed on their next accepted code (no migration
// step needs the key).

// newSealer builds the TOTP sealer of cfg (after New filled Pepper).
func newSealer(cfg Config) (*totp.Sealer, error) {
	key := cfg.MFAKey
	if key == nil {
		k, err := totp.DeriveKey(cfg.Pepper)
		if err != nil {
			return nil, fmt.Errorf("accounts: derive MFA key: %w", err)
		}
		key = k
	}
	s, err := totp.NewSealer(key, cfg.MFAPreviousKeys...)
	if err != nil {
		return nil, fmt.Errorf("accounts: MFA key: %w", err)
	}
	return s, nil
}

// openSecret returns the TOTP secret of factor f; stale is true when it
// should be sealed again. A value that does not open (a lost or unknown key,
// or tampering) is an internal error, never a wrong code.
func (s *Service) openSecret(f *ent.MFAFactor) (secret string, stale bool, err error) {
	secret, stale, err = s.sealer.Open(f.Secret, f.UserID.String())
	if err != nil {
		return "", false, fmt.Errorf("accounts: open TOTP secret of factor %s: %w", f.ID, err)
	}
	return secret, stale, nil
}

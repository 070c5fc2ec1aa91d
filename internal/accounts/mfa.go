package accounts

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/mfabackupcode"
	"github.com/venueplatform/venue/ent/mfafactor"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/identity/codes"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/identity/totp"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Second-factor settings and errors.
const (
	// TOTPIssuer is the service name authenticator apps show.
	TOTPIssuer = "Venue"
	// ChallengeTTL is how long an MFA challenge can be answered.
	ChallengeTTL = 5 * time.Minute
	// BackupCodesWarning goes with every new set of backup codes.
	BackupCodesWarning = "Store these codes somewhere safe. Each works once, they are shown only now, and generating new codes invalidates these."
	// PermissionMFAReset is the staff permission of the admin reset.
	PermissionMFAReset = "admin.users.manage"
)

var (
	// ErrMFANotEnabled is a challenge or backup codes without a confirmed factor.
	ErrMFANotEnabled = &apperr.Error{Status: http.StatusBadRequest, Code: "MFA_NOT_ENABLED", Message: "no confirmed second factor"}
	// ErrMFARequired is an operation that needs a session past the second factor.
	ErrMFARequired = &apperr.Error{Status: http.StatusForbidden, Code: "MFA_REQUIRED", Message: "verify the second factor first"}
)

// Enrollment is a new pending TOTP factor: the only time its secret leaves
// the server.
type Enrollment struct {
	FactorID   uuid.UUID
	Secret     string
	OTPAuthURL string
}

// userViewer returns the signed-in user of ctx.
func userViewer(ctx context.Context) (viewer.User, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return u, apperr.Unauthorized("a user session is required")
	}
	return u, nil
}

// MFAEnabled reports whether uid has a confirmed second factor.
func (s *Service) MFAEnabled(ctx context.Context, uid uuid.UUID) (bool, error) {
	return s.client.MFAFactor.Query().
		Where(mfafactor.UserID(uid), mfafactor.ConfirmedAtNotNil()).
		Exist(system.Allow(ctx, "mfa.status"))
}

// EnrollTOTP replaces the user's pending TOTP factor with a new one. A user
// with a confirmed factor must have passed it in this session within the
// step-up age (requireStepUp).
func (s *Service) EnrollTOTP(ctx context.Context) (*Enrollment, error) {
	v, err := userViewer(ctx)
	if err != nil {
		return nil, err
	}
	enabled, err := s.MFAEnabled(ctx, v.UserID)
	if err != nil {
		return nil, err
	}
	if enabled {
		if err := s.requireStepUp(ctx, v); err != nil {
			return nil, err
		}
	}
	sctx := system.Allow(ctx, "mfa.enroll")
	u, err := s.client.User.Get(sctx, v.UserID)
	if err != nil {
		return nil, err
	}
	secret := totp.GenerateSecret()
	url, err := totp.ProvisioningURI(secret, TOTPIssuer, u.Email)
	if err != nil {
		return nil, fmt.Errorf("provisioning uri: %w", err)
	}
	tx, err := s.client.Tx(sctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.MFAFactor.Delete().Where(mfafactor.UserID(v.UserID), mfafactor.ConfirmedAtIsNil()).Exec(sctx); err != nil {
		return nil, err
	}
	sealed, err := s.sealer.Seal(secret, v.UserID.String())
	if err != nil {
		return nil, fmt.Errorf("seal factor secret: %w", err)
	}
	f, err := tx.MFAFactor.Create().SetUserID(v.UserID).SetSecret(sealed).Save(sctx)
	if err != nil {
		return nil, fmt.Errorf("create factor: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return &Enrollment{FactorID: f.ID, Secret: secret, OTPAuthURL: url}, nil
}

// ConfirmTOTP activates the user's pending factor with its first code and
// marks the session as past the second factor.
func (s *Service) ConfirmTOTP(ctx context.Context, factorID uuid.UUID, code string) (*Session, error) {
	v, err := userViewer(ctx)
	if err != nil {
		return nil, err
	}
	return s.passFactor(ctx, v, func(tx *ent.Tx, sctx context.Context) error {
		f, err := tx.MFAFactor.Query().Where(mfafactor.ID(factorID), mfafactor.UserID(v.UserID),
			mfafactor.ConfirmedAtIsNil()).Only(sctx)
		if err != nil {
			return notFoundAsInvalid(err)
		}
		if err := s.spendTOTP(sctx, tx, f, code); err != nil {
			return err
		}
		return tx.MFAFactor.UpdateOne(f).SetConfirmedAt(s.now()).Exec(sctx)
	}, token.AMROTP)
}

// Challenge creates a TOTP challenge of the session.
func (s *Service) Challenge(ctx context.Context) (*ent.MFAChallenge, error) {
	v, err := userViewer(ctx)
	if err != nil {
		return nil, err
	}
	sctx := system.Allow(ctx, "mfa.challenge")
	f, err := s.client.MFAFactor.Query().Where(mfafactor.UserID(v.UserID), mfafactor.ConfirmedAtNotNil()).
		Order(ent.Desc(mfafactor.FieldConfirmedAt)).First(sctx)
	if ent.IsNotFound(err) {
		return nil, ErrMFANotEnabled
	}
	if err != nil {
		return nil, err
	}
	return s.client.MFAChallenge.Create().SetUserID(v.UserID).SetSessionID(v.SessionID).
		SetFactorID(f.ID).SetExpiresAt(s.now().Add(ChallengeTTL)).Save(sctx)
}

// requireStepUp is the check of the operations that change a user's second
// factor once one exists (a new TOTP factor, new backup codes): a session
// that never passed the factor is 403 MFA_REQUIRED; one that passed it more
// than viewer.DefaultStepUpAge ago is 403 STEP_UP_REQUIRED (required_step
// mfa_verify), so a stolen long-lived session cannot replace the factor or
// mint codes without a fresh TOTP or backup code.
func (s *Service) requireStepUp(ctx context.Context, v viewer.User) error {
	if !v.MFA {
		return ErrMFARequired
	}
	return RequireStepUp(ctx, s.now(), viewer.DefaultStepUpAge)
}

// BackupCodes replaces the user's backup codes with a new set and returns
// it: the only time the codes leave the server.
func (s *Service) BackupCodes(ctx context.Context) ([]string, error) {
	v, err := userViewer(ctx)
	if err != nil {
		return nil, err
	}
	enabled, err := s.MFAEnabled(ctx, v.UserID)
	if err != nil {
		return nil, err
	}
	if !enabled {
		return nil, ErrMFANotEnabled
	}
	if err := s.requireStepUp(ctx, v); err != nil {
		return nil, err
	}
	set := codes.NewBackupCodes()
	sctx := system.Allow(ctx, "mfa.backup_codes")
	tx, err := s.client.Tx(sctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.MFABackupCode.Delete().Where(mfabackupcode.UserID(v.UserID)).Exec(sctx); err != nil {
		return nil, err
	}
	bulk := make([]*ent.MFABackupCodeCreate, 0, len(set))
	for _, c := range set {
		h, err := s.codes.BackupCodeHash(v.UserID.String(), c)
		if err != nil {
			return nil, err
		}
		bulk = append(bulk, tx.MFABackupCode.Create().SetUserID(v.UserID).SetHash(h))
	}
	if err := tx.MFABackupCode.CreateBulk(bulk...).Exec(sctx); err != nil {
		return nil, fmt.Errorf("store backup codes: %w", err)
	}
	return set, tx.Commit()
}

// notFoundAsInvalid answers a missing factor, challenge or code like a wrong
// code.
func notFoundAsInvalid(err error) error {
	if ent.IsNotFound(err) {
		return ErrInvalidCode
	}
	return err
}

// flagMFA sets MFARequired on a new session of a user with a confirmed
// factor: its tokens lack the mfa claim until /auth/mfa/verify.
func (s *Service) flagMFA(ctx context.Context, sess *Session, err error) (*Session, error) {
	if err != nil {
		return nil, err
	}
	enabled, err := s.MFAEnabled(ctx, sess.User.ID)
	if err != nil {
		return nil, err
	}
	sess.MFARequired = enabled
	return sess, nil
}

package accounts

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/mfabackupcode"
	"github.com/venueplatform/venue/ent/mfachallenge"
	"github.com/venueplatform/venue/ent/mfafactor"
	"github.com/venueplatform/venue/ent/refreshtoken"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/identity/totp"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// VerifyParams is one of the three forms of /auth/mfa/verify: a TOTP code
// of a factor (FactorID), a backup code (Backup), or a TOTP code answering a
// challenge (ChallengeID).
type VerifyParams struct {
	FactorID    uuid.UUID
	ChallengeID uuid.UUID
	Backup      bool
	Code        string
}

// VerifyMFA checks a second factor of the signed-in user and marks the
// session as past it. Every refusal is ErrInvalidCode.
func (s *Service) VerifyMFA(ctx context.Context, p VerifyParams) (*Session, error) {
	v, err := userViewer(ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case p.Backup:
		return s.passFactor(ctx, v, func(tx *ent.Tx, sctx context.Context) error {
			return s.spendBackupCode(sctx, tx, v.UserID, p.Code)
		}, token.AMRBackup)
	case p.ChallengeID != uuid.Nil:
		return s.passFactor(ctx, v, func(tx *ent.Tx, sctx context.Context) error {
			now := s.now()
			n, err := tx.MFAChallenge.Update().Where(mfachallenge.ID(p.ChallengeID), mfachallenge.UserID(v.UserID),
				mfachallenge.SessionID(v.SessionID), mfachallenge.UsedAtIsNil(), mfachallenge.ExpiresAtGT(now)).
				SetUsedAt(now).Save(sctx)
			if err != nil {
				return err
			}
			if n == 0 {
				return ErrInvalidCode
			}
			ch, err := tx.MFAChallenge.Get(sctx, p.ChallengeID)
			if err != nil {
				return err
			}
			return s.spendFactorCode(sctx, tx, v.UserID, ch.FactorID, p.Code)
		}, token.AMROTP)
	default:
		return s.passFactor(ctx, v, func(tx *ent.Tx, sctx context.Context) error {
			return s.spendFactorCode(sctx, tx, v.UserID, p.FactorID, p.Code)
		}, token.AMROTP)
	}
}

// spendFactorCode accepts a code of the user's confirmed factor once.
func (s *Service) spendFactorCode(ctx context.Context, tx *ent.Tx, uid, factorID uuid.UUID, code string) error {
	f, err := tx.MFAFactor.Query().Where(mfafactor.ID(factorID), mfafactor.UserID(uid),
		mfafactor.ConfirmedAtNotNil()).Only(ctx)
	if err != nil {
		return notFoundAsInvalid(err)
	}
	return s.spendTOTP(ctx, tx, f, code)
}

// spendTOTP checks code against factor f and stores its step with the
// conditional update of package totp: a second request with the same code
// (or an older one) updates no row and is refused.
func (s *Service) spendTOTP(ctx context.Context, tx *ent.Tx, f *ent.MFAFactor, code string) error {
	secret, stale, err := s.openSecret(f)
	if err != nil {
		return err
	}
	step, err := totp.Verify(secret, code, s.now(), f.LastStep)
	if err != nil {
		if errors.Is(err, totp.ErrInvalidCode) {
			return ErrInvalidCode
		}
		return fmt.Errorf("totp: %w", err)
	}
	upd := tx.MFAFactor.Update().Where(mfafactor.ID(f.ID), mfafactor.LastStepLT(step)).SetLastStep(step)
	if stale {
		// A plaintext secret of an earlier version, or one sealed with a
		// previous key: sealed again with the current key as it is used.
		resealed, err := s.sealer.Seal(secret, f.UserID.String())
		if err != nil {
			return fmt.Errorf("reseal factor secret: %w", err)
		}
		upd.SetSecret(resealed)
	}
	n, err := upd.Save(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrInvalidCode
	}
	return nil
}

// spendBackupCode marks the user's unused backup code as used, in the
// statement that finds it.
func (s *Service) spendBackupCode(ctx context.Context, tx *ent.Tx, uid uuid.UUID, code string) error {
	h, err := s.codes.BackupCodeHash(uid.String(), code)
	if err != nil {
		return ErrInvalidCode
	}
	n, err := tx.MFABackupCode.Update().Where(mfabackupcode.UserID(uid), mfabackupcode.Hash(h),
		mfabackupcode.UsedAtIsNil()).SetUsedAt(s.now()).Save(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return ErrInvalidCode
	}
	return nil
}

// passFactor runs check in a transaction and, when it passes, marks the
// session as past the second factor (method added to its amr, with "mfa"),
// spends its refresh tokens and answers fresh tokens. A refused check
// changes nothing.
func (s *Service) passFactor(ctx context.Context, v viewer.User, check func(*ent.Tx, context.Context) error, method string) (*Session, error) {
	sctx := system.Allow(ctx, "mfa.verify")
	now := s.now()
	tx, err := s.client.Tx(sctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback() }()
	if err := check(tx, sctx); err != nil {
		return nil, err
	}
	sess, err := tx.Session.Get(sctx, v.SessionID)
	if err != nil {
		return nil, err
	}
	if sess.RevokedAt != nil || !now.Before(sess.ExpiresAt) || sess.UserID != v.UserID {
		return nil, apperr.Unauthorized("the session has ended")
	}
	amr := sess.Amr
	for _, m := range []string{method, token.AMRMFA} {
		if !slices.Contains(amr, m) {
			amr = append(amr, m)
		}
	}
	if sess, err = tx.Session.UpdateOne(sess).SetMfaAt(now).SetAmr(amr).SetLastUsedAt(now).Save(sctx); err != nil {
		return nil, err
	}
	if err := tx.RefreshToken.Update().Where(refreshtoken.SessionID(sess.ID), refreshtoken.UsedAtIsNil()).
		SetUsedAt(now).Exec(sctx); err != nil {
		return nil, err
	}
	rt := token.NewRefreshToken()
	if err := tx.RefreshToken.Create().SetSessionID(sess.ID).SetUserID(sess.UserID).SetLookup(rt.Lookup).
		SetHash(rt.Hash).SetExpiresAt(sess.ExpiresAt).Exec(sctx); err != nil {
		return nil, err
	}
	u, err := tx.User.Get(sctx, sess.UserID)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	return s.answer(sess, u, rt.Token)
}

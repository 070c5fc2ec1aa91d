package accounts

import (
	"context"
	"fmt"
	"slices"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/mfabackupcode"
	"github.com/venueplatform/venue/ent/mfachallenge"
	"github.com/venueplatform/venue/ent/mfafactor"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// Reasons of a refused admin reset (details.reason of the 403).
const (
	// ReasonResetPermission: the caller (or, for an API key, the staff
	// member who issued it) lacks admin.users.manage in the venue.
	ReasonResetPermission = "permission"
	// ReasonResetReadOnlyKey: an API key without any write scope; a
	// read-only integration never changes an account.
	ReasonResetReadOnlyKey = "read_only_key"
)

// ResetMFA removes the second factor of target, for a person with a
// relationship with the caller's venue (any other person is 404). The
// caller is either
//   - a staff session holding admin.users.manage in its active
//     organization, or
//   - an API key of the venue that can write (carries a write: scope) and
//     whose issuing staff member holds admin.users.manage there now: the
//     key acts with its issuer's authority, read at the time of the call,
//     so a revoked permission or a departed issuer disarms the key at once.
//
// Anyone else is 403 ACCESS_DENIED (reason permission, with
// details.required_permissions, or read_only_key). The reset is audited in
// the venue with the caller as actor.
func (s *Service) ResetMFA(ctx context.Context, target uuid.UUID) error {
	org, err := s.resetAuthority(ctx)
	if err != nil {
		return err
	}
	sctx := system.Allow(ctx, "mfa.reset")
	related, err := s.client.Member.Query().Where(member.OrganizationID(org), member.UserID(target)).Exist(sctx)
	if err != nil {
		return err
	}
	if !related {
		return apperr.NotFound("user")
	}
	tx, err := s.client.Tx(sctx)
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	if _, err := tx.MFAFactor.Delete().Where(mfafactor.UserID(target)).Exec(sctx); err != nil {
		return err
	}
	if _, err := tx.MFABackupCode.Delete().Where(mfabackupcode.UserID(target)).Exec(sctx); err != nil {
		return err
	}
	if _, err := tx.MFAChallenge.Delete().Where(mfachallenge.UserID(target)).Exec(sctx); err != nil {
		return err
	}
	if _, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: "mfa.reset", Target: "user:" + target.String(), UserID: &target}); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return tx.Commit()
}

// resetAuthority returns the venue in which the caller of ctx may reset a
// second factor, or the refusal.
func (s *Service) resetAuthority(ctx context.Context) (uuid.UUID, error) {
	denied := func() error {
		return apperr.AccessDenied(ReasonResetPermission, "needs the "+PermissionMFAReset+" permission in the venue").
			With("required_permissions", []string{PermissionMFAReset})
	}
	switch v := viewer.FromContext(ctx).(type) {
	case viewer.User:
		if !v.HasPermission(PermissionMFAReset) {
			return uuid.Nil, denied()
		}
		return v.Org, nil
	case viewer.APIKey:
		if v.ReadOnly() {
			return uuid.Nil, apperr.AccessDenied(ReasonResetReadOnlyKey, "a read-only API key cannot reset a second factor")
		}
		if v.CreatedBy == nil || v.Org == uuid.Nil {
			return uuid.Nil, denied()
		}
		// System call site: the key's issuer is read in the key's own venue
		// to learn what authority the key carries.
		m, err := s.client.Member.Query().Where(member.OrganizationID(v.Org), member.UserID(*v.CreatedBy),
			member.StatusEQ(member.StatusActive)).Only(system.Allow(ctx, "mfa.reset.key_issuer"))
		if ent.IsNotFound(err) {
			return uuid.Nil, denied()
		}
		if err != nil {
			return uuid.Nil, err
		}
		if m.Role != member.RoleOwner && (m.Role != member.RoleStaff || !slices.Contains(m.Permissions, PermissionMFAReset)) {
			return uuid.Nil, denied()
		}
		return v.Org, nil
	default:
		return uuid.Nil, apperr.Unauthorized("a staff session or an API key is required")
	}
}

package pos

import (
	"context"
	"regexp"
	"slices"
	"sync"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/staffpin"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/identity/password"
)

// pinPattern is a kiosk PIN: 4 to 8 digits.
var pinPattern = regexp.MustCompile(`^[0-9]{4,8}$`)

// pinHasher hashes kiosk PINs with the service's password parameters.
var pinHasher = sync.OnceValues(func() (*password.Hasher, error) {
	return password.NewHasher(password.DefaultParams, 0)
})

// SetPin sets the calling staff member's own kiosk PIN at the venue
// (replacing an earlier one). Needs pos.access.
func (s *Service) SetPin(ctx context.Context, pin string) error {
	u, err := Staff(ctx, false, PermAccess)
	if err != nil {
		return err
	}
	if !pinPattern.MatchString(pin) {
		return apperr.Validation("pin", "4 to 8 digits")
	}
	h, err := pinHasher()
	if err != nil {
		return err
	}
	enc, err := h.Hash(ctx, pin)
	if err != nil {
		return err
	}
	return s.client.StaffPin.Create().SetUserID(u.UserID).SetPinHash(enc).
		OnConflictColumns(staffpin.FieldOrganizationID, staffpin.FieldUserID).UpdatePinHash().Exec(ctx)
}

// CheckPin reports whether pin is the kiosk PIN of staff member staffID at
// the venue, who must still hold pos.access there. An unknown staff member,
// one without a PIN or without the permission, and a wrong PIN are all
// "not valid" after the same argon2id work: the answer never tells which
// part was wrong. Needs pos.access; the face rate-limits it.
func (s *Service) CheckPin(ctx context.Context, staffID uuid.UUID, pin string) (bool, error) {
	if _, err := Staff(ctx, false, PermAccess); err != nil {
		return false, err
	}
	h, err := pinHasher()
	if err != nil {
		return false, err
	}
	row, err := s.client.StaffPin.Query().Where(staffpin.UserID(staffID)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return false, err
	}
	m, merr := s.client.Member.Query().Where(member.UserID(staffID), member.StatusEQ(member.StatusActive),
		member.RoleIn(member.RoleStaff, member.RoleOwner)).Only(ctx)
	if merr != nil && !ent.IsNotFound(merr) {
		return false, merr
	}
	allowed := merr == nil && (m.Role == member.RoleOwner || slices.Contains(m.Permissions, PermAccess))
	if row == nil || !pinPattern.MatchString(pin) {
		_ = h.DummyVerify(ctx, pin)
		return false, ctx.Err()
	}
	if err := h.Verify(ctx, pin, row.PinHash); err != nil {
		if err == password.ErrMismatch {
			return false, nil
		}
		return false, err
	}
	return allowed, nil
}

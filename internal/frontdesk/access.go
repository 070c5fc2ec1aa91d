package frontdesk

import (
	"context"
	"slices"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/viewer"
)

// Access is what an operation does, for Authorize.
type Access int

// The accesses of the front desk.
const (
	AccessRead Access = iota
	AccessReadAttendance
	AccessCheckIn
	AccessCorrect
	AccessReassign
	AccessContact
)

// Staff permissions of the front desk.
const (
	PermCheckIn       = "booking.checkin"
	PermManage        = "bookings.manage"
	PermMarkNoShow    = "bookings.mark_no_show"
	PermContact       = "members.contact"
	PermNotifySend    = notify.PermissionSend
	ReasonPermission  = "permission"
	ReasonNoWorkspace = "no_active_organization"
)

// requirement returns the permissions an access needs: any one of them, or all when all.
func (a Access) requirement() (perms []string, all bool) {
	switch a {
	case AccessRead, AccessCheckIn:
		return []string{PermCheckIn, PermManage}, false
	case AccessCorrect, AccessReadAttendance:
		return []string{PermMarkNoShow, PermCheckIn, PermManage}, false
	case AccessReassign:
		return []string{PermManage}, false
	default:
		return []string{PermContact, PermNotifySend}, true
	}
}

// Authorize checks the caller for a: API keys read (their scope was checked by the security
// handler) and never write; staff sessions need the access's permissions in their active
// venue; venue operators may do everything.
func Authorize(ctx context.Context, a Access) error {
	switch v := viewer.FromContext(ctx).(type) {
	case viewer.APIKey:
		if a == AccessRead || a == AccessReadAttendance {
			return nil
		}
		return apperr.JWTOnly()
	case viewer.User:
		if v.Org == uuid.Nil {
			return apperr.AccessDenied(ReasonNoWorkspace, "choose an active organization first")
		}
		perms, all := a.requirement()
		held := slices.ContainsFunc(perms, v.HasPermission)
		if all {
			held = !slices.ContainsFunc(perms, func(p string) bool { return !v.HasPermission(p) })
		}
		if !held {
			return apperr.AccessDenied(ReasonPermission, "a staff permission is missing").With("required_permissions", perms)
		}
		return nil
	case viewer.Operator:
		return nil
	}
	return apperr.Unauthorized("staff credentials are required")
}

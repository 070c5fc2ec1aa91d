package schedule

import (
	"github.com/google/uuid"

	"context"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/viewer"
)

// Staff permissions the schedule checks.
const (
	PermViewAll       = "schedule.view_all"
	PermManage        = "scheduling.manage"
	PermManageHistory = "scheduling.manage_history"
	PermClassCancel   = "class.cancel"
	PermNotify        = notify.PermissionSend
)

// Access is what an operation needs of its caller.
type Access int

// The kinds of access of the schedule's operations.
const (
	// AccessRead: an API key (its scope is checked by the security handler) or
	// staff holding schedule.view_all or scheduling.manage.
	AccessRead Access = iota
	// AccessWrite: an API key with write:schedule, or staff holding scheduling.manage.
	AccessWrite
	// AccessCancel: an API key with write:schedule, or staff holding class.cancel or
	// scheduling.manage.
	AccessCancel
	// AccessHistory: staff holding scheduling.manage_history and scheduling.manage;
	// no API key (the operation is JWT-only: x-jwt-only in its fragment).
	AccessHistory
)

// requirement lists the permissions of a kind of access and whether any one
// of them (or all) is needed.
func (a Access) requirement() (perms []string, all bool) {
	switch a {
	case AccessWrite:
		return []string{PermManage}, false
	case AccessCancel:
		return []string{PermClassCancel, PermManage}, false
	case AccessHistory:
		return []string{PermManageHistory, PermManage}, true
	default:
		return []string{PermViewAll, PermManage}, false
	}
}

// Authorize checks that the caller of ctx may perform an operation needing a.
// API keys passed their scope check in the security handler; staff sessions
// need an active organization and the permissions of a.
func Authorize(ctx context.Context, a Access) error {
	switch v := viewer.FromContext(ctx).(type) {
	case viewer.APIKey:
		if a == AccessHistory {
			// The operation is x-jwt-only: the security handler refuses keys
			// before this runs. Kept so a key can never correct history.
			return apperr.JWTOnly()
		}
		return nil
	case viewer.User:
		if v.Org == uuid.Nil {
			return apperr.AccessDenied(ReasonNoOrganization, "choose an active organization first")
		}
		perms, all := a.requirement()
		if !holds(v, perms, all) {
			return MissingPermission(perms, all)
		}
		return nil
	case viewer.Operator:
		return nil
	default:
		return apperr.Unauthorized("staff credentials are required")
	}
}

// CanSeeHistory reports whether the caller may list historical classes:
// staff (or operators) holding scheduling.manage_history. API keys cannot.
func CanSeeHistory(ctx context.Context) bool {
	switch v := viewer.FromContext(ctx).(type) {
	case viewer.User:
		return v.HasPermission(PermManageHistory)
	case viewer.Operator:
		return true
	}
	return false
}

// RequireHistory refuses a caller that may not see historical classes.
func RequireHistory(ctx context.Context) error {
	if CanSeeHistory(ctx) {
		return nil
	}
	if _, ok := viewer.FromContext(ctx).(viewer.APIKey); ok {
		return apperr.AccessDenied(ReasonStaffSession, "historical classes need a staff session holding "+PermManageHistory).
			With("required_permissions", []string{PermManageHistory})
	}
	return MissingPermission([]string{PermManageHistory}, true)
}

// MissingPermission is the 403 of a staff session lacking permissions: with
// all, every one of perms is needed, else any one.
func MissingPermission(perms []string, all bool) *apperr.Error {
	msg := "a required staff permission is missing"
	e := apperr.AccessDenied(ReasonPermission, msg).With("required_permissions", perms)
	if !all && len(perms) > 1 {
		e = e.With("any_of", true)
	}
	return e
}

func holds(u viewer.User, perms []string, all bool) bool {
	for _, p := range perms {
		has := u.HasPermission(p)
		if all && !has {
			return false
		}
		if !all && has {
			return true
		}
	}
	return all
}

package appointments

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/viewer"
)

// Staff permissions of the appointment operations (the contract's names).
const (
	PermBookingsManage   = "bookings.manage"
	PermSettingsBusiness = "settings.business"
	PermStaffView        = "staff.view"
	PermLocationsManage  = "locations.manage"
)

// Authorize admits staff of the viewer's venue holding perm (owners hold
// every permission) and the venue's operator (the CLI, tests). API keys are
// refused: the staff appointment operations are for staff sessions only.
func Authorize(ctx context.Context, perm string) error {
	switch v := viewer.FromContext(ctx).(type) {
	case viewer.User:
		if v.Org == uuid.Nil {
			return apperr.AccessDenied("no_organization", "choose an active organization first")
		}
		if !v.HasPermission(perm) {
			return apperr.AccessDenied("missing_permission", "a required staff permission is missing").
				With("required_permissions", []string{perm})
		}
		return nil
	case viewer.Operator:
		return nil
	case viewer.APIKey:
		return apperr.JWTOnly()
	default:
		return apperr.Unauthorized("staff credentials are required")
	}
}

// AuthorizeAny is Authorize for an operation any one of perms admits.
func AuthorizeAny(ctx context.Context, perms ...string) error {
	var err error
	for _, p := range perms {
		if err = Authorize(ctx, p); err == nil {
			return nil
		}
	}
	if u, ok := viewer.FromContext(ctx).(viewer.User); ok && u.Org != uuid.Nil {
		return apperr.AccessDenied("missing_permission", "a required staff permission is missing").
			With("required_permissions", perms)
	}
	return err
}

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

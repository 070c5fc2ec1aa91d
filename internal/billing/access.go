package billing

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/viewer"
)

// Staff permissions of the billing desk.
const (
	PermPassesManage  = "passes.manage"
	PermViewInsights  = "members.view_insights"
	reasonPermission  = "permission"
	reasonNoWorkspace = "no_active_organization"
)

// Authorize admits a staff bearer token holding perm (owners hold every
// permission) or the venue's operator; API keys are refused (jwt only).
func Authorize(ctx context.Context, perm string) error {
	switch v := viewer.FromContext(ctx).(type) {
	case viewer.APIKey:
		return apperr.JWTOnly()
	case viewer.User:
		if v.Org == uuid.Nil {
			return apperr.AccessDenied(reasonNoWorkspace, "choose an active organization first")
		}
		if !v.HasPermission(perm) {
			return apperr.AccessDenied(reasonPermission, "a staff permission is missing").With("required_permissions", []string{perm})
		}
		return nil
	case viewer.Operator:
		return nil
	}
	return apperr.Unauthorized("staff credentials are required")
}

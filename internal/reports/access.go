package reports

import (
	"context"
	"slices"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/viewer"
)

// Staff permissions of the reports.
const (
	PermView     = "reports.view"
	PermClasses  = "reports.classes"
	PermInsights = "members.view_insights"
)

// Reasons of the 403 answers.
const (
	ReasonPermission  = "permission"
	ReasonNoWorkspace = "no_active_organization"
)

// Authorize checks the caller may read a report that needs every one of
// perms: API keys read (their read:reports scope is checked by the face that
// admits them); staff sessions need all of perms in their active venue; venue
// operators may read everything.
func Authorize(ctx context.Context, perms ...string) error {
	switch v := viewer.FromContext(ctx).(type) {
	case viewer.APIKey:
		return nil
	case viewer.User:
		if v.Org == uuid.Nil {
			return apperr.AccessDenied(ReasonNoWorkspace, "choose an active organization first")
		}
		if slices.ContainsFunc(perms, func(p string) bool { return !v.HasPermission(p) }) {
			return apperr.AccessDenied(ReasonPermission, "a staff permission is missing").With("required_permissions", perms)
		}
		return nil
	case viewer.Operator:
		return nil
	}
	return apperr.Unauthorized("staff credentials are required")
}

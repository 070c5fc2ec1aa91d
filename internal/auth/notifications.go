package auth

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/viewer"
)

// PermissionNotificationsSend is the staff permission that sending client
// notifications needs.
const PermissionNotificationsSend = "notifications.send"

// Reasons of RequireNotificationSender refusals (details.reason).
const (
	// ReasonNotifyNeedsStaffSession: the caller is not a staff bearer
	// session (an API key, a public caller, or a user outside any workspace).
	ReasonNotifyNeedsStaffSession = "notifications_need_staff_session"
	// ReasonPermission: the staff member lacks the permission
	// (details.required_permissions names it).
	ReasonPermission = "permission"
)

// RequireNotificationSender is the one check every operation calls before it
// sends a client notification (email, SMS or push) on a staff action. The
// contract: API keys can never send client notifications; sending needs a
// staff JWT holding notifications.send. It returns nil for a user session
// acting in a venue (its active organization) where it holds
// notifications.send (owners hold every permission); otherwise a 403
// ACCESS_DENIED: reason notifications_need_staff_session for an API key or
// any caller without a staff workspace, reason permission with
// details.required_permissions ["notifications.send"] for staff without it.
//
// Call it only when the request asks to notify (silent by default: omitting
// the notification controls sends nothing and needs nothing), before any
// change is made, so a refused request changes nothing:
//
//	if req.Notify.Set {
//		if err := auth.RequireNotificationSender(ctx); err != nil {
//			return nil, err
//		}
//	}
func RequireNotificationSender(ctx context.Context) error {
	u, ok := viewer.UserFromContext(ctx)
	if !ok || u.Org == uuid.Nil {
		return apperr.AccessDenied(ReasonNotifyNeedsStaffSession, "sending notifications needs a staff session's bearer token")
	}
	if !u.HasPermission(PermissionNotificationsSend) {
		return apperr.AccessDenied(ReasonPermission, "sending notifications needs the notifications.send permission").
			With("required_permissions", []string{PermissionNotificationsSend})
	}
	return nil
}

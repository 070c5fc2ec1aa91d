package notify_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/viewer"
)

// TestAuthorize: only a staff session holding notifications.send in its
// active venue may send; the viewer alone decides, whatever the face.
func TestAuthorize(t *testing.T) {
	org := uuid.New()
	refused := func(v viewer.Viewer, reason string) {
		t.Helper()
		ctx := context.Background()
		if v != nil {
			ctx = viewer.NewContext(ctx, v)
		}
		err := notify.Authorize(ctx)
		var e *apperr.Error
		require.True(t, errors.As(err, &e), "%v", err)
		require.Equal(t, http.StatusForbidden, e.Status)
		require.Equal(t, apperr.CodeAccessDenied, e.Code)
		require.Equal(t, reason, e.Details["reason"])
	}
	// API keys never send, whatever their scopes.
	refused(viewer.APIKey{Org: org, KeyID: uuid.New(), Scopes: []string{"write:schedule", "write:marketing"}}, notify.ReasonNeedsStaffSession)
	refused(nil, notify.ReasonNeedsStaffSession)
	refused(viewer.Operator{Org: org}, notify.ReasonNeedsStaffSession)
	// A signed-in member outside any workspace.
	refused(viewer.User{UserID: uuid.New()}, notify.ReasonNeedsStaffSession)
	// Staff without the permission: named in details.
	staff := viewer.User{UserID: uuid.New(), Org: org, Role: "staff", Permissions: []string{"bookings.manage"}}
	refused(staff, notify.ReasonPermission)
	err := notify.Authorize(viewer.NewContext(context.Background(), staff))
	var e *apperr.Error
	require.True(t, errors.As(err, &e))
	require.Equal(t, []string{notify.PermissionSend}, e.Details["required_permissions"])
	// Staff with it, and owners, may send.
	staff.Permissions = append(staff.Permissions, notify.PermissionSend)
	require.NoError(t, notify.Authorize(viewer.NewContext(context.Background(), staff)))
	owner := viewer.User{UserID: uuid.New(), Org: org, Role: "owner"}
	require.NoError(t, notify.Authorize(viewer.NewContext(context.Background(), owner)))
}

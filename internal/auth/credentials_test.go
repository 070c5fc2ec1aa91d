package auth

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestParseOperationsReadsSecurityAndJWTOnly(t *testing.T) {
	doc := []byte(`{"security":[{"ApiKeyAuth":[]}],"paths":{
		"/a":{"get":{"operationId":"readA"},"post":{"operationId":"writeA","security":[{"BearerAuth":[]},{"ApiKeyAuth":["write:x"]}],"x-jwt-only":true}},
		"/b":{"parameters":[],"get":{"operationId":"publicB","security":[]}}}}`)
	schemes, marked, paths, err := parseOperations(doc)
	require.NoError(t, err)
	require.Equal(t, "/a", paths[opKey("writeA")])
	require.Equal(t, []string{"ApiKeyAuth"}, schemes[opKey("readA")], "the document's security applies")
	require.Equal(t, []string{"ApiKeyAuth", "BearerAuth"}, schemes[opKey("writeA")])
	require.Empty(t, schemes[opKey("publicB")])
	require.Equal(t, map[string]bool{opKey("writeA"): true}, marked)
	require.Equal(t, opKey("authMfaReset"), opKey("AuthMfaReset"), "ids and generated names meet")
}

func TestRegistryOverTheBundledDocument(t *testing.T) {
	require.NoError(t, OperationsLoaded())
	require.False(t, JWTOnly("authMfaReset"), "the contract's admin reset takes a bearer token or an API key")
	require.True(t, JWTOnly("checkInAdminBooking"), "x-jwt-only of a staff fragment")
	require.True(t, JWTOnly("CheckInAdminBooking"), "ids and generated names meet")
	require.False(t, JWTOnly("getVenueSchedule"))
	require.True(t, JWTOnly("createVenueInquiry"), "x-jwt-only of a spec fragment reaches the registry through the bundle")
	require.True(t, Authenticates("getMe"))
	require.True(t, Authenticates("getVenueSchedule"), "public or API key: a key is authenticated")
	require.False(t, Authenticates("authLogin"))
	require.True(t, StaffOperation("listAdminSchedule"))
	require.True(t, StaffOperation("getCalendar"))
	require.True(t, StaffOperation("authMfaReset"))
	require.False(t, StaffOperation("getMe"))
	require.False(t, StaffOperation("createBooking"))

	both := http.Header{}
	both.Set(HeaderAPIKey, "vk_x")
	both.Set(HeaderAuthorization, "Bearer x")
	err := CheckCredentials("getMe", both)
	var e *apperr.Error
	require.True(t, errors.As(err, &e))
	require.Equal(t, http.StatusUnauthorized, e.Status)
	require.Equal(t, ReasonMixedCredentials, e.Details["reason"])
	require.NoError(t, CheckCredentials("authLogin", both), "an operation that authenticates nobody ignores credentials")
	one := http.Header{}
	one.Set(HeaderAuthorization, "Bearer x")
	require.NoError(t, CheckCredentials("getMe", one))
}

func TestRequireNotificationSender(t *testing.T) {
	org := uuid.New()
	refused := func(v viewer.Viewer, reason string) {
		t.Helper()
		ctx := context.Background()
		if v != nil {
			ctx = viewer.NewContext(ctx, v)
		}
		err := RequireNotificationSender(ctx)
		var e *apperr.Error
		require.True(t, errors.As(err, &e), "%v", err)
		require.Equal(t, http.StatusForbidden, e.Status)
		require.Equal(t, apperr.CodeAccessDenied, e.Code)
		require.Equal(t, reason, e.Details["reason"])
	}
	// API keys never send, whatever their scopes.
	refused(viewer.APIKey{Org: org, KeyID: uuid.New(), Scopes: []string{"write:schedule", "write:marketing"}}, ReasonNotifyNeedsStaffSession)
	refused(nil, ReasonNotifyNeedsStaffSession)
	refused(viewer.Operator{Org: org}, ReasonNotifyNeedsStaffSession)
	// A signed-in member outside any workspace.
	refused(viewer.User{UserID: uuid.New()}, ReasonNotifyNeedsStaffSession)
	// Staff without the permission: named in details.
	staff := viewer.User{UserID: uuid.New(), Org: org, Role: "staff", Permissions: []string{"bookings.manage"}}
	refused(staff, ReasonPermission)
	err := RequireNotificationSender(viewer.NewContext(context.Background(), staff))
	var e *apperr.Error
	require.True(t, errors.As(err, &e))
	require.Equal(t, []string{PermissionNotificationsSend}, e.Details["required_permissions"])
	// Staff with it, and owners, may send.
	staff.Permissions = append(staff.Permissions, PermissionNotificationsSend)
	require.NoError(t, RequireNotificationSender(viewer.NewContext(context.Background(), staff)))
	owner := viewer.User{UserID: uuid.New(), Org: org, Role: "owner"}
	require.NoError(t, RequireNotificationSender(viewer.NewContext(context.Background(), owner)))
}

func TestRequireStepUp(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	check := func(v viewer.Viewer) error {
		return RequireStepUp(viewer.NewContext(context.Background(), v), now, 0)
	}
	require.NoError(t, check(viewer.User{UserID: uuid.New(), MFA: true, StepUpAt: now.Add(-5 * time.Minute)}))
	for _, v := range []viewer.Viewer{
		viewer.User{UserID: uuid.New(), MFA: true, StepUpAt: now.Add(-11 * time.Minute)}, // too old
		viewer.User{UserID: uuid.New()},                   // never passed a factor
		viewer.APIKey{Org: uuid.New(), KeyID: uuid.New()}, // cannot step up
	} {
		err := check(v)
		var e *apperr.Error
		require.True(t, errors.As(err, &e), "%T", v)
		require.Equal(t, http.StatusForbidden, e.Status)
		require.Equal(t, CodeStepUpRequired, e.Code)
		require.Equal(t, "mfa_verify", e.Details["required_step"])
	}
}

package auth_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/auth"
	"github.com/venueplatform/venue/internal/frontdesk"
	"github.com/venueplatform/venue/internal/gen/openapi"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/schedule"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/webhooks/manage"
)

// The contract's lists, verbatim: the registry must hold exactly these.
var (
	contractScopes = []string{
		"read:schedule", "read:members", "read:bookings", "read:passes", "read:reports",
		"read:operations", "read:pricing", "read:classes", "read:instructors", "read:locations",
		"read:brands", "read:calendar", "write:schedule", "write:passes", "write:marketing",
	}
	contractPermissions = []string{
		"bookings.manage", "settings.business", "settings.membership", "passes.manage",
		"billing.manage", "billing.refunds.same_day", "billing.refunds.full", "members.contact",
		"members.view_insights", "pos.access", "pos.sell", "pos.manage",
		"products.manage_inventory", "class.create", "class.cancel", "booking.checkin",
		"booking.cancel_member", "bookings.mark_no_show", "scheduling.manage",
		"scheduling.manage_history", "schedule.view_all", "notifications.send", "staff.view",
		"staff.edit", "locations.manage", "sites.view", "sites.manage", "sites.publish",
		"reports.view", "reports.classes", "feedback.view", "gift_cards.sell",
		"marketing.flash_sales", "marketing.campaigns", "admin.users.manage",
		"loyalty_price.grant", "rates.view",
		// The Appointments paragraph names the historical command's permission.
		"appointments.manage_history",
	}
)

// TestRegistryHoldsTheContractLists: 15 API-key scopes and 38 staff
// permissions, each once, nothing else.
func TestRegistryHoldsTheContractLists(t *testing.T) {
	require.Len(t, contractScopes, 15)
	require.Len(t, contractPermissions, 38)
	require.ElementsMatch(t, contractScopes, scope.All)
	require.ElementsMatch(t, contractPermissions, scope.Permissions)
	require.Len(t, slices.Compact(slices.Sorted(slices.Values(scope.All))), 15, "no duplicate scope")
	require.Len(t, slices.Compact(slices.Sorted(slices.Values(scope.Permissions))), 38, "no duplicate permission")
	for _, s := range contractScopes {
		require.True(t, scope.Valid(s), s)
	}
	require.False(t, scope.Valid("admin:everything"))
	_, err := scope.ParsePermissions("bookings.manage,root")
	require.Error(t, err, "venuectl refuses a permission the registry lacks")
}

// TestOpenAPISecurityUsesTheRegistry: every scope an operation of the
// published document asks of an API key is a registry scope, so the
// security handler (which compares a key's scopes with the requirement)
// and the document cannot drift apart.
func TestOpenAPISecurityUsesTheRegistry(t *testing.T) {
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(openapi.JSON, &doc))
	used := 0
	for path, item := range doc.Paths {
		for method, raw := range item {
			var op struct {
				OperationID string                `json:"operationId"`
				Security    []map[string][]string `json:"security"`
			}
			if json.Unmarshal(raw, &op) != nil || op.OperationID == "" {
				continue
			}
			for _, req := range op.Security {
				for scheme, scopes := range req {
					if scheme != auth.SchemeAPIKey {
						require.Empty(t, scopes, "%s %s: only API keys carry scopes", method, path)
						continue
					}
					for _, s := range scopes {
						require.True(t, scope.Valid(s), "%s %s asks for %q, not a registry scope", method, path, s)
						used++
					}
				}
			}
		}
	}
	require.Positive(t, used)
}

// TestPermissionChecksUseTheRegistry: the staff permissions the REST
// handlers check are registry permissions (a typo would make an operation
// impossible for staff and open only to owners).
func TestPermissionChecksUseTheRegistry(t *testing.T) {
	for _, p := range []string{
		accounts.PermissionMFAReset, notify.PermissionSend,
		schedule.PermViewAll, schedule.PermManage, schedule.PermManageHistory,
		schedule.PermClassCancel, schedule.PermNotify,
		frontdesk.PermCheckIn, frontdesk.PermManage, frontdesk.PermMarkNoShow, frontdesk.PermContact,
		frontdesk.PermNotifySend, manage.PermissionManage,
	} {
		require.Contains(t, scope.Permissions, p)
	}
}

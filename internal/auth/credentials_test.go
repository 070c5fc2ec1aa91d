package auth

import (
	"errors"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
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

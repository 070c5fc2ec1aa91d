package handlers_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestStaffPowersNeedTheSecondFactor: once a staff member has a second
// factor, a session that signed in with the password only is refused staff
// operations with 403 MFA_REQUIRED (and nothing else of theirs changes);
// after the second factor the same operations answer.
func TestStaffPowersNeedTheSecondFactor(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	s := e.signup(t, "boss@example.com", goodPassword)
	enroll(t, e, e.op, "boss@example.com", "staff", "schedule.view_all")
	inVenue := func(c *api.Client) *api.Client {
		t.Helper()
		_, err := c.SetActiveOrganization(ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
		require.NoError(t, err)
		return c
	}
	c := inVenue(e.client(t, s.AccessToken))
	_, err := c.ListAdminSchedule(ctx, api.ListAdminScheduleParams{})
	require.NoError(t, err, "without a factor the password is enough")

	_, _, passed := enrolTOTP(t, c)
	withFactor := inVenue(e.client(t, passed.AccessToken))
	_, err = withFactor.ListAdminSchedule(ctx, api.ListAdminScheduleParams{})
	require.NoError(t, err, "a session past the second factor")

	pw := e.login(t, "boss@example.com")
	require.True(t, pw.MfaRequired)
	only := inVenue(e.client(t, pw.AccessToken))
	_, err = only.ListAdminSchedule(ctx, api.ListAdminScheduleParams{})
	requireCode(t, err, http.StatusForbidden, "MFA_REQUIRED")
	_, err = only.GetCalendar(ctx, api.GetCalendarParams{})
	requireCode(t, err, http.StatusForbidden, "MFA_REQUIRED")
	me, err := only.GetMe(ctx)
	require.NoError(t, err, "the person's own operations go on")
	require.True(t, me.Data.MfaEnabled)
}

package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/accounts"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestMFAStepUp: changing a second factor that exists (new backup codes, a
// new TOTP factor) needs a second-factor check within the last 10 minutes.
// An older one is 403 STEP_UP_REQUIRED and changes nothing; verifying again
// restores access.
func TestMFAStepUp(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	s := e.signup(t, "ana@example.com", goodPassword)
	_, secret, stepped := enrolTOTP(t, e.client(t, s.AccessToken))
	first, err := e.client(t, stepped.AccessToken).AuthMfaBackupCodes(ctx)
	require.NoError(t, err, "a check just passed")

	// The session passed its factor 11 minutes ago; a refreshed token carries
	// that time.
	_, err = e.studio.pool.Exec(ctx, `UPDATE sessions SET mfa_at = now() - interval '11 minutes' WHERE id = $1`, stepped.SessionID)
	require.NoError(t, err)
	old, err := e.client(t, "").AuthRefresh(ctx, &api.RefreshRequest{RefreshToken: stepped.RefreshToken})
	require.NoError(t, err)
	_, claims := jwtParts(t, old.Data.AccessToken)
	require.Equal(t, true, claims["mfa"])
	oc := e.client(t, old.Data.AccessToken)

	stale := func(err error) {
		t.Helper()
		es := errorOf(t, err)
		require.Equal(t, http.StatusForbidden, es.StatusCode)
		require.Equal(t, accounts.CodeStepUpRequired, es.Response.Error.Code)
		require.JSONEq(t, `"mfa_verify"`, string(es.Response.Error.Details.AdditionalProps["required_step"]))
		require.JSONEq(t, `600`, string(es.Response.Error.Details.AdditionalProps["max_age_seconds"]))
	}
	_, err = oc.AuthMfaBackupCodes(ctx)
	stale(err)
	_, err = oc.AuthMfaTotpEnroll(ctx)
	stale(err)
	// Nothing changed: the first set still works (spent by a fresh login).
	l := e.login(t, "ana@example.com")
	_, err = e.client(t, l.AccessToken).AuthMfaVerify(ctx, &api.MfaVerifyRequest{
		Type: api.NewOptMfaVerifyRequestType(api.MfaVerifyRequestTypeBackupCode), Code: first.Data.BackupCodes[0]})
	require.NoError(t, err, "the refused regeneration kept the old codes")

	// Stepping up again (challenge and a TOTP code) restores access.
	ch, err := oc.AuthMfaChallenge(ctx)
	require.NoError(t, err)
	v, err := oc.AuthMfaVerify(ctx, &api.MfaVerifyRequest{ChallengeID: api.NewOptUUID(ch.Data.ID),
		Code: totpCode(t, secret, 30*time.Second)})
	require.NoError(t, err)
	_, claims = jwtParts(t, v.Data.AccessToken)
	require.InDelta(t, float64(time.Now().Unix()), claims["stepup_at"], 60)
	again, err := e.client(t, v.Data.AccessToken).AuthMfaBackupCodes(ctx)
	require.NoError(t, err)
	require.Equal(t, 10, again.Data.Count)
}

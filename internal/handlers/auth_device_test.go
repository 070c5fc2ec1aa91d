package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/identity/codes"
)

// TestDeviceFlow: mint, pending polls, approval with a sloppily typed code,
// the session returned exactly once, denial and expiry.
func TestDeviceFlow(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	a := e.signup(t, "ana@example.com", goodPassword)
	ac := e.client(t, a.AccessToken)
	tv := e.client(t, "")

	d, err := tv.AuthDeviceCode(ctx)
	require.NoError(t, err)
	require.Regexp(t, `^[A-Za-z0-9_-]{43}$`, d.Data.DeviceCode)
	require.Regexp(t, `^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$`, d.Data.UserCode)
	require.Equal(t, 600, d.Data.ExpiresIn)
	require.Equal(t, 5, d.Data.Interval)
	require.NotEmpty(t, d.Data.VerificationURI)

	poll := func(code string) (*api.SessionResponse, error) {
		return tv.AuthDeviceToken(ctx, &api.DeviceTokenRequest{DeviceCode: code})
	}
	_, err = poll(d.Data.DeviceCode)
	requireCode(t, err, http.StatusBadRequest, "AUTHORIZATION_PENDING")
	_, err = poll(codes.NewDeviceCode())
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	_, err = poll("not a code")
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	typed := " " + strings.ToLower(strings.Replace(d.Data.UserCode, "-", " ", 1)) + " "
	ok, err := ac.AuthDeviceApprove(ctx, &api.DeviceApproveRequest{UserCode: typed})
	require.NoError(t, err)
	require.True(t, ok.Data.Approved)
	// Deciding again is the same failure as a wrong code.
	_, err = ac.AuthDeviceApprove(ctx, &api.DeviceApproveRequest{UserCode: d.Data.UserCode})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	// Concurrent polls: exactly one gets the session.
	var wg sync.WaitGroup
	var mu sync.Mutex
	var sessions []*api.Session
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := poll(d.Data.DeviceCode)
			if err == nil {
				mu.Lock()
				sessions = append(sessions, &res.Data)
				mu.Unlock()
			} else {
				require.Equal(t, "INVALID_CODE", errorOf(t, err).Response.Error.Code)
			}
		}()
	}
	wg.Wait()
	require.Len(t, sessions, 1)
	require.Equal(t, a.User.ID, sessions[0].User.ID)
	_, claims := jwtParts(t, sessions[0].AccessToken)
	require.Equal(t, []any{"device"}, claims["amr"])
	me, err := e.client(t, sessions[0].AccessToken).GetMe(ctx)
	require.NoError(t, err)
	require.Equal(t, "ana@example.com", me.Data.Email)
	_, err = poll(d.Data.DeviceCode)
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	// Denied.
	d2, err := tv.AuthDeviceCode(ctx)
	require.NoError(t, err)
	no, err := ac.AuthDeviceApprove(ctx, &api.DeviceApproveRequest{UserCode: d2.Data.UserCode, Deny: api.NewOptBool(true)})
	require.NoError(t, err)
	require.False(t, no.Data.Approved)
	_, err = poll(d2.Data.DeviceCode)
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")

	// Expired: the approval fails like a wrong code, the poll says so.
	d3, err := tv.AuthDeviceCode(ctx)
	require.NoError(t, err)
	_, err = e.studio.pool.Exec(ctx, `UPDATE device_authorizations SET expires_at = now() - interval '1 second'`+
		` WHERE user_code = $1`, strings.ReplaceAll(d3.Data.UserCode, "-", ""))
	require.NoError(t, err)
	_, err = poll(d3.Data.DeviceCode)
	requireCode(t, err, http.StatusBadRequest, "EXPIRED_TOKEN")
	b := e.signup(t, "bo@example.com", goodPassword)
	_, err = e.client(t, b.AccessToken).AuthDeviceApprove(ctx, &api.DeviceApproveRequest{UserCode: d3.Data.UserCode})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
}

// TestDeviceApproveAbuse: a code that had five submissions is dead; one
// person may approve several screens, and a user guessing codes is stopped
// after 20 submissions in ten minutes.
func TestDeviceApproveAbuse(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	tv := e.client(t, "")
	d, err := tv.AuthDeviceCode(ctx)
	require.NoError(t, err)
	_, err = e.studio.pool.Exec(ctx, `UPDATE device_authorizations SET attempts = 5 WHERE user_code = $1`,
		strings.ReplaceAll(d.Data.UserCode, "-", ""))
	require.NoError(t, err)
	a := e.signup(t, "ana@example.com", goodPassword)
	ac := e.client(t, a.AccessToken)
	_, err = ac.AuthDeviceApprove(ctx, &api.DeviceApproveRequest{UserCode: d.Data.UserCode})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	_, err = tv.AuthDeviceToken(ctx, &api.DeviceTokenRequest{DeviceCode: d.Data.DeviceCode})
	requireCode(t, err, http.StatusBadRequest, "AUTHORIZATION_PENDING")

	// One person approves several screens: good codes pass.
	for range 3 {
		dn, err := tv.AuthDeviceCode(ctx)
		require.NoError(t, err)
		ok, err := ac.AuthDeviceApprove(ctx, &api.DeviceApproveRequest{UserCode: dn.Data.UserCode})
		require.NoError(t, err)
		require.True(t, ok.Data.Approved)
	}
	// Guessing: 20 submissions in ten minutes per user (4 so far), each
	// wrong one the same INVALID_CODE.
	guesses := []string{"BCDF-GHJK", "not-a-code", "", "ZZZZ-ZZZZ"}
	for i := 0; i < 16; i++ {
		_, err = ac.AuthDeviceApprove(ctx, &api.DeviceApproveRequest{UserCode: guesses[i%len(guesses)]})
		requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	}
	// The 21st submission in ten minutes: 429, even with a good code.
	d2, err := tv.AuthDeviceCode(ctx)
	require.NoError(t, err)
	_, err = ac.AuthDeviceApprove(ctx, &api.DeviceApproveRequest{UserCode: d2.Data.UserCode})
	requireCode(t, err, http.StatusTooManyRequests, "RATE_LIMITED")
}

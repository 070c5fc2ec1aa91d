package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/identity/totp"
)

// totpCode returns the code of secret at now+offset.
func totpCode(t *testing.T, secret string, offset time.Duration) string {
	t.Helper()
	c, err := totp.Code(secret, time.Now().Add(offset))
	require.NoError(t, err)
	return c
}

// requireCode checks a failed call's status and error code.
func requireCode(t *testing.T, err error, status int, code string) {
	t.Helper()
	es := errorOf(t, err)
	require.Equal(t, status, es.StatusCode, "%s", es.Response.Error.Message)
	require.Equal(t, code, es.Response.Error.Code)
}

// enrolTOTP enrols and confirms a TOTP factor with the session's client and
// returns the factor, its secret and the session past the second factor.
func enrolTOTP(t *testing.T, c *api.Client) (uuid.UUID, string, *api.Session) {
	t.Helper()
	ctx := context.Background()
	en, err := c.AuthMfaTotpEnroll(ctx)
	require.NoError(t, err)
	s, err := c.AuthMfaTotpConfirm(ctx, &api.MfaConfirmRequest{FactorID: en.Data.FactorID, Code: totpCode(t, en.Data.Secret, 0)})
	require.NoError(t, err)
	return en.Data.FactorID, en.Data.Secret, &s.Data
}

func (e *authEnv) login(t *testing.T, email string) *api.Session {
	t.Helper()
	res, err := e.client(t, "").AuthLogin(context.Background(), &api.LoginRequest{Email: email, Password: goodPassword})
	require.NoError(t, err)
	return &res.Data
}

// TestMFATOTP: enrolment shown once, confirmation, login asking for the
// second factor, challenge and verify, and a code refused the second time.
func TestMFATOTP(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	s := e.signup(t, "ana@example.com", goodPassword)
	c := e.client(t, s.AccessToken)

	me, err := c.GetMe(ctx)
	require.NoError(t, err)
	require.False(t, me.Data.MfaEnabled)
	_, err = c.AuthMfaChallenge(ctx)
	requireCode(t, err, http.StatusBadRequest, "MFA_NOT_ENABLED")

	en, err := c.AuthMfaTotpEnroll(ctx)
	require.NoError(t, err)
	require.Len(t, en.Data.Secret, 32)
	require.True(t, strings.HasPrefix(en.Data.OtpauthURL, "otpauth://totp/Venue:ana@example.com?secret="+en.Data.Secret))
	code := totpCode(t, en.Data.Secret, 0)
	_, err = c.AuthMfaTotpConfirm(ctx, &api.MfaConfirmRequest{FactorID: en.Data.FactorID, Code: wrongCode(code, 0)})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	_, err = c.AuthMfaTotpConfirm(ctx, &api.MfaConfirmRequest{FactorID: uuid.New(), Code: code})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	conf, err := c.AuthMfaTotpConfirm(ctx, &api.MfaConfirmRequest{FactorID: en.Data.FactorID, Code: code})
	require.NoError(t, err)
	_, claims := jwtParts(t, conf.Data.AccessToken)
	require.Equal(t, true, claims["mfa"])
	require.ElementsMatch(t, []any{"pwd", "otp", "mfa"}, claims["amr"])
	me, err = e.client(t, conf.Data.AccessToken).GetMe(ctx)
	require.NoError(t, err)
	require.True(t, me.Data.MfaEnabled)
	// The old refresh token was spent by the step-up.
	_, err = e.client(t, "").AuthRefresh(ctx, &api.RefreshRequest{RefreshToken: s.RefreshToken})
	require.Error(t, err)

	// Login now asks for the second factor; its token lacks the claim and
	// cannot add a factor behind the user's back.
	l := e.login(t, "ana@example.com")
	require.True(t, l.MfaRequired)
	_, claims = jwtParts(t, l.AccessToken)
	require.Nil(t, claims["mfa"])
	lc := e.client(t, l.AccessToken)
	_, err = lc.AuthMfaTotpEnroll(ctx)
	requireCode(t, err, http.StatusForbidden, "MFA_REQUIRED")
	_, err = lc.AuthMfaBackupCodes(ctx)
	requireCode(t, err, http.StatusForbidden, "MFA_REQUIRED")

	// The confirmation's code is spent: refused even within its step.
	_, err = lc.AuthMfaVerify(ctx, &api.MfaVerifyRequest{Type: api.NewOptMfaVerifyRequestType(api.MfaVerifyRequestTypeTotp),
		FactorID: api.NewOptUUID(en.Data.FactorID), Code: code})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	ch, err := lc.AuthMfaChallenge(ctx)
	require.NoError(t, err)
	require.WithinDuration(t, time.Now().Add(5*time.Minute), ch.Data.ExpiresAt, 5*time.Second)
	next := totpCode(t, en.Data.Secret, 30*time.Second)
	v, err := lc.AuthMfaVerify(ctx, &api.MfaVerifyRequest{ChallengeID: api.NewOptUUID(ch.Data.ID), Code: next})
	require.NoError(t, err)
	require.False(t, v.Data.MfaRequired)
	_, claims = jwtParts(t, v.Data.AccessToken)
	require.Equal(t, true, claims["mfa"])
	require.NotNil(t, claims["stepup_at"])
	// The same code again, by either form, and the spent challenge: refused.
	_, err = lc.AuthMfaVerify(ctx, &api.MfaVerifyRequest{Type: api.NewOptMfaVerifyRequestType(api.MfaVerifyRequestTypeTotp),
		FactorID: api.NewOptUUID(en.Data.FactorID), Code: next})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	_, err = lc.AuthMfaVerify(ctx, &api.MfaVerifyRequest{ChallengeID: api.NewOptUUID(ch.Data.ID), Code: next})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	// Malformed body forms.
	_, err = lc.AuthMfaVerify(ctx, &api.MfaVerifyRequest{Code: next})
	requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
}

// TestMFAVerifyConcurrentReuse: two requests with one code, one wins.
func TestMFAVerifyConcurrentReuse(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	s := e.signup(t, "ana@example.com", goodPassword)
	factor, secret, _ := enrolTOTP(t, e.client(t, s.AccessToken))
	code := totpCode(t, secret, 30*time.Second)
	req := &api.MfaVerifyRequest{Type: api.NewOptMfaVerifyRequestType(api.MfaVerifyRequestTypeTotp),
		FactorID: api.NewOptUUID(factor), Code: code}
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for range 2 {
		l := e.login(t, "ana@example.com")
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := e.client(t, l.AccessToken).AuthMfaVerify(ctx, req)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				ok++
			} else {
				refused++
			}
		}()
	}
	wg.Wait()
	require.Equal(t, 1, ok)
	require.Equal(t, 1, refused)
}

// TestMFABackupCodes: ten single-use codes; a new set invalidates the old;
// another user's code is worthless; the sixth verify in 5 minutes is 429.
func TestMFABackupCodes(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	s := e.signup(t, "ana@example.com", goodPassword)
	_, _, stepped := enrolTOTP(t, e.client(t, s.AccessToken))
	sc := e.client(t, stepped.AccessToken)
	set, err := sc.AuthMfaBackupCodes(ctx)
	require.NoError(t, err)
	require.Equal(t, 10, set.Data.Count)
	require.Len(t, set.Data.BackupCodes, 10)
	require.NotEmpty(t, set.Data.Warning)

	b := e.signup(t, "bo@example.com", goodPassword)
	_, _, bs := enrolTOTP(t, e.client(t, b.AccessToken))
	bset, err := e.client(t, bs.AccessToken).AuthMfaBackupCodes(ctx)
	require.NoError(t, err)

	backup := func(code string) (*api.SessionResponse, error) {
		l := e.login(t, "ana@example.com")
		require.True(t, l.MfaRequired)
		return e.client(t, l.AccessToken).AuthMfaVerify(ctx, &api.MfaVerifyRequest{
			Type: api.NewOptMfaVerifyRequestType(api.MfaVerifyRequestTypeBackupCode), Code: code})
	}
	v, err := backup(strings.ToUpper(set.Data.BackupCodes[3]))
	require.NoError(t, err)
	_, claims := jwtParts(t, v.Data.AccessToken)
	require.Equal(t, true, claims["mfa"])
	require.Contains(t, claims["amr"], "kba")
	_, err = backup(set.Data.BackupCodes[3])
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	again, err := sc.AuthMfaBackupCodes(ctx)
	require.NoError(t, err)
	_, err = backup(set.Data.BackupCodes[4])
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	_, err = backup(bset.Data.BackupCodes[0])
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	_, err = backup(again.Data.BackupCodes[0])
	require.NoError(t, err)

	// Five verifies in five minutes per user, then 429 even with a good code.
	_, err = backup(again.Data.BackupCodes[1])
	requireCode(t, err, http.StatusTooManyRequests, "RATE_LIMITED")
}

// TestMFAAbuse: guessing is limited, another user's factor or challenge is
// a wrong code, challenges are limited to 5 per minute.
func TestMFAAbuse(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	a := e.signup(t, "ana@example.com", goodPassword)
	aFactor, aSecret, _ := enrolTOTP(t, e.client(t, a.AccessToken))
	b := e.signup(t, "bo@example.com", goodPassword)
	enrolTOTP(t, e.client(t, b.AccessToken))
	bl := e.login(t, "bo@example.com")
	bc := e.client(t, bl.AccessToken)

	al := e.login(t, "ana@example.com")
	ac := e.client(t, al.AccessToken)
	ch, err := ac.AuthMfaChallenge(ctx)
	require.NoError(t, err)

	good := totpCode(t, aSecret, 30*time.Second)
	_, err = bc.AuthMfaVerify(ctx, &api.MfaVerifyRequest{Type: api.NewOptMfaVerifyRequestType(api.MfaVerifyRequestTypeTotp),
		FactorID: api.NewOptUUID(aFactor), Code: good})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	_, err = bc.AuthMfaVerify(ctx, &api.MfaVerifyRequest{ChallengeID: api.NewOptUUID(ch.Data.ID), Code: good})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	for range 3 {
		_, err = bc.AuthMfaVerify(ctx, &api.MfaVerifyRequest{ChallengeID: api.NewOptUUID(uuid.New()), Code: "123456"})
		requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	}
	_, err = bc.AuthMfaVerify(ctx, &api.MfaVerifyRequest{ChallengeID: api.NewOptUUID(uuid.New()), Code: "123456"})
	requireCode(t, err, http.StatusTooManyRequests, "RATE_LIMITED")

	// Ana's challenge survived Bo's attempt.
	_, err = ac.AuthMfaVerify(ctx, &api.MfaVerifyRequest{ChallengeID: api.NewOptUUID(ch.Data.ID), Code: good})
	require.NoError(t, err)

	for range 4 {
		_, err = ac.AuthMfaChallenge(ctx)
		require.NoError(t, err)
	}
	_, err = ac.AuthMfaChallenge(ctx)
	requireCode(t, err, http.StatusTooManyRequests, "RATE_LIMITED")
}

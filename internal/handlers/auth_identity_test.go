package handlers_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/accounts"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/identity/codes"
	"github.com/venueplatform/venue/internal/identity/token"
	"github.com/venueplatform/venue/internal/logtest"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/server"
)

// TestSignupCountryCityAndArgon2id: sign-up takes the optional country and
// city (country as PATCH /me takes it), and the password is stored only as
// an argon2id hash.
func TestSignupCountryCityAndArgon2id(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	anon := e.client(t, "")
	res, err := anon.AuthSignup(ctx, &api.SignupRequest{Email: "ana@example.com", Password: goodPassword,
		Country: api.NewOptString(" dk "), City: api.NewOptString(" Aarhus ")})
	require.NoError(t, err)
	require.Equal(t, "DK", res.Data.User.Country.Value)
	require.Equal(t, "Aarhus", res.Data.User.City.Value)
	me, err := e.client(t, res.Data.AccessToken).GetMe(ctx)
	require.NoError(t, err)
	require.Equal(t, "DK", me.Data.Country.Value)
	require.Equal(t, "Aarhus", me.Data.City.Value)

	// Both are optional.
	bare, err := anon.AuthSignup(ctx, &api.SignupRequest{Email: "bo@example.com", Password: goodPassword})
	require.NoError(t, err)
	require.False(t, bare.Data.User.Country.Set)
	require.False(t, bare.Data.User.City.Set)
	// A malformed country names the field and creates nothing.
	for _, c := range []string{"D1", "DNK", "d"} {
		_, err = anon.AuthSignup(ctx, &api.SignupRequest{Email: "cy@example.com", Password: goodPassword, Country: api.NewOptString(c)})
		requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
		require.Equal(t, "country", errorOf(t, err).Response.Error.Details.Parameter.Value)
	}
	_, err = anon.AuthLogin(ctx, &api.LoginRequest{Email: "cy@example.com", Password: goodPassword})
	requireCode(t, err, http.StatusUnauthorized, "INVALID_CREDENTIALS")

	var hash string
	require.NoError(t, e.studio.pool.QueryRow(ctx, `SELECT password_hash FROM users WHERE email = $1`, "ana@example.com").Scan(&hash))
	require.True(t, strings.HasPrefix(hash, "$argon2id$v=19$m="), hash)
	require.NotContains(t, hash, goodPassword)
}

// TestCredentialStuffingIsLimitedPerIP: one address trying many accounts is
// stopped with 429 and Retry-After (login 30 per minute, reset-code guesses
// 20 per 10 minutes), while the same tries from other addresses go on; an
// MFA code guesser gets the same 429 with Retry-After.
func TestCredentialStuffingIsLimitedPerIP(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	e.signup(t, "ana@example.com", goodPassword)
	post := func(path, body string) *http.Response {
		t.Helper()
		res, err := http.Post(e.url+"/api/v1"+path, "application/json", strings.NewReader(body))
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	refused := func(res *http.Response) {
		t.Helper()
		require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
		retry, err := strconv.Atoi(res.Header.Get("Retry-After"))
		require.NoError(t, err)
		require.Positive(t, retry)
	}

	// Login: 30 accounts from one address, each tried once. The window
	// (30 per minute) gives one request back every 2 s, so on a slow machine
	// a few more may pass before the refusal; no more than the time allows.
	start := time.Now()
	for i := range 30 {
		res := post("/auth/login", `{"email":"victim`+strconv.Itoa(i)+`@example.com","password":"Winter2026!"}`)
		require.Equal(t, http.StatusUnauthorized, res.StatusCode, i)
	}
	extra := 0
	for {
		res := post("/auth/login", `{"email":"ana@example.com","password":"`+goodPassword+`"}`)
		if res.StatusCode == http.StatusTooManyRequests {
			refused(res)
			break
		}
		require.Equal(t, http.StatusOK, res.StatusCode)
		extra++
		require.LessOrEqual(t, extra, int(time.Since(start)/(2*time.Second))+1,
			"more logins passed than the 30-per-minute window gives back")
	}
	// Another address signs in.
	_, err := e.spreadClient(t).AuthLogin(ctx, &api.LoginRequest{Email: "ana@example.com", Password: goodPassword})
	require.NoError(t, err)

	// Reset-code guessing across accounts: 20 per 10 minutes per address.
	for i := range 20 {
		res := post("/auth/password/reset", `{"email":"victim`+strconv.Itoa(i)+`@example.com","code":"123456","new_password":"`+goodPassword+`"}`)
		require.Equal(t, http.StatusBadRequest, res.StatusCode, i)
	}
	refused(post("/auth/password/reset", `{"email":"ana@example.com","code":"123456","new_password":"`+goodPassword+`"}`))

	// MFA code guessing by one user: the sixth verify in 5 minutes.
	b := e.signup(t, "bo@example.com", goodPassword)
	factor, _, _ := enrolTOTP(t, e.client(t, b.AccessToken))
	bl, err := e.spreadClient(t).AuthLogin(ctx, &api.LoginRequest{Email: "bo@example.com", Password: goodPassword})
	require.NoError(t, err)
	l := bl.Data
	body := `{"type":"totp","factor_id":"` + factor.String() + `","code":"000000"}`
	guess := func() *http.Response {
		req, _ := http.NewRequest(http.MethodPost, e.url+"/api/v1/auth/mfa/verify", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+l.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	for range 5 {
		require.Equal(t, http.StatusBadRequest, guess().StatusCode)
	}
	refused(guess())
}

// teeSink hands codes to the test's sink and to the development LogSink, so
// the log sees every delivery the way the server logs it.
type teeSink struct {
	a *sink
	b accounts.LogSink
}

func (s teeSink) SendCode(ctx context.Context, d accounts.Delivery) error {
	if err := s.b.SendCode(ctx, d); err != nil {
		return err
	}
	return s.a.SendCode(ctx, d)
}

// TestSecretsAreNeverLogged runs every credential flow with the service
// logging at debug level and then searches the log for each secret that
// crossed the wire or the database: passwords, their hash, access and
// refresh tokens, reset and change codes, the TOTP secret and codes, backup
// codes, device and user codes, hand-off codes, mobile codes, token hashes
// and PKCE verifiers.
func TestSecretsAreNeverLogged(t *testing.T) {
	s := newStudio(t, "studio")
	logs := &logtest.Buffer{}
	log := slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	key, err := token.GenerateSigningKey()
	require.NoError(t, err)
	e := &authEnv{studio: s, key: key, sink: &sink{}}
	acct, err := accounts.New(s.client, accounts.Config{SigningKey: key, Sink: teeSink{e.sink, accounts.LogSink{Log: log}},
		Log: log, HandoffDomains: []string{"book.example.com"}})
	require.NoError(t, err)
	h, err := server.New(server.Deps{Pool: s.pool, Client: s.client, Accounts: acct, Log: log,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("::1/128")}})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	e.url = srv.URL
	ctx := context.Background()
	anon := e.client(t, "")
	var secrets []string
	keep := func(v ...string) { secrets = append(secrets, v...) }
	keepSession := func(s *api.Session) { keep(s.AccessToken, s.RefreshToken) }

	const newPassword = "another long passphrase"
	keep(goodPassword, newPassword, "wrong password!")
	su := e.signup(t, "ana@example.com", goodPassword)
	keepSession(su)
	_, err = anon.AuthLogin(ctx, &api.LoginRequest{Email: "ana@example.com", Password: "wrong password!"})
	require.Error(t, err)
	r, err := anon.AuthRefresh(ctx, &api.RefreshRequest{RefreshToken: su.RefreshToken})
	require.NoError(t, err)
	keepSession(&r.Data)
	_, err = anon.AuthRefresh(ctx, &api.RefreshRequest{RefreshToken: su.RefreshToken}) // reuse: revokes
	require.Error(t, err)

	// Forgotten password and change.
	_, err = anon.AuthPasswordForgot(ctx, &api.EmailRequest{Email: "ana@example.com"})
	require.NoError(t, err)
	code := e.sink.last("ana@example.com")
	keep(code)
	_, err = anon.AuthPasswordReset(ctx, &api.PasswordResetRequest{Email: "ana@example.com", Code: code, NewPassword: goodPassword})
	require.NoError(t, err)
	l := e.login(t, "ana@example.com")
	keepSession(l)
	lc := e.client(t, l.AccessToken)
	_, err = lc.AuthPasswordChangeCode(ctx)
	require.NoError(t, err)
	code = e.sink.last("ana@example.com")
	keep(code)
	_, err = lc.AuthPasswordChange(ctx, &api.PasswordChangeRequest{Code: code, NewPassword: newPassword})
	require.NoError(t, err)

	// Second factor.
	en, err := lc.AuthMfaTotpEnroll(ctx)
	require.NoError(t, err)
	totpNow := totpCode(t, en.Data.Secret, 0)
	keep(en.Data.Secret, en.Data.OtpauthURL, totpNow)
	conf, err := lc.AuthMfaTotpConfirm(ctx, &api.MfaConfirmRequest{FactorID: en.Data.FactorID, Code: totpNow})
	require.NoError(t, err)
	keepSession(&conf.Data)
	set, err := e.client(t, conf.Data.AccessToken).AuthMfaBackupCodes(ctx)
	require.NoError(t, err)
	keep(set.Data.BackupCodes...)
	l2, err := anon.AuthLogin(ctx, &api.LoginRequest{Email: "ana@example.com", Password: newPassword})
	require.NoError(t, err)
	keepSession(&l2.Data)
	v, err := e.client(t, l2.Data.AccessToken).AuthMfaVerify(ctx, &api.MfaVerifyRequest{
		Type: api.NewOptMfaVerifyRequestType(api.MfaVerifyRequestTypeBackupCode), Code: set.Data.BackupCodes[0]})
	require.NoError(t, err)
	keepSession(&v.Data)
	vc := e.client(t, v.Data.AccessToken)

	// Device, hand-off and mobile flows.
	d, err := anon.AuthDeviceCode(ctx)
	require.NoError(t, err)
	keep(d.Data.DeviceCode, d.Data.UserCode, strings.ReplaceAll(d.Data.UserCode, "-", ""))
	_, err = vc.AuthDeviceApprove(ctx, &api.DeviceApproveRequest{UserCode: d.Data.UserCode})
	require.NoError(t, err)
	ds, err := anon.AuthDeviceToken(ctx, &api.DeviceTokenRequest{DeviceCode: d.Data.DeviceCode})
	require.NoError(t, err)
	keepSession(&ds.Data)
	m, err := vc.AuthHandoffMint(ctx, &api.HandoffMintRequest{Destination: "https://book.example.com/"})
	require.NoError(t, err)
	keep(m.Data.Code)
	hs, err := anon.AuthHandoffExchange(ctx, &api.HandoffExchangeRequest{Code: m.Data.Code, Destination: "book.example.com"})
	require.NoError(t, err)
	keepSession(&hs.Data)
	verifier := codes.NewPKCEVerifier()
	keep(verifier)
	o, err := anon.AuthOtpRequest(ctx, &api.OtpRequest{Email: "ana@example.com",
		CodeChallenge: api.NewOptString(codes.PKCEChallenge(verifier)), CodeChallengeMethod: api.NewOptString("S256")})
	require.NoError(t, err)
	od := e.sink.lastDelivery("ana@example.com")
	keep(od.Code, od.TokenHash)
	ox, err := anon.AuthOtpExchange(ctx, &api.OtpExchangeRequest{RequestID: o.Data.RequestID,
		TokenHash: api.NewOptString(od.TokenHash), CodeVerifier: api.NewOptString(verifier)})
	require.NoError(t, err)
	keepSession(&ox.Data)

	// Forged and stale tokens are refused and logged with a reason only.
	_, err = e.client(t, su.AccessToken+"x").GetMe(ctx)
	require.Error(t, err)

	var hash string
	require.NoError(t, s.pool.QueryRow(ctx, `SELECT password_hash FROM users WHERE email = $1`, "ana@example.com").Scan(&hash))
	keep(hash)

	out := logs.String()
	require.Contains(t, out, "/auth/login", "requests are logged")
	require.Contains(t, out, "code sent", "deliveries are logged")
	require.Contains(t, out, "bearer token refused", "refusals are logged at debug level")
	for _, secret := range secrets {
		require.NotEmpty(t, secret)
		requireAbsent(t, out, secret)
		if len(secret) > 24 {
			// A token cut short (a prefix in a log line) is still a leak.
			require.NotContains(t, out, secret[:24])
		}
	}
	// No JWT at all, whoever's.
	require.NotRegexp(t, `eyJ[A-Za-z0-9_-]{10,}\.eyJ`, out)

	// At rest, the credential tables hold hashes and sealed values only
	// (the TV's short user code, shown on screen, is the one plain value).
	var rows []string
	for _, table := range []string{"users", "sessions", "refresh_tokens", "auth_codes", "mfa_factors",
		"mfa_backup_codes", "mfa_challenges", "device_authorizations", "handoff_codes", "otp_requests"} {
		r, err := s.pool.Query(ctx, `SELECT row_to_json(t)::text FROM `+table+` t`)
		require.NoError(t, err)
		for r.Next() {
			var row string
			require.NoError(t, r.Scan(&row))
			rows = append(rows, row)
		}
		require.NoError(t, r.Err())
		r.Close()
	}
	stored := strings.Join(rows, "\n")
	require.Contains(t, stored, "ana@example.com")
	userCode := strings.ReplaceAll(d.Data.UserCode, "-", "")
	for _, secret := range secrets {
		if secret == hash || secret == d.Data.UserCode || secret == userCode {
			continue
		}
		requireAbsent(t, stored, secret)
	}
}

// requireAbsent fails when secret occurs in text. A short code (six digits,
// say) counts only standing alone, not inside a longer run of letters and
// digits such as a timestamp's fraction or a hex id.
func requireAbsent(t *testing.T, text, secret string) {
	t.Helper()
	if len(secret) >= 12 {
		require.NotContains(t, text, secret)
		return
	}
	re := regexp.MustCompile(`(^|[^0-9A-Za-z])` + regexp.QuoteMeta(secret) + `([^0-9A-Za-z]|$)`)
	require.False(t, re.MatchString(text), "%q found", secret)
}

// TestStaffPermissionChangesApplyAtOnce: a grant or revocation by the
// venue (members.ChangePermissions, what `venuectl staff grant|revoke`
// runs) shows in GET /me and in the checks of the very next request, with
// the same access token.
func TestStaffPermissionChangesApplyAtOnce(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	a := e.signup(t, "ana@example.com", goodPassword)
	enrolTOTP(t, e.client(t, a.AccessToken))
	enroll(t, e, e.op, "ana@example.com", "member")
	boss := e.signup(t, "boss@example.com", goodPassword)
	enroll(t, e, e.op, "boss@example.com", "staff", "staff.view")
	bc := e.client(t, boss.AccessToken)
	_, err := bc.SetActiveOrganization(ctx, &api.ActiveOrganizationRequest{OrganizationID: e.venue.ID})
	require.NoError(t, err)
	perms := func() []string {
		t.Helper()
		me, err := bc.GetMe(ctx)
		require.NoError(t, err)
		return membershipOf(t, &me.Data, e.venue.ID).Permissions
	}
	reset := &api.MfaResetRequest{UserID: a.User.ID}

	require.Equal(t, []string{"staff.view"}, perms())
	_, err = bc.AuthMfaReset(ctx, reset)
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")

	_, err = members.ChangePermissions(e.op, e.db(), "boss@example.com", []string{"admin.users.manage"}, nil)
	require.NoError(t, err)
	require.ElementsMatch(t, []string{"staff.view", "admin.users.manage"}, perms())

	_, err = members.ChangePermissions(e.op, e.db(), "boss@example.com", nil, []string{"admin.users.manage"})
	require.NoError(t, err)
	require.Equal(t, []string{"staff.view"}, perms())
	_, err = bc.AuthMfaReset(ctx, reset)
	requireCode(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.True(t, e.login(t, "ana@example.com").MfaRequired, "nothing was reset")

	_, err = members.ChangePermissions(e.op, e.db(), "boss@example.com", []string{"admin.users.manage"}, nil)
	require.NoError(t, err)
	_, err = bc.AuthMfaReset(ctx, reset)
	require.NoError(t, err)
	require.False(t, e.login(t, "ana@example.com").MfaRequired)
}

// TestSignupProbingIsLimitedPerIP: sign-up is the one answer besides the
// contract's account-state check that tells a registered email apart (409
// ACCOUNT_EXISTS, since a new account gets a session at once); it is
// limited per address at least as tightly as the check (10 per minute), so
// it is no better a probe.
func TestSignupProbingIsLimitedPerIP(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	e.signup(t, "ana@example.com", goodPassword)
	post := func() *http.Response {
		res, err := http.Post(e.url+"/api/v1/auth/signup", "application/json",
			strings.NewReader(`{"email":"ana@example.com","password":"`+goodPassword+`"}`))
		require.NoError(t, err)
		res.Body.Close()
		return res
	}
	for range 9 {
		require.Equal(t, http.StatusConflict, post().StatusCode)
	}
	res := post()
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	require.NotEmpty(t, res.Header.Get("Retry-After"))
}

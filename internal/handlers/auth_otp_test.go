package handlers_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/identity/codes"
)

// TestMobileOTP: the code form, the PKCE token-hash form, single use, and
// an unknown email answered like a known one.
func TestMobileOTP(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	a := e.signup(t, "ana@example.com", goodPassword)
	c := e.spreadClient(t) // per-address limits are tested below

	r, err := c.AuthOtpRequest(ctx, &api.OtpRequest{Email: "ana@example.com"})
	require.NoError(t, err)
	d := e.sink.lastDelivery("ana@example.com")
	require.Equal(t, "email_otp", d.Purpose)
	require.Regexp(t, `^[0-9]{6}$`, d.Code)
	require.Empty(t, d.TokenHash, "no token hash without a PKCE challenge")

	ex := func(req api.OtpExchangeRequest) (*api.SessionResponse, error) { return c.AuthOtpExchange(ctx, &req) }
	_, err = ex(api.OtpExchangeRequest{RequestID: r.Data.RequestID, Code: api.NewOptString(wrongCode(d.Code, 2))})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	s, err := ex(api.OtpExchangeRequest{RequestID: r.Data.RequestID, Code: api.NewOptString(d.Code)})
	require.NoError(t, err)
	require.Equal(t, a.User.ID, s.Data.User.ID)
	_, err = ex(api.OtpExchangeRequest{RequestID: r.Data.RequestID, Code: api.NewOptString(d.Code)})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	// Unknown email: same answer, nothing sent, nothing to exchange.
	before := e.sink.count()
	u, err := c.AuthOtpRequest(ctx, &api.OtpRequest{Email: "nobody@example.com"})
	require.NoError(t, err)
	require.NotEqual(t, uuid.Nil, u.Data.RequestID)
	require.Equal(t, before, e.sink.count())
	_, err = ex(api.OtpExchangeRequest{RequestID: u.Data.RequestID, Code: api.NewOptString("123456")})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	// PKCE: plain is refused; the token hash needs the right verifier.
	_, err = c.AuthOtpRequest(ctx, &api.OtpRequest{Email: "ana@example.com",
		CodeChallenge: api.NewOptString(codes.NewPKCEVerifier()), CodeChallengeMethod: api.NewOptString("plain")})
	requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	verifier := codes.NewPKCEVerifier()
	r2, err := c.AuthOtpRequest(ctx, &api.OtpRequest{Email: "ana@example.com",
		CodeChallenge: api.NewOptString(codes.PKCEChallenge(verifier)), CodeChallengeMethod: api.NewOptString("S256")})
	require.NoError(t, err)
	d2 := e.sink.lastDelivery("ana@example.com")
	require.NotEmpty(t, d2.TokenHash)
	_, err = ex(api.OtpExchangeRequest{RequestID: r2.Data.RequestID, TokenHash: api.NewOptString(d2.TokenHash)})
	requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = ex(api.OtpExchangeRequest{RequestID: r2.Data.RequestID, TokenHash: api.NewOptString(d2.TokenHash),
		CodeVerifier: api.NewOptString(codes.NewPKCEVerifier())})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	_, err = ex(api.OtpExchangeRequest{RequestID: uuid.New(), TokenHash: api.NewOptString(d2.TokenHash),
		CodeVerifier: api.NewOptString(verifier)})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	s2, err := ex(api.OtpExchangeRequest{RequestID: r2.Data.RequestID, TokenHash: api.NewOptString(d2.TokenHash),
		CodeVerifier: api.NewOptString(verifier)})
	require.NoError(t, err)
	_, claims := jwtParts(t, s2.Data.AccessToken)
	require.Equal(t, []any{"email"}, claims["amr"])
}

// TestMobileOTPGuessing: five wrong guesses burn a request; five
// exchanges per ten minutes per address.
func TestMobileOTPGuessing(t *testing.T) {
	e := newAuthEnv(t, newStudio(t, "studio"))
	ctx := context.Background()
	e.signup(t, "ana@example.com", goodPassword)
	spread := e.spreadClient(t)
	r, err := spread.AuthOtpRequest(ctx, &api.OtpRequest{Email: "ana@example.com"})
	require.NoError(t, err)
	code := e.sink.last("ana@example.com")
	for i := range 5 {
		_, err = spread.AuthOtpExchange(ctx, &api.OtpExchangeRequest{RequestID: r.Data.RequestID, Code: api.NewOptString(wrongCode(code, i))})
		requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	}
	_, err = spread.AuthOtpExchange(ctx, &api.OtpExchangeRequest{RequestID: r.Data.RequestID, Code: api.NewOptString(code)})
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	one := e.client(t, "")
	for range 5 {
		_, err = one.AuthOtpExchange(ctx, &api.OtpExchangeRequest{RequestID: uuid.New(), Code: api.NewOptString("123456")})
		requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	}
	_, err = one.AuthOtpExchange(ctx, &api.OtpExchangeRequest{RequestID: uuid.New(), Code: api.NewOptString("123456")})
	requireCode(t, err, http.StatusTooManyRequests, "RATE_LIMITED")
	for range 5 {
		_, err = one.AuthOtpRequest(ctx, &api.OtpRequest{Email: "ana@example.com"})
		require.NoError(t, err)
	}
	_, err = one.AuthOtpRequest(ctx, &api.OtpRequest{Email: "ana@example.com"})
	requireCode(t, err, http.StatusTooManyRequests, "RATE_LIMITED")
}

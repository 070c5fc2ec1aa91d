package handlers_test

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/accounts"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// storedSecret reads a factor's secret column as PostgreSQL holds it.
func storedSecret(t *testing.T, e *authEnv, factor uuid.UUID) string {
	t.Helper()
	var s string
	require.NoError(t, e.pool.QueryRow(context.Background(), `SELECT secret FROM mfa_factors WHERE id = $1`, factor).Scan(&s))
	return s
}

func verifyTOTP(t *testing.T, e *authEnv, email string, factor uuid.UUID, code string) error {
	t.Helper()
	lc := e.client(t, e.login(t, email).AccessToken)
	_, err := lc.AuthMfaVerify(context.Background(), &api.MfaVerifyRequest{
		Type: api.NewOptMfaVerifyRequestType(api.MfaVerifyRequestTypeTotp), FactorID: api.NewOptUUID(factor), Code: code})
	return err
}

// TestMFASecretSealedAtRest: the secret column never holds the TOTP secret;
// rows stored in plaintext before sealing still verify and are sealed on use;
// a rotated key reseals with the new key.
func TestMFASecretSealedAtRest(t *testing.T) {
	oldKey := bytes.Repeat([]byte{0x11}, 32)
	s := newStudio(t, "studio")
	e := newAuthEnvWith(t, s, func(c *accounts.Config) { c.MFAKey = oldKey })
	ctx := context.Background()
	sess := e.signup(t, "ana@example.com", goodPassword)
	factor, secret, _ := enrolTOTP(t, e.client(t, sess.AccessToken))

	stored := storedSecret(t, e, factor)
	require.True(t, strings.HasPrefix(stored, "totp1:"), stored)
	require.NotContains(t, strings.ToUpper(stored), secret)
	require.NotContains(t, stored, strings.ToLower(secret))

	// A row written in plaintext (before sealing): still verifies, and the
	// accepted code seals it.
	_, err := e.pool.Exec(ctx, `UPDATE mfa_factors SET secret = $1 WHERE id = $2`, secret, factor)
	require.NoError(t, err)
	require.NoError(t, verifyTOTP(t, e, "ana@example.com", factor, totpCode(t, secret, 30*time.Second)))
	resealed := storedSecret(t, e, factor)
	require.True(t, strings.HasPrefix(resealed, "totp1:"))
	require.NotContains(t, strings.ToUpper(resealed), secret)

	// Rotation: a server with a new key and the old one as previous opens
	// the old value and reseals it under the new key id.
	newKey := bytes.Repeat([]byte{0x22}, 32)
	rotated := newAuthEnvWith(t, s, func(c *accounts.Config) {
		c.MFAKey, c.MFAPreviousKeys = newKey, [][]byte{oldKey}
	})
	_, err = e.pool.Exec(ctx, `UPDATE mfa_factors SET last_step = 0 WHERE id = $1`, factor)
	require.NoError(t, err)
	require.NoError(t, verifyTOTP(t, rotated, "ana@example.com", factor, totpCode(t, secret, 0)))
	after := storedSecret(t, e, factor)
	require.NotEqual(t, strings.Split(resealed, ":")[1], strings.Split(after, ":")[1], "sealed under the new key id")

	// A server without the key cannot open it: an internal error, never a
	// wrong-code answer that would burn the user's attempts.
	stranger := newAuthEnvWith(t, s, func(c *accounts.Config) { c.MFAKey = oldKey })
	_, err = e.pool.Exec(ctx, `UPDATE mfa_factors SET last_step = 0 WHERE id = $1`, factor)
	require.NoError(t, err)
	err = verifyTOTP(t, stranger, "ana@example.com", factor, totpCode(t, secret, 0))
	require.Equal(t, http.StatusInternalServerError, errorOf(t, err).StatusCode)
}

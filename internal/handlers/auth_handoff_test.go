package handlers_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/accounts"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/identity/codes"
)

// TestHandoff: codes only for allowlisted https hosts, exchanged once, for
// that host, within 60 seconds; the second factor carries over.
func TestHandoff(t *testing.T) {
	e := newAuthEnvWith(t, newStudio(t, "studio"), func(c *accounts.Config) {
		c.HandoffDomains = []string{"Book.Example.com", " shop.example.com "}
	})
	ctx := context.Background()
	a := e.signup(t, "ana@example.com", goodPassword)
	ac := e.client(t, a.AccessToken)
	pub := e.client(t, "")

	for _, bad := range []string{"https://evil.example.com/x", "http://book.example.com/", "book.example.com",
		"https://book.example.com.evil.com/", "https://user@book.example.com/", "javascript:alert(1)", ""} {
		_, err := ac.AuthHandoffMint(ctx, &api.HandoffMintRequest{Destination: bad})
		requireCode(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	}
	m, err := ac.AuthHandoffMint(ctx, &api.HandoffMintRequest{Destination: "https://BOOK.example.com/welcome"})
	require.NoError(t, err)
	require.Regexp(t, `^[A-Za-z0-9_-]{43}$`, m.Data.Code)
	require.WithinDuration(t, time.Now().Add(time.Minute), m.Data.ExpiresAt, 5*time.Second)

	exchange := func(code, dest string) (*api.SessionResponse, error) {
		return pub.AuthHandoffExchange(ctx, &api.HandoffExchangeRequest{Code: code, Destination: dest})
	}
	_, err = exchange(m.Data.Code, "shop.example.com")
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")
	_, err = exchange(codes.NewHandoffCode(), "book.example.com")
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	// Concurrent exchanges: exactly one session.
	var wg sync.WaitGroup
	var mu sync.Mutex
	var got []*api.Session
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res, err := exchange(m.Data.Code, "https://book.example.com/cb"); err == nil {
				mu.Lock()
				got = append(got, &res.Data)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	require.Len(t, got, 1)
	require.Equal(t, a.User.ID, got[0].User.ID)
	_, claims := jwtParts(t, got[0].AccessToken)
	require.Equal(t, []any{"handoff"}, claims["amr"])
	_, err = e.client(t, got[0].AccessToken).GetMe(ctx)
	require.NoError(t, err)
	_, err = exchange(m.Data.Code, "book.example.com")
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	// Expired after 60 seconds.
	m2, err := ac.AuthHandoffMint(ctx, &api.HandoffMintRequest{Destination: "https://shop.example.com/"})
	require.NoError(t, err)
	_, err = e.studio.pool.Exec(ctx, `UPDATE handoff_codes SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`)
	require.NoError(t, err)
	_, err = exchange(m2.Data.Code, "shop.example.com")
	requireCode(t, err, http.StatusBadRequest, "INVALID_CODE")

	// A session past the second factor hands it over; one without does not.
	_, _, stepped := enrolTOTP(t, ac)
	m3, err := e.client(t, stepped.AccessToken).AuthHandoffMint(ctx, &api.HandoffMintRequest{Destination: "https://shop.example.com/"})
	require.NoError(t, err)
	s3, err := exchange(m3.Data.Code, "shop.example.com")
	require.NoError(t, err)
	require.False(t, s3.Data.MfaRequired)
	_, claims = jwtParts(t, s3.Data.AccessToken)
	require.Equal(t, true, claims["mfa"])
	l := e.login(t, "ana@example.com")
	m4, err := e.client(t, l.AccessToken).AuthHandoffMint(ctx, &api.HandoffMintRequest{Destination: "https://shop.example.com/"})
	require.NoError(t, err)
	s4, err := exchange(m4.Data.Code, "shop.example.com")
	require.NoError(t, err)
	require.True(t, s4.Data.MfaRequired)
}

package accounts_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/viewer"
)

// TestRequireStepUp: a session that passed its second factor within the
// default age passes; an older one, one that never did, and an API key get
// 403 STEP_UP_REQUIRED.
func TestRequireStepUp(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	check := func(v viewer.Viewer) error {
		return accounts.RequireStepUp(viewer.NewContext(context.Background(), v), now, 0)
	}
	require.NoError(t, check(viewer.User{UserID: uuid.New(), MFA: true, StepUpAt: now.Add(-5 * time.Minute)}))
	for _, v := range []viewer.Viewer{
		viewer.User{UserID: uuid.New(), MFA: true, StepUpAt: now.Add(-11 * time.Minute)}, // too old
		viewer.User{UserID: uuid.New()},                   // never passed a factor
		viewer.APIKey{Org: uuid.New(), KeyID: uuid.New()}, // cannot step up
	} {
		err := check(v)
		var e *apperr.Error
		require.True(t, errors.As(err, &e), "%T", v)
		require.Equal(t, http.StatusForbidden, e.Status)
		require.Equal(t, accounts.CodeStepUpRequired, e.Code)
		require.Equal(t, "mfa_verify", e.Details["required_step"])
	}
}

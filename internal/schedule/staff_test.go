package schedule

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/viewer"
)

func codeOf(t *testing.T, err error) string {
	t.Helper()
	var e *apperr.Error
	require.True(t, errors.As(err, &e), "want an apperr, got %v", err)
	return e.Code
}

func TestParseRange(t *testing.T) {
	today := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	r, err := ParseRange("start_date", "", "end_date", "", today, MaxStaffListDays)
	require.NoError(t, err)
	require.Equal(t, today, r.From)
	require.Equal(t, 7, r.Days())

	r, err = ParseRange("start_date", "2026-12-01", "end_date", "2026-12-01", today, MaxStaffListDays)
	require.NoError(t, err)
	require.Equal(t, 1, r.Days())

	_, err = ParseRange("start_date", "2026-02-30", "end_date", "", today, MaxStaffListDays)
	require.Equal(t, apperr.CodeValidation, codeOf(t, err))
	_, err = ParseRange("start_date", "2026-12-02", "end_date", "2026-12-01", today, MaxStaffListDays)
	require.Equal(t, CodeInvalidRange, codeOf(t, err))
	_, err = ParseRange("start", "2026-12-01", "end", "2027-01-31", today, MaxCalendarDays)
	require.NoError(t, err, "62 dates")
	_, err = ParseRange("start", "2026-12-01", "end", "2027-02-01", today, MaxCalendarDays)
	require.Equal(t, CodeInvalidRange, codeOf(t, err))
}

func TestParseClock(t *testing.T) {
	c, ok := ParseClock("07:30")
	require.True(t, ok)
	require.Equal(t, Clock(450), c)
	for _, bad := range []string{"7:30", "24:00", "07:60", "0730", ""} {
		_, ok := ParseClock(bad)
		require.False(t, ok, bad)
	}
}

func TestAuthorize(t *testing.T) {
	org := uuid.New()
	staff := func(perms ...string) context.Context {
		return viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New(), Org: org, Role: "staff", Permissions: perms})
	}
	require.NoError(t, Authorize(staff(PermViewAll), AccessRead))
	require.NoError(t, Authorize(staff(PermManage), AccessRead))
	require.Error(t, Authorize(staff(PermViewAll), AccessWrite))
	require.NoError(t, Authorize(staff(PermClassCancel), AccessCancel))
	require.Error(t, Authorize(staff(PermClassCancel), AccessWrite))
	require.Error(t, Authorize(staff(PermManageHistory), AccessHistory), "history needs both")
	require.NoError(t, Authorize(staff(PermManageHistory, PermManage), AccessHistory))
	owner := viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New(), Org: org, Role: "owner"})
	require.NoError(t, Authorize(owner, AccessHistory))
	key := viewer.NewContext(context.Background(), viewer.APIKey{Org: org, KeyID: uuid.New(), Scopes: []string{"write:schedule"}})
	require.NoError(t, Authorize(key, AccessWrite))
	require.Error(t, Authorize(key, AccessHistory))
	require.False(t, CanSeeHistory(key))
	require.Error(t, Authorize(context.Background(), AccessRead))
}

// TestConfirmToken: a token binds the class state, the rewrite, the caller
// and its expiry.
func TestConfirmToken(t *testing.T) {
	org := uuid.New()
	ctx := viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New(), Org: org, Role: "owner"})
	now := time.Now()
	start := now.Add(-3 * time.Hour)
	c := &ent.ClassInstance{ID: uuid.New(), UpdatedAt: now.Add(-time.Hour)}
	p := HistoryParams{Operation: OpRewrite, Expected: concurrency.Of(c.UpdatedAt), EffectiveAt: now.Add(-time.Minute),
		Rewrite: Rewrite{StartTime: &start}}
	exp := now.Add(confirmTTL)
	p.Token = confirmToken(ctx, c, p, exp)
	require.NoError(t, checkConfirmToken(ctx, c, p, now))

	require.Equal(t, CodeConfirmInvalid, codeOf(t, checkConfirmToken(ctx, c, p, exp)), "expired")
	other := viewer.NewContext(context.Background(), viewer.User{UserID: uuid.New(), Org: org, Role: "owner"})
	require.Equal(t, CodeConfirmInvalid, codeOf(t, checkConfirmToken(other, c, p, now)), "another caller")
	moved := *c
	moved.UpdatedAt = now
	require.Equal(t, CodeConfirmInvalid, codeOf(t, checkConfirmToken(ctx, &moved, p, now)), "class changed")
	q := p
	later := start.Add(time.Minute)
	q.Rewrite.StartTime = &later
	require.Equal(t, CodeConfirmInvalid, codeOf(t, checkConfirmToken(ctx, c, q, now)), "another rewrite")
	q = p
	q.Token = p.Token[:len(p.Token)-2] + "xx"
	require.Equal(t, CodeConfirmInvalid, codeOf(t, checkConfirmToken(ctx, c, q, now)), "tampered")
	q.Token = ""
	require.Equal(t, CodeConfirmRequired, codeOf(t, checkConfirmToken(ctx, c, q, now)))
}

package concurrency_test

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/alert"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pgtest"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestFormat(t *testing.T) {
	cph, err := time.LoadLocation("Europe/Copenhagen")
	require.NoError(t, err)
	at := time.Date(2026, 11, 22, 11, 0, 0, 123456789, cph)
	require.Equal(t, "2026-11-22T10:00:00.123456Z", concurrency.Format(at))
	require.Equal(t, "2026-11-22T10:00:00.000000Z", concurrency.Format(time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)))
	require.Equal(t, concurrency.Format(at), concurrency.Of(at).String())
}

func TestParse(t *testing.T) {
	want := time.Date(2026, 11, 22, 10, 0, 0, 123456000, time.UTC)
	for _, s := range []string{
		"2026-11-22T10:00:00.123456000Z",
		"2026-11-22T10:00:00.123456Z",
		"2026-11-22T10:00:00.123456789Z", // finer than stored: cut to the microsecond
		"2026-11-22T11:00:00.123456+01:00",
		" 2026-11-22T10:00:00.123456Z ",
	} {
		tok, err := concurrency.Parse(s)
		require.NoError(t, err, s)
		require.True(t, tok.Time().Equal(want), s)
		require.True(t, tok.Matches(want.Add(999)), "sub-microsecond differences do not count")
		require.False(t, tok.Matches(want.Add(time.Microsecond)))
	}
	for _, tc := range []struct{ in, reason string }{
		{"", "missing"},
		{"   ", "missing"},
		{"yesterday", "malformed"},
		{"2026-11-22", "malformed"},
		{"2026-11-22 10:00:00Z", "malformed"},
		{"2026-11-22T10:00:00", "malformed"},
		{"1700000000", "malformed"},
	} {
		_, err := concurrency.Parse(tc.in)
		e := apperr.From(err)
		require.Equal(t, http.StatusBadRequest, e.Status, tc.in)
		require.Equal(t, apperr.CodeValidation, e.Code)
		require.Equal(t, "expected_updated_at", e.Details["parameter"])
		require.Equal(t, tc.reason, e.Details["reason"], tc.in)
	}
	_, err := concurrency.ParseParam("if_updated_at", "x")
	require.Equal(t, "if_updated_at", apperr.From(err).Details["parameter"])
}

// fixture is one alert of a venue, acted on by the venue's operator.
type fixture struct {
	client *ent.Client
	op     context.Context
	alert  *ent.Alert
}

func newFixture(t *testing.T, slug string) *fixture {
	t.Helper()
	client := db.NewClient(pgtest.NewPool(t))
	ctx := context.Background()
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: slug, Slug: slug})
	require.NoError(t, err)
	op := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "test"})
	a, err := client.Alert.Create().SetTitle("Boiler").Save(op)
	require.NoError(t, err)
	return &fixture{client: client, op: op, alert: a}
}

// resolve resolves the alert id under tok, as a handler would.
func (f *fixture) resolve(ctx context.Context, id uuid.UUID, tok concurrency.Token) (*ent.Alert, error) {
	return concurrency.Save(ctx, tok,
		func(ctx context.Context, at time.Time) (*ent.Alert, error) {
			return f.client.Alert.UpdateOneID(id).Where(alert.UpdatedAt(at)).
				SetResolved(true).SetResolvedAt(time.Now()).Save(ctx)
		},
		func(ctx context.Context) (time.Time, error) {
			a, err := f.client.Alert.Get(ctx, id)
			if err != nil {
				return time.Time{}, err
			}
			return a.UpdatedAt, nil
		})
}

func requireStale(t *testing.T, err error, current time.Time) {
	t.Helper()
	e := apperr.From(err)
	require.Equal(t, http.StatusConflict, e.Status, "%v", err)
	require.Equal(t, "STALE_TARGET", e.Code)
	require.Equal(t, concurrency.Format(current), e.Details["current_updated_at"])
}

func TestSaveAgainstPostgres(t *testing.T) {
	f := newFixture(t, "cas")
	// The token of the value ent returned on create (nanoseconds) matches the
	// stored row (microseconds).
	tok, err := concurrency.Parse(concurrency.Format(f.alert.UpdatedAt))
	require.NoError(t, err)

	updated, err := f.resolve(f.op, f.alert.ID, tok)
	require.NoError(t, err)
	require.True(t, updated.Resolved)
	require.NotEqual(t, concurrency.Format(f.alert.UpdatedAt), concurrency.Format(updated.UpdatedAt))

	// The old token is stale now; the answer names the current one.
	stored, err := f.client.Alert.Get(f.op, f.alert.ID)
	require.NoError(t, err)
	_, err = f.resolve(f.op, f.alert.ID, tok)
	requireStale(t, err, stored.UpdatedAt)

	// The current token (from a fresh read) works again.
	latest, err := f.resolve(f.op, f.alert.ID, concurrency.Of(stored.UpdatedAt))
	require.NoError(t, err)

	// A missing token is a 400, before any write.
	_, err = f.resolve(f.op, f.alert.ID, concurrency.Token{})
	require.Equal(t, http.StatusBadRequest, apperr.From(err).Status)

	// An unknown id and another venue's row are 404, never 409, and the
	// foreign attempt changes nothing even with the current token.
	_, err = f.resolve(f.op, uuid.New(), tok)
	require.Equal(t, http.StatusNotFound, apperr.From(err).Status)
	other := newFixture(t, "cas-other")
	_, err = f.resolve(other.op, f.alert.ID, concurrency.Of(latest.UpdatedAt))
	require.Equal(t, http.StatusNotFound, apperr.From(err).Status)
	again, err := f.client.Alert.Get(f.op, f.alert.ID)
	require.NoError(t, err)
	require.True(t, concurrency.Of(latest.UpdatedAt).Matches(again.UpdatedAt))
}

// TestOneWriterWins races writers holding the same token: exactly one
// applies, the others get STALE_TARGET.
func TestOneWriterWins(t *testing.T) {
	f := newFixture(t, "race")
	tok := concurrency.Of(f.alert.UpdatedAt)
	var ok, stale atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			_, err := f.resolve(f.op, f.alert.ID, tok)
			switch {
			case err == nil:
				ok.Add(1)
			case apperr.From(err).Code == "STALE_TARGET":
				stale.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	require.Equal(t, int32(1), ok.Load())
	require.Equal(t, int32(19), stale.Load())
}

func TestSaveCount(t *testing.T) {
	f := newFixture(t, "bulk")
	tok := concurrency.Of(f.alert.UpdatedAt)
	save := func(ctx context.Context, at time.Time) (int, error) {
		return f.client.Alert.Update().Where(alert.ID(f.alert.ID), alert.UpdatedAt(at)).SetMessage("checked").Save(ctx)
	}
	current := func(ctx context.Context) (time.Time, error) {
		a, err := f.client.Alert.Get(ctx, f.alert.ID)
		if err != nil {
			return time.Time{}, err
		}
		return a.UpdatedAt, nil
	}
	n, err := concurrency.SaveCount(f.op, tok, save, current)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	now, err := current(f.op)
	require.NoError(t, err)
	_, err = concurrency.SaveCount(f.op, tok, save, current)
	requireStale(t, err, now)
}

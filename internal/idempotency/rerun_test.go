package idempotency_test

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/apperr"
)

// TestRerunUnknown: a 409 UNKNOWN_WRITE_OUTCOME is stored and replayed like
// any answer below 500, except for an operation whose policy reruns it:
// there the key is released, the same key runs the operation again (which
// looks its first write's outcome up), and that final answer is stored
// and replayed.
func TestRerunUnknown(t *testing.T) {
	e := newTestEnv(t)
	var runs atomic.Int32
	e.set(func(context.Context, []byte) (int, any, error) {
		if runs.Add(1) == 1 {
			return 0, nil, &apperr.Error{Status: http.StatusConflict, Code: "UNKNOWN_WRITE_OUTCOME", Message: "lost"}
		}
		return http.StatusCreated, map[string]any{"run": runs.Load()}, nil
	})
	key := uuid.NewString()
	requireCode(t, e.do(t, request{key: key, body: `{}`}), http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	requireCode(t, e.do(t, request{key: key, body: `{}`}), http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	require.Equal(t, int32(1), runs.Load(), "stored and replayed without the policy")

	runs.Store(0)
	settle := request{path: "/api/v1/settles", key: uuid.NewString(), body: `{}`}
	requireCode(t, e.do(t, settle), http.StatusConflict, "UNKNOWN_WRITE_OUTCOME")
	require.Equal(t, http.StatusCreated, e.do(t, settle).Code, "the same key runs again")
	again := e.do(t, settle)
	require.Equal(t, http.StatusCreated, again.Code)
	require.Equal(t, "true", again.Header().Get("Idempotent-Replayed"), "the final answer is stored")
	require.Equal(t, int32(2), runs.Load())
}

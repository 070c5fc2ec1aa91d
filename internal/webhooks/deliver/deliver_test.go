package deliver_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/webhooks/deliver"
)

// local allows the loopback receivers of httptest.
var local = deliver.Options{AllowPrivate: true, AllowHTTP: true}

func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func TestSendDelivered(t *testing.T) {
	var got *http.Request
	var gotBody []byte
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		got = r
		gotBody, _ = io.ReadAll(r.Body)
		_, _ = io.WriteString(w, `{"ok":true}`)
	})
	h := http.Header{}
	h.Set("webhook-id", "msg_1")
	a := deliver.New(local).Send(context.Background(), deliver.Request{URL: srv.URL + "/hook", Header: h, Body: []byte(`{"a":1}`)})

	require.Equal(t, deliver.ClassDelivered, a.Class)
	require.False(t, a.Class.Retry())
	require.Equal(t, http.StatusOK, a.Status)
	require.Empty(t, a.Error)
	require.Equal(t, `{"ok":true}`, a.ResponseSnippet)
	require.NotEmpty(t, a.CorrelationID)
	require.Positive(t, a.Duration)
	require.Equal(t, http.MethodPost, got.Method)
	require.Equal(t, "/hook", got.URL.Path)
	require.Equal(t, "msg_1", got.Header.Get("webhook-id"))
	require.Equal(t, "application/json", got.Header.Get("Content-Type"))
	require.Equal(t, a.CorrelationID, got.Header.Get(deliver.HeaderCorrelationID))
	require.Equal(t, `{"a":1}`, string(gotBody))
}

func TestSendClassifiesStatuses(t *testing.T) {
	for _, tc := range []struct {
		status int
		class  deliver.Class
		retry  bool
	}{
		{http.StatusNoContent, deliver.ClassDelivered, false},
		{http.StatusAccepted, deliver.ClassDelivered, false},
		{http.StatusGone, deliver.ClassGone, false},
		{http.StatusTooManyRequests, deliver.ClassHTTPStatus, true},
		{http.StatusInternalServerError, deliver.ClassHTTPStatus, true},
		{http.StatusBadGateway, deliver.ClassHTTPStatus, true},
		{http.StatusBadRequest, deliver.ClassHTTPStatus, true},
		{http.StatusUnauthorized, deliver.ClassHTTPStatus, true},
		{http.StatusNotFound, deliver.ClassHTTPStatus, true},
	} {
		srv := serve(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(tc.status) })
		a := deliver.New(local).Send(context.Background(), deliver.Request{URL: srv.URL, CorrelationID: "corr-1"})
		require.Equal(t, tc.class, a.Class, "status %d", tc.status)
		require.Equal(t, tc.retry, a.Class.Retry(), "status %d", tc.status)
		require.Equal(t, tc.status, a.Status)
		require.Equal(t, "corr-1", a.CorrelationID)
	}
}

func TestSendReadsRetryAfter(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	a := deliver.New(local).Send(context.Background(), deliver.Request{URL: srv.URL})
	require.Equal(t, 2*time.Minute, a.RetryAfter)
}

func TestSendDoesNotFollowRedirects(t *testing.T) {
	var targetHits atomic.Int32
	target := serve(t, func(http.ResponseWriter, *http.Request) { targetHits.Add(1) })
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL, http.StatusTemporaryRedirect)
	})
	a := deliver.New(local).Send(context.Background(), deliver.Request{URL: srv.URL})
	require.Equal(t, deliver.ClassRedirect, a.Class)
	require.True(t, a.Class.Retry())
	require.Equal(t, http.StatusTemporaryRedirect, a.Status)
	require.Zero(t, targetHits.Load())
}

func TestSendTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := serve(t, func(http.ResponseWriter, *http.Request) { <-release })
	defer close(release)
	opts := local
	opts.Timeout = 100 * time.Millisecond
	a := deliver.New(opts).Send(context.Background(), deliver.Request{URL: srv.URL})
	require.Equal(t, deliver.ClassTimeout, a.Class)
	require.Zero(t, a.Status)
	require.NotContains(t, a.Error, srv.URL)
	require.Less(t, a.Duration, 2*time.Second)
}

func TestSendConnectionRefused(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + "/hook?token=secret"
	srv.Close()
	a := deliver.New(local).Send(context.Background(), deliver.Request{URL: url})
	require.Equal(t, deliver.ClassConnection, a.Class)
	require.True(t, a.Class.Retry())
	require.NotContains(t, a.Error, "token=secret")
}

func TestSendCapsTheResponse(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, strings.Repeat("é", 100_000))
	})
	opts := local
	opts.SnippetBytes = 9
	a := deliver.New(opts).Send(context.Background(), deliver.Request{URL: srv.URL})
	require.Equal(t, deliver.ClassHTTPStatus, a.Class)
	require.Equal(t, "éééé", a.ResponseSnippet) // 8 bytes: the split rune is dropped
}

func TestSendRefusesWithoutAllowances(t *testing.T) {
	var hits atomic.Int32
	srv := serve(t, func(http.ResponseWriter, *http.Request) { hits.Add(1) })

	a := deliver.New(deliver.Options{}).Send(context.Background(), deliver.Request{URL: srv.URL})
	require.Equal(t, deliver.ClassInvalidURL, a.Class, "plain http")
	require.False(t, a.Class.Retry())

	a = deliver.New(deliver.Options{AllowHTTP: true}).Send(context.Background(), deliver.Request{URL: srv.URL})
	require.Equal(t, deliver.ClassBlocked, a.Class, "loopback")
	require.True(t, a.Class.Retry())
	require.Zero(t, hits.Load())
}

package httpx

import (
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/venueplatform/venue/internal/apperr"
)

// CodeRequestTimeout is the error code of a request body that did not arrive
// within the body timeout (408).
const CodeRequestTimeout = "REQUEST_TIMEOUT"

// BodyTimeout is the error a request body read returns once the body
// timeout d has passed: 408 REQUEST_TIMEOUT with details.body_timeout_seconds.
// The generated server's error mapping finds it in the chain of the decode
// error, so the answer is the error envelope.
func BodyTimeout(d time.Duration, cause error) *apperr.Error {
	return (&apperr.Error{Status: http.StatusRequestTimeout, Code: CodeRequestTimeout,
		Message: "the request body did not arrive in time", Cause: cause}).
		With("body_timeout_seconds", d.Seconds())
}

// BodyDeadline gives every request that carries a body d, from the moment
// its handler starts, to deliver the whole body: a read deadline on the
// connection (http.ResponseController), so a client trickling its body is
// cut. The read that meets the deadline answers the request at once with
// 408 REQUEST_TIMEOUT in the error envelope (Connection: close; the rest of
// the body is never read) and fails with BodyTimeout; whatever the reader
// then writes is dropped, so every layer that reads a body (the input gate,
// idempotency, the generated decoders, MCP) gives the same answer.
//
// The deadline is lifted once the body has been read to its end: the
// server's own read of an idle connection would otherwise hit it and cancel
// the request's context, so a long answer (an MCP call, an export) after a
// quick body is unaffected. Requests without a body get no deadline for the
// same reason. It is per request, unlike http.Server.ReadTimeout, which
// would start at the headers and bound every answer.
func BodyDeadline(d time.Duration, next http.Handler) http.Handler {
	if d <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
			rc := http.NewResponseController(w)
			if rc.SetReadDeadline(time.Now().Add(d)) == nil {
				tw := &timeoutWriter{ResponseWriter: w}
				r.Body = &deadlineBody{ReadCloser: r.Body, w: tw, r: r, rc: rc, limit: d}
				w = tw
			}
		}
		next.ServeHTTP(w, r)
	})
}

// deadlineBody is a request body under BodyDeadline.
type deadlineBody struct {
	io.ReadCloser
	w     *timeoutWriter
	r     *http.Request
	rc    *http.ResponseController
	limit time.Duration
	done  bool
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	switch {
	case err == nil:
	case err == io.EOF:
		if !b.done {
			b.done = true
			_ = b.rc.SetReadDeadline(time.Time{})
		}
	case errors.Is(err, os.ErrDeadlineExceeded):
		e := BodyTimeout(b.limit, err)
		b.w.answer(b.r, e)
		err = e
	}
	return n, err
}

// timeoutWriter answers a body timeout and drops what is written after it.
type timeoutWriter struct {
	http.ResponseWriter
	wrote, timedOut bool
}

func (t *timeoutWriter) answer(r *http.Request, e *apperr.Error) {
	if t.timedOut || t.wrote {
		return // an answer has begun: the connection just ends
	}
	t.timedOut = true
	// The rest of the body is still on the wire: the connection cannot
	// carry another request.
	t.ResponseWriter.Header().Set("Connection", "close")
	WriteError(t.ResponseWriter, r, e)
}

func (t *timeoutWriter) WriteHeader(code int) {
	if !t.timedOut {
		t.wrote = true
		t.ResponseWriter.WriteHeader(code)
	}
}

func (t *timeoutWriter) Write(b []byte) (int, error) {
	if t.timedOut {
		return len(b), nil
	}
	t.wrote = true
	return t.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (t *timeoutWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }

// StreamWrites turns the server's write timeout into a stall limit for a
// route whose answers may legitimately take long or stream (MCP): the
// deadline http.Server.WriteTimeout set when the request arrived is lifted,
// and every write or flush gets d from its own start instead. An answer may
// then run as long as it keeps moving, while a client that stops reading is
// still cut after d.
func StreamWrites(d time.Duration, next http.Handler) http.Handler {
	if d <= 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		if rc.SetWriteDeadline(time.Time{}) != nil {
			next.ServeHTTP(w, r)
			return
		}
		sw := &streamWriter{ResponseWriter: w, rc: rc, d: d}
		// The buffered end of the answer is written after the handler
		// returns: it gets its own d.
		defer sw.extend()
		next.ServeHTTP(sw, r)
	})
}

// streamWriter moves the write deadline before each write.
type streamWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (s *streamWriter) extend() { _ = s.rc.SetWriteDeadline(time.Now().Add(s.d)) }

func (s *streamWriter) Write(b []byte) (int, error) {
	s.extend()
	return s.ResponseWriter.Write(b)
}

// Flush implements http.Flusher.
func (s *streamWriter) Flush() {
	s.extend()
	_ = s.rc.Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (s *streamWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

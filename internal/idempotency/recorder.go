package idempotency

import (
	"bytes"
	"net/http"
)

// recorder passes a response through to the client while keeping a copy of
// its status, chosen headers and body for the store. Once the hook decides
// to replay, it swallows what the server writes instead.
type recorder struct {
	w       http.ResponseWriter
	keep    []string
	max     int
	status  int
	header  map[string]string
	body    bytes.Buffer
	over    bool
	discard bool
	sink    http.Header
}

func newRecorder(w http.ResponseWriter, keep []string, maxBody int) *recorder {
	return &recorder{w: w, keep: keep, max: maxBody}
}

// Header implements http.ResponseWriter.
func (r *recorder) Header() http.Header {
	if r.discard {
		if r.sink == nil {
			r.sink = http.Header{}
		}
		return r.sink
	}
	return r.w.Header()
}

// WriteHeader implements http.ResponseWriter.
func (r *recorder) WriteHeader(code int) {
	if r.discard {
		return
	}
	if r.status == 0 && code >= 200 {
		r.status = code
		r.header = map[string]string{}
		for _, name := range r.keep {
			if v := r.w.Header().Values(name); len(v) > 0 {
				r.header[http.CanonicalHeaderKey(name)] = joinValues(v)
			}
		}
	}
	r.w.WriteHeader(code)
}

// Write implements http.ResponseWriter.
func (r *recorder) Write(b []byte) (int, error) {
	if r.discard {
		return len(b), nil
	}
	if r.status == 0 {
		r.WriteHeader(http.StatusOK)
	}
	if !r.over {
		if r.body.Len()+len(b) > r.max {
			r.over = true
			r.body = bytes.Buffer{}
		} else {
			r.body.Write(b)
		}
	}
	return r.w.Write(b)
}

// Flush implements http.Flusher.
func (r *recorder) Flush() {
	if f, ok := r.w.(http.Flusher); ok && !r.discard {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (r *recorder) Unwrap() http.ResponseWriter { return r.w }

// response is what was recorded, as stored.
func (r *recorder) response() Response {
	status := r.status
	if status == 0 {
		status = http.StatusOK // the handler wrote nothing: net/http answers 200
	}
	return Response{Status: status, Header: r.header, Body: bytes.Clone(r.body.Bytes())}
}

// replay writes a stored answer to w.
func replay(w http.ResponseWriter, resp *Response) {
	h := w.Header()
	for k, v := range resp.Header {
		h.Set(k, v)
	}
	h.Set(ReplayedHeader, "true")
	w.WriteHeader(resp.Status)
	_, _ = w.Write(resp.Body)
}

func joinValues(v []string) string {
	if len(v) == 1 {
		return v[0]
	}
	var b bytes.Buffer
	for i, s := range v {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s)
	}
	return b.String()
}

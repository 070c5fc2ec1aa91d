package server

import (
	"net/http"
	"time"
)

// responseFloor holds every answer to path until floor has passed since the
// request arrived, whatever the answer: the account-state check's minimum
// response time covers its 400s and 429s too, so no answer of that endpoint
// comes back sooner than the others.
func responseFloor(path string, floor time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != path {
			next.ServeHTTP(w, r)
			return
		}
		fw := &floorWriter{ResponseWriter: w, r: r, until: time.Now().Add(floor)}
		next.ServeHTTP(fw, r)
		fw.wait()
	})
}

// floorWriter waits for its time before the first byte of the answer.
type floorWriter struct {
	http.ResponseWriter
	r      *http.Request
	until  time.Time
	waited bool
}

func (f *floorWriter) wait() {
	if f.waited {
		return
	}
	f.waited = true
	t := time.NewTimer(time.Until(f.until))
	defer t.Stop()
	select {
	case <-t.C:
	case <-f.r.Context().Done():
	}
}

func (f *floorWriter) WriteHeader(code int) {
	f.wait()
	f.ResponseWriter.WriteHeader(code)
}

func (f *floorWriter) Write(b []byte) (int, error) {
	f.wait()
	return f.ResponseWriter.Write(b)
}

// Unwrap gives http.ResponseController the writer underneath.
func (f *floorWriter) Unwrap() http.ResponseWriter { return f.ResponseWriter }

package httpx

import (
	"context"
	"net/http"
	"net/url"
)

// operation is what FindOperation learnt of a request's route: the
// operation id, and whether the router knew the path at all.
type operation struct {
	id    string
	found bool
}

type operationKey struct{}

// WithOperation returns ctx naming the REST operation its request was
// routed to (found false: the router knows no operation for it).
func WithOperation(ctx context.Context, id string, found bool) context.Context {
	return context.WithValue(ctx, operationKey{}, operation{id: id, found: found})
}

// Operation returns the operation id FindOperation put in r's context. Every
// per-request concern that depends on the operation (rate limits,
// idempotency, credential gates) reads it here, so the router is consulted
// once per request; outside FindOperation it reports false.
func Operation(r *http.Request) (string, bool) {
	op, _ := r.Context().Value(operationKey{}).(operation)
	return op.id, op.found
}

// FindOperation names the operation of every request once, with find (the
// generated server's FindPath), and puts it in the context for Operation.
// Install it outside every handler that reads Operation.
func FindOperation(find func(method string, u *url.URL) (operationID string, ok bool), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := find(r.Method, r.URL)
		next.ServeHTTP(w, r.WithContext(WithOperation(r.Context(), id, ok)))
	})
}

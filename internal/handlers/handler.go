// Package handlers implements the REST operations of spec/api.yaml: typed
// params from the generated server, one domain or ent call, a typed response.
// Tenancy is not decided here: the viewer put in the context by the security
// handler (or the public-venue context) is what the ent policies filter by.
package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"regexp"
	"time"

	"github.com/go-faster/jx"
	"github.com/ogen-go/ogen/ogenerrors"
	"github.com/ogen-go/ogen/openapi"
	"github.com/ogen-go/ogen/validate"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/auth"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/input"
	"github.com/venueplatform/venue/internal/me"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// Handler implements api.Handler. The embedded UnimplementedHandler only lets
// an operation be added to the spec before its handler lands;
// TestEveryOperationImplemented fails while any operation falls back to it.
type Handler struct {
	api.UnimplementedHandler

	client *ent.Client
	auth   *auth.Authenticator
	log    *slog.Logger
	now    func() time.Time
	acct   *accounts.Service
	me     *me.Service
	inq    *inquiryDeps
	pay    *payments.Service
	set    Settings
}

var _ api.Handler = (*Handler)(nil)

// New returns a Handler.
func New(client *ent.Client, authn *auth.Authenticator, log *slog.Logger) *Handler {
	h := &Handler{client: client, auth: authn, log: log, now: time.Now, me: me.New(client)}
	h.inq = newInquiryDeps(h)
	return h
}

// NewServer returns the generated REST server wired with h, its security
// handler and the contract's error envelope for every failure path.
func NewServer(h *Handler, extra ...api.ServerOption) (*api.Server, error) {
	opts := []api.ServerOption{
		api.WithPathPrefix("/api/v1"),
		api.WithErrorHandler(h.errorHandler),
		api.WithNotFound(func(w http.ResponseWriter, r *http.Request) {
			httpx.WriteError(w, r, apperr.NotFound("route"))
		}),
		api.WithMethodNotAllowed(func(w http.ResponseWriter, r *http.Request, allowed string) {
			w.Header().Set("Allow", allowed)
			httpx.WriteError(w, r, &apperr.Error{Status: http.StatusMethodNotAllowed, Code: "METHOD_NOT_ALLOWED", Message: "method not allowed"})
		}),
	}
	if h.acct == nil {
		a, err := accounts.New(h.client, accounts.Config{Log: h.log})
		if err != nil {
			return nil, err
		}
		h.acct = a
	}
	h.me.MFAEnabled = h.acct.MFAEnabled
	return api.NewServer(h, &Security{auth: h.auth, acct: h.acct, log: h.log}, append(opts, extra...)...)
}

// NewError maps an operation's error to the error envelope (the generated
// server's "convenient errors" hook): one mapping for every operation.
func (h *Handler) NewError(ctx context.Context, err error) *api.ErrorStatusCode {
	e := h.classify(ctx, err)
	body := httpx.Body(ctx, e)
	details := api.ErrorDetails{RequestID: httpx.RequestID(ctx)}
	for k, v := range body.Details {
		switch k {
		case "request_id":
		case "reason":
			details.Reason = api.NewOptString(v.(string))
		case "parameter":
			details.Parameter = api.NewOptString(v.(string))
		case "required_scopes":
			details.RequiredScopes = v.([]string)
		default:
			raw, merr := json.Marshal(v)
			if merr == nil {
				if details.AdditionalProps == nil {
					details.AdditionalProps = api.ErrorDetailsAdditional{}
				}
				details.AdditionalProps[k] = jx.Raw(raw)
			}
		}
	}
	return &api.ErrorStatusCode{
		StatusCode: e.Status,
		Response: api.ErrorResponse{Error: api.Error{
			Code: e.Code, Message: e.Message, Details: details,
		}},
	}
}

// errorHandler answers failures the generated server handles itself
// (malformed parameters or bodies) with the error envelope.
func (h *Handler) errorHandler(ctx context.Context, w http.ResponseWriter, r *http.Request, err error) {
	var paramErr *ogenerrors.DecodeParamError
	if errors.As(err, &paramErr) && paramErr.In == openapi.LocationHeader && paramErr.Name == idempotency.Header {
		// A required key that is missing, or one breaking the shared
		// IdempotencyKeyRequired parameter (1 to 200 characters): the
		// idempotency conventions' own 400.
		e := idempotency.MissingKey()
		if r.Header.Get(idempotency.Header) != "" {
			e = idempotency.MalformedKey(idempotency.Max200)
		}
		httpx.WriteError(w, r.WithContext(ctx), e)
		return
	}
	httpx.WriteError(w, r.WithContext(ctx), h.classify(ctx, err))
}

// classify turns any error into an apperr.Error and logs the ones that are
// the server's fault.
func (h *Handler) classify(ctx context.Context, err error) *apperr.Error {
	var (
		secErr   *ogenerrors.SecurityError
		paramErr *ogenerrors.DecodeParamError
		bodyErr  *ogenerrors.DecodeBodyError
		reqErr   *ogenerrors.DecodeRequestError
		tooBig   *http.MaxBytesError
		ctErr    *validate.InvalidContentTypeError
		e        *apperr.Error
	)
	switch {
	case errors.As(err, &e):
	case errors.As(err, &paramErr) && paramErr.In == openapi.LocationPath:
		// A malformed id, slug or code in the path names nothing: the
		// contract's 404 for unknown, foreign or malformed ids.
		e = PathNotFound(paramErr.Name)
	case errors.As(err, &paramErr):
		e = apperr.Validation(paramErr.Name, "invalid value for "+paramErr.Name)
	case errors.As(err, &tooBig):
		// The body cap of httpx.Middleware, met while the body was read.
		e = httpx.TooLarge(tooBig.Limit)
	case errors.As(err, &ctErr):
		e = apperr.Validation("Content-Type", "the request body must be application/json")
	case errors.Is(err, validate.ErrBodyRequired):
		e = apperr.Validation("body", "a request body is required")
	case errors.As(err, &bodyErr), errors.As(err, &reqErr):
		// A body that does not decode, or breaks the schema (a missing
		// required field, a malformed value, an unknown field, a length,
		// range, enumeration or pattern): name the first offending field.
		if field := bodyField(err); field != "" {
			e = apperr.Validation(field, "invalid value for "+field)
		} else {
			e = apperr.Validation("body", "malformed request body")
		}
	case errors.As(err, &secErr):
		e = apperr.Unauthorized("missing or invalid credentials")
	default:
		e = apperr.From(err)
	}
	if e.Status >= 500 {
		h.log.ErrorContext(ctx, "request failed", "request_id", httpx.RequestID(ctx), "error", err)
	}
	return e
}

// bodyFieldPattern finds the field a generated decoder failed on:
// `decode field "name"` (a malformed value) or `unexpected field "name"`.
var bodyFieldPattern = regexp.MustCompile(`(?:decode|unexpected) field "([^"]+)"`)

// bodyField names the first field of the body err is about, or "". An
// unexpected field's name is the caller's: it is bounded (input.Echo), and
// the decoder's own text never goes further than this match.
func bodyField(err error) string {
	var valErr *validate.Error
	if errors.As(err, &valErr) && len(valErr.Fields) > 0 && valErr.Fields[0].Name != "" {
		return input.Echo(valErr.Fields[0].Name)
	}
	if m := bodyFieldPattern.FindStringSubmatch(err.Error()); m != nil {
		return input.Echo(m[1])
	}
	return ""
}

// brandNotFound is the 404 of a brand slug that names no active brand.
func brandNotFound() *apperr.Error {
	return &apperr.Error{Status: http.StatusNotFound, Code: "BRAND_NOT_FOUND", Message: "brand not found"}
}

// PathNotFound is the 404 of a path parameter that cannot name anything:
// the same answer the operation gives for a well-formed unknown value. The
// input gate (httpx.Gate) answers with it too, so a malformed value gives
// the same 404 whether the gate or a decoder refuses it.
func PathNotFound(param string) *apperr.Error {
	switch param {
	case "slug":
		return apperr.NotFound("venue")
	case "code":
		return apperr.NotFound("gift card")
	case "brandSlug":
		return brandNotFound()
	default:
		return apperr.NotFound("resource")
	}
}

// venueContext resolves a venue path slug for a public read. An API key may
// read only its own venue: another venue's slug is 404, like an unknown one.
// Anonymous callers act as public visitors of the venue.
func (h *Handler) venueContext(ctx context.Context, slug string) (context.Context, *ent.Organization, error) {
	org, err := venue.Lookup(ctx, h.client, venue.Ref{Slug: slug})
	if ent.IsNotFound(err) {
		return nil, nil, apperr.NotFound("venue")
	}
	if err != nil {
		return nil, nil, err
	}
	if vw := viewer.FromContext(ctx); vw != nil {
		if id, ok := vw.Venue(); !ok || id != org.ID {
			return nil, nil, apperr.NotFound("venue")
		}
		return ctx, org, nil
	}
	return system.Identify(ctx, "venue.public_visitor", viewer.Public{Org: org.ID}), org, nil
}

package handlers

import (
	"context"
	"errors"
	"log/slog"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/service"

	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/inquiries"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/pagination"
)

// inquiryDeps are the booking inquiry service and the cursor signer of the
// inquiry list, built once per Handler from configuration.
type inquiryDeps struct {
	svc     *inquiries.Service
	cursors *pagination.Signer
	err     error
}

// failingNotifier stands in for a misconfigured staff relay: every delivery
// fails, so inquiries are stored and answered 503 INQUIRY_RECONCILE_FAILED
// (and the configuration error is logged at start) rather than reported as
// delivered.
type failingNotifier struct{ err error }

func (f failingNotifier) NotifyStaff(context.Context, inquiries.Notice) error { return f.err }

func newInquiryDeps(h *Handler) *inquiryDeps {
	log := h.log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	n, err := inquiries.NotifierFor(h.set.Inquiries, log)
	if err != nil {
		log.Error("booking inquiries cannot reach venue staff", "error", err)
		n = failingNotifier{err: err}
	}
	d := &inquiryDeps{svc: inquiries.New(h.client, n, log)}
	d.cursors, d.err = h.cursorSigner()
	return d
}

// CreateVenueInquiry implements api.Handler.
func (h *Handler) CreateVenueInquiry(ctx context.Context, req *api.InquiryCreateRequest, params api.CreateVenueInquiryParams) (*api.InquiryCreateResponseHeaders, error) {
	p := inquiries.FileParams{
		ServiceID: req.ServiceID, PreferredTime: req.PreferredTime.Value, Message: req.Message.Value,
		ContactName: req.ContactName.Value, ContactEmail: req.ContactEmail.Value, ContactPhone: req.ContactPhone.Value,
	}
	// The idempotency guard has checked and claimed the key (a UUID, lower
	// case) when one was sent.
	if k, ok := idempotency.KeyFromContext(ctx); ok {
		p.RequestID = k.Key
	}
	filed, err := h.inq.svc.File(ctx, params.Slug, p)
	if errors.Is(err, inquiries.ErrRequestReused) {
		// The inquiry's request id is this request's Idempotency-Key: a
		// retry with another body is the key's reuse mismatch.
		return nil, idempotency.KeyMismatch()
	}
	var e *apperr.Error
	if errors.As(err, &e) && e.Code == inquiries.CodeReconcileFailed {
		// details.request_id of this error is the inquiry's request id, the
		// Idempotency-Key to retry with (rest-api.md, inquiry retry rule).
		rid, _ := e.Details["request_id"].(string)
		return nil, h.NewError(httpx.WithRequestID(ctx, rid), err)
	}
	if err != nil {
		return nil, err
	}
	return &api.InquiryCreateResponseHeaders{
		IdempotencyKey: uuid.MustParse(filed.RequestID),
		Response:       api.InquiryCreateResponse{Data: api.InquiryCreated{ID: filed.Inquiry.ID}},
	}, nil
}

// ListMyInquiries implements api.Handler.
func (h *Handler) ListMyInquiries(ctx context.Context, params api.ListMyInquiriesParams) (*api.InquiryListResponse, error) {
	if h.inq.err != nil {
		return nil, apperr.Internal(h.inq.err)
	}
	limit, err := pagination.CursorLists.ParseLimit(pagination.Value(params.Limit.Value, params.Limit.Set))
	if err != nil {
		return nil, err
	}
	rows, meta, err := h.inq.svc.Mine(ctx, h.inq.cursors, limit, params.After.Value)
	if err != nil {
		return nil, err
	}
	out := &api.InquiryListResponse{Data: make([]api.InquiryListItem, 0, len(rows)),
		Meta: api.InquiryListMeta{Limit: meta.Limit, HasMore: meta.HasMore}}
	if meta.NextCursor != nil {
		out.Meta.NextCursor = api.NewNilString(*meta.NextCursor)
	} else {
		out.Meta.NextCursor.SetToNull()
	}
	for _, r := range rows {
		item := api.InquiryListItem{
			ID: r.Inquiry.ID, ServiceName: r.Inquiry.ServiceName, PreferredTime: r.Inquiry.PreferredTime,
			Status: inquiries.StatusText(r.Inquiry.Status), StatusKey: api.InquiryStatusKey(r.Inquiry.Status),
			CreatedAt: r.Inquiry.CreatedAt.UTC(),
		}
		if r.Venue != nil {
			item.Venue = api.InquiryVenue{Slug: r.Venue.Slug, Name: r.Venue.Name}
		}
		out.Data = append(out.Data, item)
	}
	return out, nil
}

// ListVenueServices implements api.Handler: the venue's active, listed
// services, read as a public visitor of the venue.
func (h *Handler) ListVenueServices(ctx context.Context, p api.ListVenueServicesParams) (*api.InquiryServiceListResponse, error) {
	ctx, _, err := h.venueContext(ctx, p.Slug)
	if err != nil {
		return nil, err
	}
	q := h.client.Service.Query().Where(service.IsActive(true), service.Listed(true))
	if p.AcceptsInquiries.Set {
		q.Where(service.AcceptsInquiries(p.AcceptsInquiries.Value))
	}
	rows, err := q.Order(ent.Asc(service.FieldSortOrder), ent.Asc(service.FieldName), ent.Asc(service.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := &api.InquiryServiceListResponse{Data: make([]api.InquiryService, 0, len(rows)), Meta: api.ListMeta{Total: len(rows)}}
	for _, r := range rows {
		item := api.InquiryService{
			ID: r.ID, Name: r.Name, Slug: r.Slug, Description: r.Description, Category: r.Category,
			DurationMinutes: r.DurationMinutes, PriceAmount: money.ToMajor(r.PriceMinor, r.Currency),
			PriceMinor: r.PriceMinor, Currency: r.Currency, AcceptsInquiries: r.AcceptsInquiries,
		}
		if r.ImageURL != "" {
			item.ImageURL = api.NewOptNilString(r.ImageURL)
		} else {
			item.ImageURL.SetToNull()
		}
		out.Data = append(out.Data, item)
	}
	return out, nil
}

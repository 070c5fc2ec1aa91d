package handlers

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/booking"
	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/viewer"
)

// asAppointmentMember resolves a member call in venue org: the signed-in
// user acting as their relationship with it.
func (h *Handler) asAppointmentMember(ctx context.Context, org uuid.UUID) (context.Context, appointments.Actor, error) {
	if org == uuid.Nil {
		return nil, appointments.Actor{}, apperr.Validation("X-Organization-ID", "X-Organization-ID (or organization_id) names the venue")
	}
	mctx, a, err := booking.AsMember(ctx, h.client, org)
	if err != nil {
		return nil, appointments.Actor{}, err
	}
	return mctx, appointments.Actor{Member: a.Member, Self: true, Via: entappointment.BookedViaMember}, nil
}

// providerParam parses a provider_id that is a UUID or "any" (nil).
func providerParam(name, v string) (*uuid.UUID, error) {
	if v == "" || v == "any" {
		return nil, nil
	}
	id, err := uuid.Parse(v)
	if err != nil {
		return nil, apperr.Validation(name, name+" must be a provider id or any")
	}
	return &id, nil
}

// localDate is the venue-local calendar date of a date parameter (decoded
// as UTC midnight), at local noon.
func localDate(d time.Time, loc *time.Location) time.Time {
	return time.Date(d.Year(), d.Month(), d.Day(), 12, 0, 0, 0, loc)
}

// GetAppointmentAvailability implements getAppointmentAvailability.
func (h *Handler) GetAppointmentAvailability(ctx context.Context, p api.GetAppointmentAvailabilityParams) (*api.AppointmentAvailabilityResponse, error) {
	mctx, _, err := h.asAppointmentMember(ctx, p.OrganizationID.Or(p.XOrganizationID.Or(uuid.Nil)))
	if err != nil {
		return nil, err
	}
	provider, err := providerParam("provider_id", p.ProviderID.Or(""))
	if err != nil {
		return nil, err
	}
	v, err := appointments.LoadVenue(mctx, h.client)
	if err != nil {
		return nil, err
	}
	to := p.To.Or(p.From)
	q := appointments.Query{ServiceID: p.ServiceID, VariantID: optUUID(p.VariantID), ProviderID: provider,
		LocationID: optUUID(p.LocationID), From: localDate(p.From, v.Loc), To: localDate(to, v.Loc),
		Now: h.now(), SelfService: true}
	av, err := appointments.Compute(mctx, h.client, v, q)
	if err != nil {
		return nil, err
	}
	return &api.AppointmentAvailabilityResponse{Data: availabilityOut(av, p.From, to)}, nil
}

func availabilityOut(av *appointments.Availability, from, to time.Time) api.AppointmentAvailability {
	out := api.AppointmentAvailability{ServiceID: av.Service.ID, VariantID: api.NilUUID{Null: true},
		Timezone: av.Timezone, SlotIntervalMinutes: int(av.Interval / time.Minute), From: from, To: to,
		Slots: make([]api.AppointmentSlot, 0, len(av.Slots))}
	if av.Variant != nil {
		out.VariantID = api.NewNilUUID(av.Variant.ID)
	}
	for _, s := range av.Slots {
		out.Slots = append(out.Slots, api.AppointmentSlot{StartTime: s.Start.UTC(), EndTime: s.End.UTC(), ProviderIds: s.Providers})
	}
	return out
}

// CreateAppointment implements createAppointment.
func (h *Handler) CreateAppointment(ctx context.Context, req *api.AppointmentCreateRequest, p api.CreateAppointmentParams) (*api.AppointmentResponse, error) {
	mctx, a, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	provider, err := providerParam("provider_id", req.ProviderID.Or(""))
	if err != nil {
		return nil, err
	}
	r := appointments.Request{ServiceID: req.ServiceID, VariantID: optUUID(req.VariantID), ProviderID: provider,
		LocationID: optUUID(req.LocationID), Start: req.StartTime, PassID: optUUID(req.PassID), Notes: req.Notes.Or("")}
	if c, ok := req.PaymentChoice.Get(); ok {
		r.PaymentChoice = string(c)
	}
	ap, err := appointments.Book(mctx, h.client, a, r, h.now())
	if err != nil {
		return nil, err
	}
	svc, err := h.client.Service.Get(mctx, ap.ServiceID)
	if err != nil {
		return nil, err
	}
	ap.Edges.Service = svc
	return &api.AppointmentResponse{Data: appointmentOut(ap)}, nil
}

// memberAppointment reads the user's own appointment id (in org when given)
// and returns the context acting as its member.
func (h *Handler) memberAppointment(ctx context.Context, id uuid.UUID, org uuid.UUID) (context.Context, appointments.Actor, *ent.Appointment, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, appointments.Actor{}, nil, apperr.Unauthorized("a user session is required")
	}
	ap, err := appointments.GetOwn(ctx, h.client, u.UserID, id)
	if err != nil {
		return nil, appointments.Actor{}, nil, err
	}
	if org != uuid.Nil && ap.OrganizationID != org {
		return nil, appointments.Actor{}, nil, appointments.ErrNotFound
	}
	mctx, a, err := h.asAppointmentMember(ctx, ap.OrganizationID)
	if err != nil {
		return nil, appointments.Actor{}, nil, err
	}
	return mctx, a, ap, nil
}

// GetAppointment implements getAppointment.
func (h *Handler) GetAppointment(ctx context.Context, p api.GetAppointmentParams) (*api.AppointmentResponse, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, apperr.Unauthorized("a user session is required")
	}
	ap, err := appointments.GetOwn(ctx, h.client, u.UserID, p.ID)
	if err != nil {
		return nil, err
	}
	if org, ok := p.OrganizationID.Get(); ok && org != ap.OrganizationID {
		return nil, appointments.ErrNotFound
	}
	return &api.AppointmentResponse{Data: appointmentOut(ap)}, nil
}

// CancelAppointment implements cancelAppointment.
func (h *Handler) CancelAppointment(ctx context.Context, p api.CancelAppointmentParams) (*api.AppointmentResponse, error) {
	tok, err := concurrency.ParseParam("updated_at", p.UpdatedAt.Or(""))
	if err != nil {
		return nil, err
	}
	mctx, a, _, err := h.memberAppointment(ctx, p.ID, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	ap, rf, err := appointments.CancelWith(mctx, h.client, a, p.ID, tok, "member", h.now(),
		appointments.CancelOptions{AcceptRefundTerms: p.AcceptRefundTerms.Or(false), Pay: h.payments()})
	if err != nil {
		return nil, err
	}
	out := appointmentOut(ap)
	out.Refund = cancelRefundOut(rf)
	return &api.AppointmentResponse{Data: out}, nil
}

// cancelRefundOut is the API shape of a cancel's refund (unset: none).
func cancelRefundOut(rf *appointments.CancelRefund) api.OptAppointmentCancelRefund {
	if rf == nil {
		return api.OptAppointmentCancelRefund{}
	}
	return api.NewOptAppointmentCancelRefund(api.AppointmentCancelRefund{Status: api.AppointmentCancelRefundStatus(rf.Status),
		AmountMinor: rf.AmountMinor, Amount: money.ToMajor(rf.AmountMinor, rf.Currency), FeeWithheldMinor: rf.FeeWithheldMinor,
		Currency: rf.Currency, RefundID: nilUUIDOf(rf.RefundID)})
}

// refundQuoteOut is the API shape of a cancel preview's refund.
func refundQuoteOut(q *appointments.RefundQuote) api.NilAppointmentRefundQuote {
	if q == nil {
		return api.NilAppointmentRefundQuote{Null: true}
	}
	out := api.AppointmentRefundQuote{Scope: api.AppointmentRefundQuoteScope(q.Scope), PaidMinor: q.PaidMinor,
		FeeWithheldMinor: q.FeeWithheldMinor, AmountMinor: q.AmountMinor, Amount: money.ToMajor(q.AmountMinor, q.Currency),
		Currency: q.Currency, Terms: api.NilString{Null: true}, Available: q.Unavailable == ""}
	if q.Terms != nil {
		out.Terms = api.NewNilString(*q.Terms)
	}
	if q.Unavailable != "" {
		out.UnavailableReason.SetTo(api.AppointmentRefundQuoteUnavailableReason(q.Unavailable))
	} else {
		out.UnavailableReason.SetToNull()
	}
	return api.NewNilAppointmentRefundQuote(out)
}

// PreviewAppointmentCancel implements previewAppointmentCancel.
func (h *Handler) PreviewAppointmentCancel(ctx context.Context, p api.PreviewAppointmentCancelParams) (*api.AppointmentCancelPreviewResponse, error) {
	mctx, _, ap, err := h.memberAppointment(ctx, p.ID, uuid.Nil)
	if err != nil {
		return nil, err
	}
	v, err := appointments.LoadVenue(mctx, h.client)
	if err != nil {
		return nil, err
	}
	pv, err := appointments.PreviewCancelOf(mctx, h.client, v, ap, true, h.now())
	if err != nil {
		return nil, err
	}
	var q *appointments.RefundQuote
	if pv.VisitID != nil {
		visit, _, err := appointments.GetVisit(mctx, h.client, *pv.VisitID)
		if err != nil {
			return nil, err
		}
		q, err = appointments.VisitRefundQuote(mctx, h.client, h.payments(), v, visit, true, h.now())
		if err != nil {
			return nil, err
		}
	} else if q, err = appointments.AppointmentRefundQuote(mctx, h.client, h.payments(), v, ap, true, h.now()); err != nil {
		return nil, err
	}
	out := api.AppointmentCancelPreview{CanCancel: pv.CanCancel, FeeMinor: pv.FeeMinor, Refund: refundQuoteOut(q),
		FeeAmount: money.ToMajor(pv.FeeMinor, pv.Currency), Currency: pv.Currency, WindowHours: pv.WindowHours,
		VisitLinked: pv.VisitID != nil, VisitID: nilUUIDOf(pv.VisitID), PackageLinked: pv.PackageLinked}
	if pv.BlockedReason != "" {
		out.BlockedReason.SetTo(api.AppointmentCancelPreviewBlockedReason(pv.BlockedReason))
	} else {
		out.BlockedReason.SetToNull()
	}
	return &api.AppointmentCancelPreviewResponse{Data: out}, nil
}

// ListAppointments implements listAppointments.
func (h *Handler) ListAppointments(ctx context.Context, p api.ListAppointmentsParams) (*api.AppointmentListResponse, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, apperr.Unauthorized("a user session is required")
	}
	signer, err := h.cursorSigner()
	if err != nil {
		return nil, err
	}
	f := appointments.OwnFilter{Org: p.OrganizationID.Or(p.XOrganizationID.Or(uuid.Nil)), Limit: p.Limit.Or(20),
		Past: p.Direction.Or(api.ListAppointmentsDirectionUpcoming) == api.ListAppointmentsDirectionPast, Now: h.now()}
	statusKey := ""
	if s, ok := p.Status.Get(); ok {
		st := entappointment.Status(s)
		f.Status, statusKey = &st, string(s)
	}
	list := "appointments:" + u.UserID.String() + ":" + f.Org.String() + ":" + string(p.Direction.Or(api.ListAppointmentsDirectionUpcoming)) + ":" + statusKey
	var key appointments.Key
	if ok, err := signer.After(list, p.After.Or(""), &key); err != nil {
		return nil, err
	} else if ok {
		f.After = &key
	}
	rows, err := appointments.ListOwn(ctx, h.client, u.UserID, f)
	if err != nil {
		return nil, err
	}
	rows, meta, err := pagination.Next(signer, list, rows, f.Limit, func(ap *ent.Appointment) any { return appointments.KeyOf(ap) })
	if err != nil {
		return nil, err
	}
	out := &api.AppointmentListResponse{Data: make([]api.Appointment, 0, len(rows)),
		Meta: api.AppointmentListMeta{Limit: meta.Limit, HasMore: meta.HasMore, NextCursor: bkNilString(meta.NextCursor)}}
	for _, ap := range rows {
		out.Data = append(out.Data, appointmentOut(ap))
	}
	return out, nil
}

func nilTimeOf(t *time.Time) api.NilDateTime {
	if t == nil {
		return api.NilDateTime{Null: true}
	}
	return api.NewNilDateTime(t.UTC())
}

func nilUUIDOf(id *uuid.UUID) api.NilUUID {
	if id == nil {
		return api.NilUUID{Null: true}
	}
	return api.NewNilUUID(*id)
}

// appointmentOut is the API shape of ap (loaded with its service).
func appointmentOut(ap *ent.Appointment) api.Appointment {
	out := api.Appointment{ID: ap.ID, OrganizationID: ap.OrganizationID, Status: api.AppointmentStatus(ap.Status),
		MemberID: ap.MemberID, ServiceID: ap.ServiceID, VariantID: nilUUIDOf(ap.VariantID), ProviderID: ap.ProviderID,
		RoomID: nilUUIDOf(ap.RoomID), LocationID: nilUUIDOf(ap.LocationID),
		StartTime: ap.StartsAt.UTC(), EndTime: ap.EndsAt.UTC(),
		PriceAmount: money.ToMajor(ap.PriceMinor, ap.Currency), PriceMinor: ap.PriceMinor, Currency: ap.Currency,
		Payment: api.AppointmentPayment(ap.Payment), PassID: nilUUIDOf(ap.PassID),
		UpdatedAt: concurrency.Format(ap.UpdatedAt), RescheduledToID: nilUUIDOf(ap.RescheduledToID),
		VisitID: nilUUIDOf(ap.VisitID), CreatedAt: ap.CreatedAt.UTC()}
	if ap.Edges.Service != nil {
		out.ServiceName = ap.Edges.Service.Name
	}
	if ap.CancelledAt != nil {
		out.CancelledAt = api.NewNilDateTime(ap.CancelledAt.UTC())
	} else {
		out.CancelledAt.SetToNull()
	}
	if ap.CancelFeeMinor != nil {
		out.CancelFeeMinor = api.NewNilInt64(*ap.CancelFeeMinor)
	} else {
		out.CancelFeeMinor.SetToNull()
	}
	out.AmountDueAtBookingMinor, out.AmountPaidMinor = ap.DueMinor, ap.PaidMinor
	out.HoldExpiresAt = nilTimeOf(ap.HoldExpiresAt)
	return out
}

// CreateAppointmentVisit implements createAppointmentVisit.
func (h *Handler) CreateAppointmentVisit(ctx context.Context, req *api.VisitCreateRequest, p api.CreateAppointmentVisitParams) (*api.VisitResponse, error) {
	mctx, a, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	provider, err := providerParam("provider_id", req.ProviderID.Or(""))
	if err != nil {
		return nil, err
	}
	r := appointments.VisitRequest{ProviderID: provider, LocationID: optUUID(req.LocationID), Start: req.StartTime,
		ExpectedCurrency:   req.ExpectedCurrency,
		ExpectedTotalMinor: money.ToMinor(req.ExpectedTotalPriceAmount, req.ExpectedCurrency),
		ExpectedDueMinor:   money.ToMinor(req.ExpectedAmountDueAtBooking, req.ExpectedCurrency)}
	for _, s := range req.Services {
		r.Items = append(r.Items, appointments.VisitItem{ServiceID: s.ServiceID, VariantID: optUUID(s.VariantID)})
	}
	visit, aps, err := appointments.BookVisit(mctx, h.client, a, r, h.now())
	if err != nil {
		return nil, err
	}
	return &api.VisitResponse{Data: visitOut(visit, aps)}, nil
}

func visitOut(visit *ent.Visit, aps []*ent.Appointment) api.Visit {
	out := api.Visit{ID: visit.ID, Status: api.VisitStatus(visit.Status), StartTime: visit.StartsAt.UTC(),
		EndTime: visit.EndsAt.UTC(), TotalPriceMinor: visit.TotalPriceMinor, Currency: visit.Currency,
		TotalPriceAmount: money.ToMajor(visit.TotalPriceMinor, visit.Currency), UpdatedAt: concurrency.Format(visit.UpdatedAt),
		Appointments:            make([]api.Appointment, 0, len(aps)),
		AmountDueAtBookingMinor: visit.DueMinor, AmountPaidMinor: visit.PaidMinor, HoldExpiresAt: nilTimeOf(visit.HoldExpiresAt)}
	if visit.BundleID != nil {
		out.BundleID = api.NewOptNilUUID(*visit.BundleID)
	}
	for _, ap := range aps {
		out.Appointments = append(out.Appointments, appointmentOut(ap))
	}
	return out
}

// GetAppointmentVisit implements getAppointmentVisit.
func (h *Handler) GetAppointmentVisit(ctx context.Context, p api.GetAppointmentVisitParams) (*api.VisitResponse, error) {
	mctx, _, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	visit, aps, err := appointments.GetVisit(mctx, h.client, p.VisitId)
	if err != nil {
		return nil, err
	}
	return &api.VisitResponse{Data: visitOut(visit, aps)}, nil
}

// CancelAppointmentVisit implements cancelAppointmentVisit.
func (h *Handler) CancelAppointmentVisit(ctx context.Context, p api.CancelAppointmentVisitParams) (*api.VisitResponse, error) {
	name, raw := "updated_at", p.UpdatedAt.Or("")
	if exp, ok := p.ExpectedUpdatedAt.Get(); ok {
		if raw != "" && raw != exp {
			return nil, apperr.Validation("expected_updated_at", "updated_at and expected_updated_at name different tokens")
		}
		name, raw = "expected_updated_at", exp
	}
	tok, err := concurrency.ParseParam(name, raw)
	if err != nil {
		return nil, err
	}
	mctx, a, err := h.asAppointmentMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	_, _, rf, err := appointments.CancelVisitWith(mctx, h.client, a, p.VisitId, tok, h.now(),
		appointments.CancelOptions{AcceptRefundTerms: p.AcceptRefundTerms.Or(false), Pay: h.payments()})
	if err != nil {
		return nil, err
	}
	visit, aps, err := appointments.GetVisit(mctx, h.client, p.VisitId)
	if err != nil {
		return nil, err
	}
	out := visitOut(visit, aps)
	out.Refund = cancelRefundOut(rf)
	return &api.VisitResponse{Data: out}, nil
}

package handlers

import (
	"context"
	"github.com/venueplatform/venue/internal/notify"
	"strings"

	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// ListAdminAppointments implements listAdminAppointments.
func (h *Handler) ListAdminAppointments(ctx context.Context, p api.ListAdminAppointmentsParams) (*api.AdminAppointmentListResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	v, err := appointments.LoadVenue(ctx, h.client)
	if err != nil {
		return nil, err
	}
	f := appointments.BookFilter{Limit: p.Limit.Or(appointments.DefaultBookLimit), ProviderID: optUUID(p.ProviderID),
		LocationID: optUUID(p.LocationID), Past: p.Direction.Or(api.ListAdminAppointmentsDirectionUpcoming) == api.ListAdminAppointmentsDirectionPast}
	if d, ok := p.From.Get(); ok {
		f.From = appointments.LocalMidnight(localDate(d, v.Loc), v.Loc)
	}
	if d, ok := p.To.Get(); ok {
		f.To = appointments.LocalMidnight(localDate(d, v.Loc).AddDate(0, 0, 1), v.Loc)
	}
	if s, ok := p.Status.Get(); ok {
		st := entappointment.Status(s)
		f.Status = &st
	}
	rows, more, err := appointments.StaffBook(ctx, h.client, f)
	if err != nil {
		return nil, err
	}
	out := &api.AdminAppointmentListResponse{Data: make([]api.Appointment, 0, len(rows)),
		Meta: api.AdminAppointmentListMeta{Limit: f.Limit, HasMore: more}}
	for _, ap := range rows {
		out.Data = append(out.Data, appointmentOut(ap))
	}
	return out, nil
}

// CreateAdminAppointment implements createAdminAppointment.
func (h *Handler) CreateAdminAppointment(ctx context.Context, req *api.AdminAppointmentCreateRequest, _ api.CreateAdminAppointmentParams) (*api.AppointmentResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	provider, err := providerParam("provider_id", req.ProviderID.Or(""))
	if err != nil {
		return nil, err
	}
	m, err := appointments.MemberOf(ctx, h.client, req.MemberID)
	if err != nil {
		return nil, err
	}
	r := appointments.Request{ServiceID: req.ServiceID, VariantID: optUUID(req.VariantID), ProviderID: provider,
		LocationID: optUUID(req.LocationID), RoomID: optUUID(req.RoomID), Start: req.StartTime,
		PassID: optUUID(req.PassID), Notes: req.Notes.Or("")}
	for _, ch := range req.NotificationChannels {
		r.NotifyChannels = append(r.NotifyChannels, notify.Channel(ch))
	}
	if len(r.NotifyChannels) > 0 {
		if err := appointments.Authorize(ctx, notify.PermissionSend); err != nil {
			return nil, err
		}
	}
	ap, err := appointments.Book(ctx, h.client, appointments.Actor{Member: m, Via: entappointment.BookedViaStaff}, r, h.now())
	if err != nil {
		return nil, err
	}
	full, err := appointments.Get(ctx, h.client, ap.ID)
	if err != nil {
		return nil, err
	}
	return &api.AppointmentResponse{Data: appointmentOut(full)}, nil
}

// GetAdminAppointmentAvailability implements getAdminAppointmentAvailability.
func (h *Handler) GetAdminAppointmentAvailability(ctx context.Context, p api.GetAdminAppointmentAvailabilityParams) (*api.AppointmentAvailabilityResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	provider, err := providerParam("provider_id", p.ProviderID.Or(""))
	if err != nil {
		return nil, err
	}
	v, err := appointments.LoadVenue(ctx, h.client)
	if err != nil {
		return nil, err
	}
	q := appointments.Query{ServiceID: p.ServiceID, VariantID: optUUID(p.VariantID), ProviderID: provider,
		LocationID: optUUID(p.LocationID), From: localDate(p.Date, v.Loc), To: localDate(p.Date, v.Loc),
		Now: h.now(), Exclude: optUUID(p.RescheduleID)}
	av, err := appointments.Compute(ctx, h.client, v, q)
	if err != nil {
		return nil, err
	}
	return &api.AppointmentAvailabilityResponse{Data: availabilityOut(av, p.Date, p.Date)}, nil
}

// GetAdminAppointment implements getAdminAppointment.
func (h *Handler) GetAdminAppointment(ctx context.Context, p api.GetAdminAppointmentParams) (*api.AppointmentResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	ap, err := appointments.Get(ctx, h.client, p.ID)
	if err != nil {
		return nil, err
	}
	return &api.AppointmentResponse{Data: appointmentOut(ap)}, nil
}

// ActOnAdminAppointment implements actOnAdminAppointment.
func (h *Handler) ActOnAdminAppointment(ctx context.Context, req *api.AdminAppointmentActionRequest, p api.ActOnAdminAppointmentParams) (*api.AppointmentResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	tok, err := concurrency.ParseParam("expected_updated_at", req.ExpectedUpdatedAt)
	if err != nil {
		return nil, err
	}
	r := appointments.ActRequest{Action: strings.ReplaceAll(string(req.Action), "-", "_"), Expected: tok,
		Reason: req.Reason.Or(""), ProviderID: optUUID(req.ProviderID), RefundPayment: req.RefundPayment.Or(false), Pay: h.payments()}
	if s, ok := req.StartTime.Get(); ok {
		r.Start = s
	}
	ap, rf, err := appointments.ActWith(ctx, h.client, p.ID, r, h.now())
	if err != nil {
		return nil, err
	}
	if ap.Edges.Service == nil {
		if ap, err = appointments.Get(ctx, h.client, ap.ID); err != nil {
			return nil, err
		}
	}
	out := appointmentOut(ap)
	out.Refund = cancelRefundOut(rf)
	return &api.AppointmentResponse{Data: out}, nil
}

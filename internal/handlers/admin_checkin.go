package handlers

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/internal/concurrency"
	"github.com/venueplatform/venue/internal/frontdesk"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/gen/apient"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/notify"
)

// ListAdminCheckin implements listAdminCheckin: the day's classes with attendance counts.
func (h *Handler) ListAdminCheckin(ctx context.Context, p api.ListAdminCheckinParams) (*api.CheckinListResponse, error) {
	if err := frontdesk.Authorize(ctx, frontdesk.AccessRead); err != nil {
		return nil, err
	}
	org, loc, err := frontdesk.Venue(ctx, h.client)
	if err != nil {
		return nil, err
	}
	now := h.now()
	day, err := frontdesk.ParseDay(p.Date.Value, loc, now)
	if err != nil {
		return nil, err
	}
	var locID *uuid.UUID
	switch {
	case p.LocationID.Set:
		locID = &p.LocationID.Value
	case p.XLocationID.Set:
		locID = &p.XLocationID.Value
	}
	classes, truncated, err := frontdesk.ListDay(ctx, h.client, day, locID)
	if err != nil {
		return nil, err
	}
	data := make([]api.CheckinClass, len(classes))
	for i, c := range classes {
		data[i] = checkinClass(c, now)
	}
	meta := api.CheckinListMeta{Date: day.Date, Timezone: org.Timezone, Total: len(data), Truncated: truncated}
	if locID != nil {
		meta.LocationID.SetTo(*locID)
	} else {
		meta.LocationID.SetToNull()
	}
	return &api.CheckinListResponse{Data: data, Meta: meta}, nil
}

// GetAdminCheckinRoster implements getAdminCheckinRoster.
func (h *Handler) GetAdminCheckinRoster(ctx context.Context, p api.GetAdminCheckinRosterParams) (*api.CheckinRosterResponse, error) {
	if err := frontdesk.Authorize(ctx, frontdesk.AccessRead); err != nil {
		return nil, err
	}
	r, err := frontdesk.Roster(ctx, h.client, p.ClassInstanceId, p.IncludeHistoricalRecords.Value)
	if err != nil {
		return nil, err
	}
	out := api.CheckinRoster{Class: checkinClass(r.Class, h.now()), Bookings: make([]api.CheckinBooking, len(r.Bookings)),
		IncludeHistoricalRecords: p.IncludeHistoricalRecords.Value}
	for i, b := range r.Bookings {
		out.Bookings[i] = checkinBooking(b)
	}
	return &api.CheckinRosterResponse{Data: out}, nil
}

// CheckInAdminBooking implements checkInAdminBooking.
func (h *Handler) CheckInAdminBooking(ctx context.Context, req api.OptCheckinCheckInRequest, p api.CheckInAdminBookingParams) (*api.CheckinBookingWriteResponse, error) {
	if err := frontdesk.Authorize(ctx, frontdesk.AccessCheckIn); err != nil {
		return nil, err
	}
	var tok concurrency.Token
	if req.Set && req.Value.ExpectedUpdatedAt.Set {
		var err error
		if tok, err = concurrency.ParseParam("expected_updated_at", req.Value.ExpectedUpdatedAt.Value); err != nil {
			return nil, err
		}
	}
	w, err := frontdesk.CheckIn(ctx, h.client, p.ClassInstanceId, p.BookingId, tok, h.now())
	if err != nil {
		return nil, err
	}
	return &api.CheckinBookingWriteResponse{Data: api.CheckinBookingWrite{Booking: checkinBooking(w.Booking), Changed: w.Changed,
		Notifications: api.CheckinNotifyResult{Skipped: []api.CheckinSkipped{}}}}, nil
}

// ContactAdminCheckinClass implements contactAdminCheckinClass: a message to chosen members,
// through the notification outbox.
func (h *Handler) ContactAdminCheckinClass(ctx context.Context, req *api.CheckinContactRequest, p api.ContactAdminCheckinClassParams) (*api.CheckinContactResponse, error) {
	if err := frontdesk.Authorize(ctx, frontdesk.AccessContact); err != nil {
		return nil, err
	}
	res, err := frontdesk.Contact(ctx, h.client, frontdesk.ContactParams{
		ClassID: p.ClassInstanceId, BookingIDs: req.BookingIds, Channel: notify.Channel(req.Channel),
		Subject: req.Subject.Value, Message: req.Message, CorrelationID: httpx.RequestID(ctx),
	})
	if err != nil {
		return nil, err
	}
	return &api.CheckinContactResponse{Data: api.CheckinContactResult{Sent: res.Queued, Skipped: checkinSkipped(res.Skipped)}}, nil
}

// GetAdminBookingAttendance implements getAdminBookingAttendance.
func (h *Handler) GetAdminBookingAttendance(ctx context.Context, p api.GetAdminBookingAttendanceParams) (*api.CheckinAttendanceResponse, error) {
	if err := frontdesk.Authorize(ctx, frontdesk.AccessReadAttendance); err != nil {
		return nil, err
	}
	now := h.now()
	st, err := frontdesk.Attendance(ctx, h.client, p.ClassInstanceId, p.BookingId, now)
	if err != nil {
		return nil, err
	}
	out := api.CheckinAttendance{Booking: checkinBooking(st.Booking), Class: checkinClass(st.Class, now),
		AllowedTargets: make([]api.CheckinAttendanceAllowedTargetsItem, len(st.Allowed)), ClipCharged: st.Booking.ClipCharged,
		NotificationAvailability: api.CheckinChannelAvailability{Email: checkinEntry(st.Availability.Email),
			SMS: checkinEntry(st.Availability.SMS), Push: checkinEntry(st.Availability.Push)}}
	for i, s := range st.Allowed {
		out.AllowedTargets[i] = api.CheckinAttendanceAllowedTargetsItem(s)
	}
	if st.Booking.LateCancelFeeMinor != nil {
		out.LateCancelFeeMinor.SetTo(*st.Booking.LateCancelFeeMinor)
	} else {
		out.LateCancelFeeMinor.SetToNull()
	}
	return &api.CheckinAttendanceResponse{Data: out}, nil
}

// CorrectAdminBookingAttendance implements correctAdminBookingAttendance.
func (h *Handler) CorrectAdminBookingAttendance(ctx context.Context, req *api.CheckinAttendanceRequest, p api.CorrectAdminBookingAttendanceParams) (*api.CheckinBookingWriteResponse, error) {
	if err := frontdesk.Authorize(ctx, frontdesk.AccessCorrect); err != nil {
		return nil, err
	}
	tok, err := concurrency.ParseParam("expected_updated_at", req.ExpectedUpdatedAt)
	if err != nil {
		return nil, err
	}
	var nr notify.Request
	if n, ok := req.Notify.Get(); ok {
		if ch, ok := n.Channels.Get(); ok {
			nr.Channels.Email, nr.Channels.SMS, nr.Channels.Push = ch.Email.Value, ch.SMS.Value, ch.Push.Value
			nr.Audience.Clients = ch.Email.Value || ch.SMS.Value || ch.Push.Value
		}
	}
	if nr.Asked() {
		if err := notify.Authorize(ctx); err != nil {
			return nil, err
		}
	}
	res, err := frontdesk.Correct(ctx, h.client, frontdesk.CorrectParams{
		ClassID: p.ClassInstanceId, BookingID: p.BookingId, Target: booking.Status(req.TargetStatus), Token: tok,
		EndedClassConfirmed: req.EndedClassConfirmed.Value, Reason: req.Reason.Value, Notify: nr,
		CorrelationID: httpx.RequestID(ctx),
	}, h.now())
	if err != nil {
		return nil, err
	}
	return &api.CheckinBookingWriteResponse{Data: api.CheckinBookingWrite{Booking: checkinBooking(res.Booking), Changed: res.Changed,
		Notifications: api.CheckinNotifyResult{Requested: nr.Asked(), Queued: res.Notified.Queued,
			Skipped: checkinSkipped(res.Notified.Skipped)}}}, nil
}

// ReassignAdminBookingFunding implements reassignAdminBookingFunding.
func (h *Handler) ReassignAdminBookingFunding(ctx context.Context, req *api.CheckinReassignRequest, p api.ReassignAdminBookingFundingParams) (*api.CheckinReassignResponse, error) {
	if err := frontdesk.Authorize(ctx, frontdesk.AccessReassign); err != nil {
		return nil, err
	}
	tok, err := concurrency.ParseParam("expected_updated_at", req.ExpectedUpdatedAt)
	if err != nil {
		return nil, err
	}
	rp := frontdesk.ReassignParams{ClassID: p.ClassInstanceId, BookingID: p.BookingId, NewPassID: req.NewPassID, Token: tok}
	if v, ok := req.ExpectedOldPassID.Get(); ok {
		rp.ExpectedOldPassID = &v
	}
	b, a, err := frontdesk.Reassign(ctx, h.client, rp, h.now())
	if err != nil {
		return nil, err
	}
	return &api.CheckinReassignResponse{Data: api.CheckinReassign{Booking: checkinBooking(b), Attempt: apient.CheckinAttempt(a)}}, nil
}

// CloseAdminBookingFundingAttempt implements closeAdminBookingFundingAttempt.
func (h *Handler) CloseAdminBookingFundingAttempt(ctx context.Context, p api.CloseAdminBookingFundingAttemptParams) (*api.CheckinAttemptResponse, error) {
	if err := frontdesk.Authorize(ctx, frontdesk.AccessReassign); err != nil {
		return nil, err
	}
	a, err := frontdesk.CloseAttempt(ctx, h.client, p.ClassInstanceId, p.BookingId, p.AttemptId, h.now())
	if err != nil {
		return nil, err
	}
	return &api.CheckinAttemptResponse{Data: apient.CheckinAttempt(a)}, nil
}

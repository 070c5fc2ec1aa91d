package handlers

import (
	"encoding/json"

	"github.com/go-faster/jx"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/concurrency"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/schedule"
)

// adminRow is the staff view of a class.
func adminRow(r schedule.StaffRow) api.AdminScheduleRow {
	c := r.Class
	row := api.AdminScheduleRow{
		ID:             c.ID,
		StartTime:      c.StartTime.UTC(),
		EndTime:        c.EndTime.UTC(),
		Status:         api.ClassStatus(c.Status),
		Capacity:       c.Capacity,
		BookedCount:    c.BookedCount,
		WaitlistCount:  c.WaitlistCount,
		CheckedInCount: r.CheckedIn,
		AvailableSpots: r.Available,
		IsBookable:     r.Bookable,
		Online:         c.Online,
		Listed:         c.Listed,
		Historical:     r.Historical,
		UpdatedAt:      concurrency.Format(c.UpdatedAt),
	}
	row.ClassType, row.Instructor, row.Location, row.Room = classRefs(r)
	if c.CancelledAt != nil {
		row.CancelledAt.SetTo(c.CancelledAt.UTC())
	} else {
		row.CancelledAt.SetToNull()
	}
	if c.CancelReason != nil {
		row.CancelReason.SetTo(*c.CancelReason)
	} else {
		row.CancelReason.SetToNull()
	}
	return row
}

// classRefs names a row's class type, instructor, location and room.
func classRefs(r schedule.StaffRow) (ct api.NamedRef, in, loc, room api.NilNamedRef) {
	c := r.Class
	if t := c.Edges.ClassType; t != nil {
		ct = api.NamedRef{ID: t.ID, Name: t.Name}
	}
	in.SetToNull()
	if i := c.Edges.Instructor; i != nil {
		in.SetTo(api.NamedRef{ID: i.ID, Name: fullName(i.FirstName, i.LastName)})
	}
	loc.SetToNull()
	if l := c.Edges.Location; l != nil {
		loc.SetTo(api.NamedRef{ID: l.ID, Name: l.Name})
	}
	room.SetToNull()
	if rm := c.Edges.Room; rm != nil {
		room.SetTo(api.NamedRef{ID: rm.ID, Name: rm.Name})
	}
	return ct, in, loc, room
}

func availabilityEntry(e notify.Entry) api.AdminScheduleAvailabilityEntry {
	nilString := func(s string) api.NilString {
		var n api.NilString
		if s == "" {
			n.SetToNull()
		} else {
			n.SetTo(s)
		}
		return n
	}
	out := api.AdminScheduleAvailabilityEntry{
		Available: e.Available, ReasonCode: nilString(e.ReasonCode), GateCode: nilString(e.GateCode),
		Reason: nilString(e.Reason), Reachable: e.Reachable, Total: e.Total, Blocked: e.Blocked,
		ReachLabel: e.ReachLabel,
	}
	if e.RecipientID != nil {
		out.RecipientID.SetTo(*e.RecipientID)
	} else {
		out.RecipientID.SetToNull()
	}
	return out
}

func channelAvailability(c notify.ChannelEntries) api.AdminScheduleChannelAvailability {
	return api.AdminScheduleChannelAvailability{
		Email: availabilityEntry(c.Email), SMS: availabilityEntry(c.SMS), Push: availabilityEntry(c.Push),
	}
}

func actionAvailability(a notify.ActionAvailability) api.AdminScheduleActionAvailability {
	return api.AdminScheduleActionAvailability{
		Clients: channelAvailability(a.Clients), Instructor: channelAvailability(a.Instructor),
	}
}

func availabilityByAction(m map[notify.Action]notify.ActionAvailability) api.AdminScheduleAvailabilityByAction {
	return api.AdminScheduleAvailabilityByAction{
		Cancel:     actionAvailability(m[notify.ActionCancel]),
		Edit:       actionAvailability(m[notify.ActionEdit]),
		Substitute: actionAvailability(m[notify.ActionSubstitute]),
		Restore:    actionAvailability(m[notify.ActionRestore]),
	}
}

// notifyRequest decodes the contract's notify object.
func notifyRequest(o api.OptAdminScheduleNotify) notify.Request {
	var r notify.Request
	if !o.Set {
		return r
	}
	a, c := o.Value.Audience.Value, o.Value.Channels.Value
	r.Audience.Clients, r.Audience.Instructor = a.Clients.Value, a.Instructor.Value
	r.Channels.Email, r.Channels.SMS, r.Channels.Push = c.Email.Value, c.SMS.Value, c.Push.Value
	return r
}

func notifyResult(n schedule.NotifyResult) api.AdminScheduleNotifyResult {
	return api.AdminScheduleNotifyResult{Requested: n.Requested, Queued: n.Queued}
}

func writeResponse(res schedule.WriteResult) *api.AdminScheduleWriteResponse {
	w := api.AdminScheduleWrite{Class: adminRow(res.Row), Notifications: notifyResult(res.Notify)}
	if res.CancelledBookings > 0 {
		w.CancelledBookings.SetTo(res.CancelledBookings)
	}
	if res.PromotedBookings > 0 {
		w.PromotedBookings.SetTo(res.PromotedBookings)
	}
	return &api.AdminScheduleWriteResponse{Data: w}
}

func bulkResponse(res schedule.BulkResult) *api.AdminScheduleBulkResponse {
	out := api.AdminScheduleBulk{Succeeded: res.Succeeded, Failed: res.Failed, Notifications: notifyResult(res.Notify),
		Results: make([]api.AdminScheduleBulkResult, len(res.Rows))}
	for i, r := range res.Rows {
		br := api.AdminScheduleBulkResult{ID: r.ID, Status: api.AdminScheduleBulkResultStatus(r.Status)}
		if r.Row != nil && r.Err == nil {
			br.Class.SetTo(adminRow(*r.Row))
		}
		if r.Status == schedule.BulkCancelled {
			br.CancelledBookings.SetTo(r.CancelledBookings)
		}
		if r.Err != nil {
			br.Error.SetTo(bulkError(r.Err))
		}
		out.Results[i] = br
	}
	return &api.AdminScheduleBulkResponse{Data: out}
}

// bulkError is a row's error: its code, safe message and details.
func bulkError(e *apperr.Error) api.AdminScheduleBulkError {
	out := api.AdminScheduleBulkError{Code: e.Code, Message: e.Message}
	if len(e.Details) > 0 {
		d := api.AdminScheduleBulkErrorDetails{}
		for k, v := range e.Details {
			if raw, err := json.Marshal(v); err == nil {
				d[k] = jx.Raw(raw)
			}
		}
		out.Details.SetTo(d)
	}
	return out
}

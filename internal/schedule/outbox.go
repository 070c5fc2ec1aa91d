package schedule

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/booking"
	"github.com/venueplatform/venue/internal/notify"
)

// queue puts the deliveries req asks for about class id in the notification
// outbox, inside the running transaction (after the change, so the message
// and its recipients describe the class as changed). A request that names no
// audience writes nothing.
func queue(ctx context.Context, client *ent.Client, id uuid.UUID, action notify.Action, req notify.Request) (NotifyResult, error) {
	if !req.Asked() {
		return NotifyResult{}, nil
	}
	row, err := loadRow(ctx, client, id, time.Now())
	if err != nil {
		return NotifyResult{}, err
	}
	v, err := LoadVenue(ctx, client)
	if err != nil {
		return NotifyResult{}, err
	}
	msg := message(row.Class, action, v.Loc)
	res, err := notify.EnqueueForClass(ctx, client, id, action, req, msg)
	if err != nil {
		return NotifyResult{}, fmt.Errorf("schedule: enqueue notifications: %w", err)
	}
	return NotifyResult{Requested: true, Queued: res.Queued}, nil
}

// message is the text of a schedule notification about c.
func message(c *ent.ClassInstance, action notify.Action, loc *time.Location) notify.Message {
	name := "Your class"
	if c.Edges.ClassType != nil {
		name = c.Edges.ClassType.Name
	}
	when := c.StartTime.In(loc).Format("Mon 2 Jan 15:04")
	m := notify.Message{Data: map[string]any{"class_instance_id": c.ID.String(), "start_time": c.StartTime.UTC().Format(time.RFC3339)}}
	switch action {
	case notify.ActionCancel:
		m.Kind, m.Subject = "class.cancelled", name+" on "+when+" is cancelled"
		m.Body = m.Subject + ". Your booking is cancelled and any clip it used is back on your pass."
	case notify.ActionSubstitute:
		teacher := "another instructor"
		if in := c.Edges.Instructor; in != nil {
			teacher = fullName(in.FirstName, in.LastName)
		}
		m.Kind, m.Subject = "class.substituted", name+" on "+when+" is taught by "+teacher
		m.Body = m.Subject + "."
	default:
		m.Kind, m.Subject = "class.updated", name+" has changed: now "+when
		m.Body = m.Subject + "."
	}
	return m
}

func fullName(first, last string) string {
	if last == "" {
		return first
	}
	return first + " " + last
}

// promote fills the seats a capacity raise freed from the waitlist of class
// id, inside the running transaction, by the bookings domain's rules (each
// promoted booking takes its clip then; members without a usable pass keep
// their place); it returns how many bookings it promoted.
func promote(ctx context.Context, client *ent.Client, id uuid.UUID, now time.Time) (int, error) {
	promoted, err := booking.Promote(ctx, client, id, now)
	if err != nil {
		return 0, fmt.Errorf("schedule: promote waitlist: %w", err)
	}
	return len(promoted), nil
}

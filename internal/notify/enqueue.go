package notify

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/viewer"
)

// ErrNoVenue means an enqueue was called without a venue viewer in the context.
var ErrNoVenue = errors.New("notify: no venue viewer in context")

// Message is what to say. Kind names the message (a template key such as class.cancelled);
// Subject is used by e-mail and as the push title; Body is the text of every channel.
type Message struct {
	Kind          string
	Subject       string
	Body          string
	Data          map[string]any
	CorrelationID string
}

// Skip is one recipient a channel could not reach, with the reason (a reason code).
type Skip struct {
	Audience    Audience   `json:"audience"`
	Channel     Channel    `json:"channel"`
	RecipientID uuid.UUID  `json:"recipient_id"`
	BookingID   *uuid.UUID `json:"booking_id,omitempty"`
	Reason      string     `json:"reason"`
}

// Result is what an enqueue wrote: Queued deliveries (pending, to be sent after commit), and
// the recipients skipped with their reasons (recorded as skipped rows).
type Result struct {
	Queued     int
	QueuedIDs  []uuid.UUID
	Skipped    []Skip
	Recipients int
}

// EnqueueForClass writes, in client's transaction, one delivery per recipient and channel
// that req asks for on class classID: for each audience named, each channel named that the
// rules of action allow for it. A zero req writes nothing. Unknown and foreign classes are
// ent not-found errors.
func EnqueueForClass(ctx context.Context, client *ent.Client, classID uuid.UUID, action Action, req Request, msg Message) (Result, error) {
	if !req.Asked() {
		return Result{}, nil
	}
	venue, err := venueChannels(ctx, client)
	if err != nil {
		return Result{}, err
	}
	classes, err := loadClasses(ctx, client, []uuid.UUID{classID})
	if err != nil {
		return Result{}, err
	}
	ca := classes[classID]
	if ca == nil {
		return Result{}, &ent.NotFoundError{}
	}
	w := newWriter(ctx, client, msg, &classID)
	for _, a := range req.audiences() {
		for _, ch := range req.channels() {
			if !Supported(action, a, ch) {
				continue
			}
			w.add(a, ch, venue[ch], ca.of(action, a))
		}
	}
	return w.save()
}

// EnqueueForBookings writes one delivery on ch to the member of each booking of bookingIDs
// (the front desk's contact). Every id must be a booking the viewer can see, else an ent
// not-found error and nothing written.
func EnqueueForBookings(ctx context.Context, client *ent.Client, bookingIDs []uuid.UUID, ch Channel, msg Message) (Result, error) {
	venue, err := venueChannels(ctx, client)
	if err != nil {
		return Result{}, err
	}
	rs, err := bookingRecipients(ctx, client, bookingIDs)
	if err != nil {
		return Result{}, err
	}
	var classID *uuid.UUID
	if len(rs) > 0 {
		classID = rs[0].classID
	}
	w := newWriter(ctx, client, msg, classID)
	w.add(Clients, ch, venue[ch], rs)
	return w.save()
}

// bookingRecipients returns the members of bookings, in the order of ids.
func bookingRecipients(ctx context.Context, client *ent.Client, ids []uuid.UUID) ([]recipient, error) {
	bs, err := client.Booking.Query().Where(booking.IDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("notify: bookings: %w", err)
	}
	byID := make(map[uuid.UUID]*ent.Booking, len(bs))
	for _, b := range bs {
		byID[b.ID] = b
	}
	people, err := loadMembers(ctx, client, memberIDs(bs))
	if err != nil {
		return nil, err
	}
	out := make([]recipient, 0, len(ids))
	for _, id := range ids {
		b := byID[id]
		if b == nil {
			return nil, &ent.NotFoundError{}
		}
		r := people[b.MemberID]
		bid, cid := b.ID, b.ClassInstanceID
		r.bookingID, r.classID = &bid, &cid
		out = append(out, r)
	}
	return out, nil
}

// writer collects the rows of one enqueue.
type writer struct {
	ctx     context.Context
	client  *ent.Client
	msg     Message
	classID *uuid.UUID
	actor   string
	inTx    bool
	creates []*ent.NotificationDeliveryCreate
	res     Result
	err     error
}

func newWriter(ctx context.Context, client *ent.Client, msg Message, classID *uuid.UUID) *writer {
	w := &writer{ctx: ctx, client: client, msg: msg, classID: classID, inTx: events.InTx(ctx)}
	if v := viewer.FromContext(ctx); v != nil {
		w.actor = v.Actor()
	}
	if _, ok := viewer.VenueFromContext(ctx); !ok {
		w.err = ErrNoVenue
	}
	if msg.Kind == "" && w.err == nil {
		w.err = errors.New("notify: message without kind")
	}
	return w
}

// add writes the rows of audience a on ch for rs: pending where reachable, skipped with the
// reason elsewhere (the venue's channel switched off is venue_capability for everyone).
func (w *writer) add(a Audience, ch Channel, channelOn bool, rs []recipient) {
	for _, r := range rs {
		w.res.Recipients++
		var addrs []string
		reason := ReasonVenueCapability
		if channelOn {
			addrs, reason = r.reachFor(CategoryOfKind(w.msg.Kind), ch)
		}
		if reason != "" {
			w.res.Skipped = append(w.res.Skipped, Skip{Audience: a, Channel: ch, RecipientID: r.id, BookingID: r.bookingID, Reason: reason})
			w.creates = append(w.creates, w.row(r, ch, "").SetStatus(notificationdelivery.StatusSkipped).SetStatusReason(reason))
			continue
		}
		for _, addr := range addrs {
			id := uuid.New()
			w.res.Queued++
			w.res.QueuedIDs = append(w.res.QueuedIDs, id)
			c := w.row(r, ch, addr).SetID(id)
			if w.inTx {
				// Its job is inserted in this same transaction (save): the relay skips it.
				c.SetDispatchedAt(time.Now())
			}
			w.creates = append(w.creates, c)
		}
	}
}

func (w *writer) row(r recipient, ch Channel, addr string) *ent.NotificationDeliveryCreate {
	c := w.client.NotificationDelivery.Create().
		SetChannel(notificationdelivery.Channel(ch)).
		SetAddress(addr).
		SetKind(w.msg.Kind).
		SetSubject(truncate(w.msg.Subject, 300)).
		SetBody(w.msg.Body).
		SetCorrelationID(truncate(w.msg.CorrelationID, 200)).
		SetCreatedBy(truncate(w.actor, 200)).
		SetNillableClassInstanceID(w.classID).
		SetNillableBookingID(r.bookingID)
	if w.msg.Data != nil {
		c.SetData(w.msg.Data)
	}
	switch r.kind {
	case "instructor":
		c.SetRecipientKind(notificationdelivery.RecipientKindInstructor).SetInstructorID(r.id)
	default:
		c.SetRecipientKind(notificationdelivery.RecipientKindMember).SetMemberID(r.id).SetNillableUserID(r.userID)
	}
	return c
}

func (w *writer) save() (Result, error) {
	if w.err != nil {
		return Result{}, w.err
	}
	if len(w.creates) == 0 {
		return w.res, nil
	}
	if _, err := w.client.NotificationDelivery.CreateBulk(w.creates...).Save(w.ctx); err != nil {
		return Result{}, fmt.Errorf("notify: write outbox: %w", err)
	}
	if w.inTx && len(w.res.QueuedIDs) > 0 {
		jobs := make([]river.InsertManyParams, len(w.res.QueuedIDs))
		for i, id := range w.res.QueuedIDs {
			jobs[i] = river.InsertManyParams{Args: DeliverArgs{DeliveryID: id}}
		}
		if err := events.EnqueueJobs(w.ctx, jobs...); err != nil {
			return Result{}, fmt.Errorf("notify: enqueue jobs: %w", err)
		}
	}
	return w.res, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	for len(string(r)) > n {
		r = r[:len(r)-1]
	}
	return string(r)
}

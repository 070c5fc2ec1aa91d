package notify

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/viewer"
)

// DirectEmail is one transactional e-mail to one address: something a member
// paid for or asked for (a gift card to its recipient, a receipt), sent
// whatever the marketing preferences say. MemberID names the member on whose
// behalf it is sent (the buyer of a gift card, the payer of a receipt; nil
// for staff's own sending); ToMember says the address is that member's own.
type DirectEmail struct {
	To            string
	MemberID      uuid.UUID
	ToMember      bool
	Kind          string
	Subject       string
	Body          string
	Data          map[string]any
	CorrelationID string
	// At is when to send; zero or past means at once.
	At time.Time
	// Attachments are files the e-mail carries, kept with the delivery
	// (notification_attachments) and sent as multipart/mixed.
	Attachments []Attachment
}

// EnqueueEmail writes e as one pending delivery and queues its job,
// scheduled at e.At, in the caller's transaction (events.WithTx): the
// message is sent if and only if the change that caused it commits. The
// relay leaves the row alone (its job is already queued).
func EnqueueEmail(ctx context.Context, client *ent.Client, e DirectEmail) (uuid.UUID, error) {
	if !events.InTx(ctx) {
		return uuid.Nil, errors.New("notify: EnqueueEmail needs the caller's transaction")
	}
	if _, ok := viewer.VenueFromContext(ctx); !ok {
		return uuid.Nil, ErrNoVenue
	}
	if e.Kind == "" || e.To == "" {
		return uuid.Nil, errors.New("notify: e-mail without kind or address")
	}
	kind := notificationdelivery.RecipientKindUser
	if e.ToMember {
		kind = notificationdelivery.RecipientKindMember
	}
	actor := ""
	if v := viewer.FromContext(ctx); v != nil {
		actor = v.Actor()
	}
	id := uuid.New()
	c := client.NotificationDelivery.Create().SetID(id).
		SetChannel(notificationdelivery.Channel(Email)).SetRecipientKind(kind).
		SetAddress(truncate(e.To, 512)).
		SetKind(e.Kind).SetSubject(truncate(e.Subject, 300)).SetBody(e.Body).
		SetCorrelationID(truncate(e.CorrelationID, 200)).SetCreatedBy(truncate(actor, 200)).
		SetDispatchedAt(time.Now())
	if e.MemberID != uuid.Nil {
		c.SetMemberID(e.MemberID)
	}
	if e.Data != nil {
		c.SetData(e.Data)
	}
	if err := c.Exec(ctx); err != nil {
		return uuid.Nil, fmt.Errorf("notify: write outbox: %w", err)
	}
	for _, a := range e.Attachments {
		if a.Filename == "" || a.ContentType == "" || strings.ContainsAny(a.Filename+a.ContentType, "\r\n\"") {
			return uuid.Nil, errors.New("notify: attachment without a plain name or type")
		}
		if err := client.NotificationAttachment.Create().SetDeliveryID(id).SetFilename(truncate(a.Filename, 200)).
			SetContentType(a.ContentType).SetData(a.Data).Exec(ctx); err != nil {
			return uuid.Nil, fmt.Errorf("notify: write attachment: %w", err)
		}
	}
	opts := DeliverArgs{}.InsertOpts()
	if !e.At.IsZero() && e.At.After(time.Now()) {
		opts.ScheduledAt = e.At
	}
	if err := events.EnqueueJobs(ctx, river.InsertManyParams{Args: DeliverArgs{DeliveryID: id}, InsertOpts: &opts}); err != nil {
		return uuid.Nil, fmt.Errorf("notify: enqueue job: %w", err)
	}
	return id, nil
}

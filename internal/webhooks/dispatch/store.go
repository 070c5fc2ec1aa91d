package dispatch

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/webhooks/deliver"
)

// Errors of this package.
var (
	// ErrNotFound is what a Store returns from Load for a delivery that does not exist; its
	// job is cancelled.
	ErrNotFound = errors.New("webhook delivery not found")
	// ErrSubscriptionDisabled cancels the job of a delivery whose subscription is disabled.
	ErrSubscriptionDisabled = errors.New("webhook subscription disabled")
)

// Delivery is what the worker needs to make an attempt: one event for one subscription.
type Delivery struct {
	ID             uuid.UUID
	SubscriptionID uuid.UUID
	// MessageID is sent as webhook-id: the same for every attempt and replay of this event
	// to this subscription, so that receivers can deduplicate.
	MessageID string
	// URL is the subscription's endpoint as it is now.
	URL string
	// Secrets sign the payload: the subscription's current secret, then, during a rotation's
	// overlap, the previous one. Read at each attempt, so a rotation applies to retries.
	Secrets []string
	// Body is the event envelope, signed and sent as is.
	Body []byte
	// Delivered reports that an attempt of this delivery already succeeded.
	Delivered bool
	// SubscriptionDisabled reports that the subscription no longer receives deliveries.
	SubscriptionDisabled bool
}

// Outcome is what an attempt meant for its delivery.
type Outcome string

// The outcomes of attempts.
const (
	// OutcomeDelivered: the receiver accepted the event; the delivery is done.
	OutcomeDelivered Outcome = "delivered"
	// OutcomeRetrying: the attempt failed and another is scheduled at NextAttemptAt.
	OutcomeRetrying Outcome = "retrying"
	// OutcomeFailed: the attempt failed and there will be no other (schedule exhausted or
	// a final failure such as an unusable URL or secret).
	OutcomeFailed Outcome = "failed"
	// OutcomeDisabled: the receiver answered 410 Gone and the subscription is disabled.
	OutcomeDisabled Outcome = "disabled"
)

// Attempt is one attempt as the delivery history records it.
type Attempt struct {
	// Number is the run of the delivery's job, from 1 (River's count, which includes runs
	// cut short by a crash). The history numbers attempts by what it has recorded, so a
	// Store may number them consecutively instead.
	Number int
	// Result is what the HTTP attempt gave: status, duration, class, error text, response
	// snippet and correlation id.
	Result deliver.Attempt
	// Outcome is what it means for the delivery.
	Outcome Outcome
	// NextAttemptAt is when the next attempt is due; zero unless Outcome is OutcomeRetrying.
	NextAttemptAt time.Time
}

// Store is the persistence the worker needs; the application implements it on its tables.
// Implementations must be safe for concurrent use.
type Store interface {
	// Load returns a delivery with its subscription's current URL and secrets, or an error
	// wrapping ErrNotFound.
	Load(ctx context.Context, deliveryID uuid.UUID) (Delivery, error)
	// RecordAttempt appends an attempt to the delivery's history and updates the
	// delivery's state to match Outcome.
	RecordAttempt(ctx context.Context, deliveryID uuid.UUID, a Attempt) error
	// Disable stops deliveries to a subscription, keeping reason for its owner to see.
	Disable(ctx context.Context, subscriptionID uuid.UUID, reason string) error
}

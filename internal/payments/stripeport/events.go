package stripeport

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/stripe/stripe-go/v79"
	"github.com/stripe/stripe-go/v79/webhook"
)

// EventTolerance is how old a signed event may be.
const EventTolerance = 300 * time.Second

// ErrBadSignature means an inbound event's signature, age or API version did
// not verify with any configured secret.
var ErrBadSignature = errors.New("stripe: event signature does not verify")

// Event is a verified inbound event.
type Event struct {
	ID      string
	Type    string
	Account string // the connected account, for Connect events
	Object  json.RawMessage
}

// VerifyEvent checks payload against the Stripe-Signature header with each
// non-empty secret (the platform's, the Connect endpoint's), a 300 s
// tolerance and the pinned API version.
func VerifyEvent(payload []byte, header string, secrets ...string) (*Event, error) {
	for _, secret := range secrets {
		if secret == "" {
			continue
		}
		ev, err := webhook.ConstructEventWithOptions(payload, header, secret,
			webhook.ConstructEventOptions{Tolerance: EventTolerance})
		if err != nil {
			continue
		}
		out := &Event{ID: ev.ID, Type: string(ev.Type), Account: ev.Account}
		if ev.Data != nil {
			out.Object = ev.Data.Raw
		}
		return out, nil
	}
	return nil, ErrBadSignature
}

// SignedTestPayload signs payload as Stripe would with secret at now; tests
// and local tooling use it to post events.
func SignedTestPayload(payload []byte, secret string, now time.Time) string {
	sp := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: now})
	return sp.Header
}

// IntentFromObject reads a payment intent of an event's data.object.
func IntentFromObject(raw json.RawMessage) (*Intent, error) {
	var pi stripe.PaymentIntent
	if err := json.Unmarshal(raw, &pi); err != nil {
		return nil, err
	}
	return intentOf(&pi), nil
}

// AccountFromObject reads a connected account of an event's data.object.
func AccountFromObject(raw json.RawMessage) (*Account, error) {
	var a stripe.Account
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	return &Account{ID: a.ID, ChargesEnabled: a.ChargesEnabled, DetailsSubmitted: a.DetailsSubmitted, Country: a.Country}, nil
}

// ParseEvent reads a recorded (already verified) event.
func ParseEvent(payload []byte) (*Event, error) {
	var ev stripe.Event
	if err := json.Unmarshal(payload, &ev); err != nil {
		return nil, err
	}
	out := &Event{ID: ev.ID, Type: string(ev.Type), Account: ev.Account}
	if ev.Data != nil {
		out.Object = ev.Data.Raw
	}
	return out, nil
}

// Charge is what the domain reads of a charge.
type Charge struct {
	ID                     string
	PaymentIntent          string
	Amount, AmountRefunded int64
}

// ChargeFromObject reads a charge of an event's data.object.
func ChargeFromObject(raw json.RawMessage) (*Charge, error) {
	var c stripe.Charge
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	out := &Charge{ID: c.ID, Amount: c.Amount, AmountRefunded: c.AmountRefunded}
	if c.PaymentIntent != nil {
		out.PaymentIntent = c.PaymentIntent.ID
	}
	return out, nil
}

package notify

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/google/uuid"
)

// ErrPermanent marks a send failure that retrying cannot fix (a rejected address, an
// unregistered device): the delivery ends as failed at once. Wrap it: fmt.Errorf("...: %w",
// notify.ErrPermanent).
var ErrPermanent = errors.New("permanent delivery failure")

// Outgoing is one message handed to an adapter.
type Outgoing struct {
	DeliveryID uuid.UUID
	Channel    Channel
	// To is the address: an e-mail address, a phone number or a push device token.
	To      string
	Kind    string
	Subject string
	Body    string
	Data    map[string]any
	// Attachments are files an e-mail carries (multipart/mixed); other
	// channels ignore them.
	Attachments []Attachment
}

// Attachment is a file attached to an e-mail: its name, MIME type and bytes.
type Attachment struct {
	Filename    string
	ContentType string
	Data        []byte
}

// Sender sends one message on one channel and returns the provider's message id.
type Sender interface {
	Send(ctx context.Context, m Outgoing) (providerID string, err error)
}

// SMSProvider is an SMS gateway (for example an HTTP API of an SMS vendor).
type SMSProvider interface{ Sender }

// PushProvider is a push gateway (APNs, FCM or a push service in front of both).
type PushProvider interface{ Sender }

// SenderFunc adapts a function to Sender.
type SenderFunc func(ctx context.Context, m Outgoing) (string, error)

// Send implements Sender.
func (f SenderFunc) Send(ctx context.Context, m Outgoing) (string, error) { return f(ctx, m) }

// Adapters are the senders of each channel.
type Adapters struct {
	Email Sender
	SMS   SMSProvider
	Push  PushProvider
}

// For returns the sender of ch.
func (a Adapters) For(ch Channel) (Sender, error) {
	var s Sender
	switch ch {
	case Email:
		s = a.Email
	case SMS:
		s = a.SMS
	case Push:
		s = a.Push
	}
	if s == nil {
		return nil, fmt.Errorf("no sender for channel %q: %w", ch, ErrPermanent)
	}
	return s, nil
}

// LogSink is the development sender: it writes the message to the log instead of sending it.
type LogSink struct {
	Log     *slog.Logger
	Channel Channel
}

// Send implements Sender.
func (s LogSink) Send(ctx context.Context, m Outgoing) (string, error) {
	log := s.Log
	if log == nil {
		log = slog.Default()
	}
	log.InfoContext(ctx, "notification (development sink, not sent)",
		"channel", string(m.Channel), "to", m.To, "kind", m.Kind, "subject", m.Subject,
		"body", m.Body, "delivery_id", m.DeliveryID.String())
	return "log:" + m.DeliveryID.String(), nil
}

// Config is the channel configuration of the service.
type Config struct {
	SMTP SMTPConfig
}

// Adapters builds the senders of cfg: SMTP e-mail when a host is configured, otherwise the
// log sink; SMS and push are log sinks unless sms or push providers are given.
func (c Config) Adapters(log *slog.Logger, sms SMSProvider, push PushProvider) Adapters {
	a := Adapters{Email: LogSink{Log: log, Channel: Email}, SMS: LogSink{Log: log, Channel: SMS}, Push: LogSink{Log: log, Channel: Push}}
	if c.SMTP.Host != "" {
		a.Email = NewSMTP(c.SMTP)
	}
	if sms != nil {
		a.SMS = sms
	}
	if push != nil {
		a.Push = push
	}
	return a
}

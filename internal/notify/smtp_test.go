package notify_test

import (
	"context"
	"errors"
	"mime"
	"net/mail"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/smtptest"
)

func TestSMTPSendsOneMessage(t *testing.T) {
	srv := smtptest.New(t)
	srv.OfferAuth()
	sender := notify.NewSMTP(notify.SMTPConfig{Host: "localhost", Port: srv.Port(), From: "Studio <desk@studio.example>",
		Username: "desk", Password: "secret", TLS: notify.TLSAuto})
	id := uuid.New()
	msgID, err := sender.Send(context.Background(), notify.Outgoing{DeliveryID: id, Channel: notify.Email,
		To: "astrid@example.com", Subject: "Class cancelled: Flow, Monday", Body: "Hej Astrid,\nclass is off — sorry.\n"})
	require.NoError(t, err)
	require.Equal(t, "<"+id.String()+"@studio.example>", msgID)

	got := srv.Messages()
	require.Len(t, got, 1)
	require.Equal(t, "desk@studio.example", got[0].From)
	require.Equal(t, "astrid@example.com", got[0].To)
	msg, err := mail.ReadMessage(strings.NewReader(got[0].Data))
	require.NoError(t, err)
	subject, err := new(mimeDecoder).DecodeHeader(msg.Header.Get("Subject"))
	require.NoError(t, err)
	require.Equal(t, "Class cancelled: Flow, Monday", subject)
	require.Equal(t, msgID, msg.Header.Get("Message-ID"))
	require.Contains(t, got[0].Data, "class is off =E2=80=94 sorry.")
	require.Contains(t, srv.AuthLine(), "AUTH PLAIN ", "credentials were sent with PLAIN auth")
}

func TestSMTPRejectedRecipientIsPermanent(t *testing.T) {
	srv := smtptest.New(t)
	srv.SetRcptCode(550)
	sender := notify.NewSMTP(notify.SMTPConfig{Host: "127.0.0.1", Port: srv.Port(), From: "desk@studio.example"})
	_, err := sender.Send(context.Background(), notify.Outgoing{DeliveryID: uuid.New(), To: "nobody@example.com", Body: "x"})
	require.ErrorIs(t, err, notify.ErrPermanent)
	require.Empty(t, srv.Messages())

	srv.SetRcptCode(451) // a temporary refusal may be retried
	_, err = sender.Send(context.Background(), notify.Outgoing{DeliveryID: uuid.New(), To: "nobody@example.com", Body: "x"})
	require.Error(t, err)
	require.False(t, errors.Is(err, notify.ErrPermanent))
}

func TestSMTPRequiredTLSRefusesPlainServer(t *testing.T) {
	srv := smtptest.New(t)
	sender := notify.NewSMTP(notify.SMTPConfig{Host: "127.0.0.1", Port: srv.Port(), From: "desk@studio.example", TLS: notify.TLSRequired})
	_, err := sender.Send(context.Background(), notify.Outgoing{DeliveryID: uuid.New(), To: "a@example.com", Body: "x"})
	require.ErrorContains(t, err, "STARTTLS")
	require.Empty(t, srv.Messages())
}

func TestSMTPRefusesHeaderInjection(t *testing.T) {
	srv := smtptest.New(t)
	sender := notify.NewSMTP(notify.SMTPConfig{Host: "127.0.0.1", Port: srv.Port(), From: "desk@studio.example"})
	_, err := sender.Send(context.Background(), notify.Outgoing{DeliveryID: uuid.New(), To: "a@example.com\r\nBcc: x@evil.example", Body: "x"})
	require.ErrorIs(t, err, notify.ErrPermanent)
	_, err = sender.Send(context.Background(), notify.Outgoing{DeliveryID: uuid.New(), To: "a@example.com", Subject: "hi\r\nBcc: x@evil.example", Body: "x"})
	require.NoError(t, err)
	msg, err := mail.ReadMessage(strings.NewReader(srv.Messages()[0].Data))
	require.NoError(t, err)
	require.Empty(t, msg.Header.Get("Bcc"))
}

// TestConfigFor: without a host, e-mail goes to the log sink; with one, the
// checked settings pass through (malformed values are package config's to
// refuse).
func TestConfigFor(t *testing.T) {
	require.Empty(t, notify.ConfigFor(config.SMTP{}).SMTP.Host)
	c := notify.ConfigFor(config.SMTP{Host: "smtp.example.com", Port: 2525, From: "desk@studio.example", TLS: notify.TLSAuto})
	require.Equal(t, 2525, c.SMTP.Port)
	require.Equal(t, notify.TLSAuto, c.SMTP.TLS)
	require.Equal(t, "desk@studio.example", c.SMTP.From)
}

type mimeDecoder = mime.WordDecoder

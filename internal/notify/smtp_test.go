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

func TestConfigFromEnv(t *testing.T) {
	t.Setenv("VENUE_SMTP_HOST", "")
	c, err := notify.ConfigFromEnv()
	require.NoError(t, err)
	require.Empty(t, c.SMTP.Host)

	t.Setenv("VENUE_SMTP_HOST", "smtp.example.com")
	t.Setenv("VENUE_SMTP_FROM", "desk@studio.example")
	t.Setenv("VENUE_SMTP_PORT", "2525")
	c, err = notify.ConfigFromEnv()
	require.NoError(t, err)
	require.Equal(t, 2525, c.SMTP.Port)
	require.Equal(t, notify.TLSAuto, c.SMTP.TLS)

	t.Setenv("VENUE_SMTP_PORT", "x")
	_, err = notify.ConfigFromEnv()
	require.Error(t, err)
	t.Setenv("VENUE_SMTP_PORT", "")
	t.Setenv("VENUE_SMTP_TLS", "sometimes")
	_, err = notify.ConfigFromEnv()
	require.Error(t, err)
}

type mimeDecoder = mime.WordDecoder

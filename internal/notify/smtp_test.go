package notify_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
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

// TestSMTPAttachments: a message with files goes out as multipart/mixed: the
// text part first, then each file base64 with its name and type, the bytes
// intact.
func TestSMTPAttachments(t *testing.T) {
	srv := smtptest.New(t)
	sender := notify.NewSMTP(notify.SMTPConfig{Host: "127.0.0.1", Port: srv.Port(), From: "desk@studio.example", TLS: notify.TLSOff})
	pdf := append([]byte("%PDF-1.3\n"), bytes.Repeat([]byte{0, 0xff, 'x'}, 100)...)
	_, err := sender.Send(context.Background(), notify.Outgoing{DeliveryID: uuid.New(), Channel: notify.Email,
		To: "soren@example.com", Subject: "Kvittering", Body: "Hej Søren,\nhér er din kvittering.\n",
		Attachments: []notify.Attachment{{Filename: "receipt-0B0E6F3A.pdf", ContentType: "application/pdf", Data: pdf}}})
	require.NoError(t, err)
	got := srv.Messages()
	require.Len(t, got, 1)
	parts := mimeParts(t, got[0].Data)
	require.Len(t, parts, 2)
	require.Equal(t, "text/plain; charset=utf-8", parts[0].contentType)
	require.Equal(t, "Hej Søren,\r\nhér er din kvittering.\r\n", string(parts[0].body))
	require.Equal(t, "receipt-0B0E6F3A.pdf", parts[1].filename)
	require.Equal(t, "application/pdf", parts[1].mediaType)
	require.Equal(t, pdf, parts[1].body)
}

type mimePart struct {
	contentType, mediaType, filename string
	body                             []byte
}

// mimeParts reads a multipart/mixed message's parts, decoded.
func mimeParts(t *testing.T, data string) []mimePart {
	t.Helper()
	msg, err := mail.ReadMessage(strings.NewReader(data))
	require.NoError(t, err)
	mt, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	require.NoError(t, err)
	require.Equal(t, "multipart/mixed", mt)
	r := multipart.NewReader(msg.Body, params["boundary"])
	var out []mimePart
	for {
		p, err := r.NextRawPart()
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
		raw, err := io.ReadAll(p)
		require.NoError(t, err)
		mp := mimePart{contentType: p.Header.Get("Content-Type"), filename: p.FileName()}
		mp.mediaType, _, _ = mime.ParseMediaType(mp.contentType)
		switch p.Header.Get("Content-Transfer-Encoding") {
		case "base64":
			mp.body, err = base64.StdEncoding.DecodeString(strings.NewReplacer("\r", "", "\n", "").Replace(string(raw)))
			require.NoError(t, err)
		case "quoted-printable":
			mp.body, err = io.ReadAll(quotedprintable.NewReader(bytes.NewReader(raw)))
			require.NoError(t, err)
		default:
			mp.body = raw
		}
		out = append(out, mp)
	}
}

package notify_test

import (
	"bufio"
	"context"
	"errors"
	"mime"
	"net"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/notify"
)

// smtpServer is a minimal SMTP server on a loopback listener: enough of RFC 5321 for one
// client (EHLO, AUTH PLAIN, MAIL, RCPT, DATA, QUIT), recording what it received. rcptCode
// answers RCPT TO (250 unless set).
type smtpServer struct {
	ln       net.Listener
	rcptCode int
	auth     bool

	mu       sync.Mutex
	received []received
	authLine string
}

type received struct {
	from, to string
	data     string
}

func newSMTPServer(t *testing.T) *smtpServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &smtpServer{ln: ln, rcptCode: 250}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(c)
		}
	}()
	return s
}

func (s *smtpServer) port() int { return s.ln.Addr().(*net.TCPAddr).Port }

func (s *smtpServer) serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	w := bufio.NewWriter(c)
	say := func(line string) { w.WriteString(line + "\r\n"); w.Flush() }
	say("220 test ESMTP")
	var cur received
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		cmd := strings.ToUpper(line)
		switch {
		case strings.HasPrefix(cmd, "EHLO"):
			if s.auth {
				w.WriteString("250-test\r\n250 AUTH PLAIN\r\n")
			} else {
				w.WriteString("250 test\r\n")
			}
			w.Flush()
		case strings.HasPrefix(cmd, "AUTH PLAIN"):
			s.mu.Lock()
			s.authLine = line
			s.mu.Unlock()
			say("235 ok")
		case strings.HasPrefix(cmd, "MAIL FROM:"):
			cur = received{from: strings.Trim(line[len("MAIL FROM:"):], "<> ")}
			say("250 ok")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			cur.to = strings.Trim(line[len("RCPT TO:"):], "<> ")
			say(strconv.Itoa(s.rcptCode) + " rcpt")
		case cmd == "DATA":
			say("354 go ahead")
			var b strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				b.WriteString(l)
			}
			cur.data = b.String()
			s.mu.Lock()
			s.received = append(s.received, cur)
			s.mu.Unlock()
			say("250 queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("502 unknown")
		}
	}
}

func (s *smtpServer) got() []received {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]received(nil), s.received...)
}

func TestSMTPSendsOneMessage(t *testing.T) {
	srv := newSMTPServer(t)
	srv.auth = true
	sender := notify.NewSMTP(notify.SMTPConfig{Host: "localhost", Port: srv.port(), From: "Studio <desk@studio.example>",
		Username: "desk", Password: "secret", TLS: notify.TLSAuto})
	id := uuid.New()
	msgID, err := sender.Send(context.Background(), notify.Outgoing{DeliveryID: id, Channel: notify.Email,
		To: "astrid@example.com", Subject: "Class cancelled: Flow, Monday", Body: "Hej Astrid,\nclass is off — sorry.\n"})
	require.NoError(t, err)
	require.Equal(t, "<"+id.String()+"@studio.example>", msgID)

	got := srv.got()
	require.Len(t, got, 1)
	require.Equal(t, "desk@studio.example", got[0].from)
	require.Equal(t, "astrid@example.com", got[0].to)
	msg, err := mail.ReadMessage(strings.NewReader(got[0].data))
	require.NoError(t, err)
	subject, err := new(mimeDecoder).DecodeHeader(msg.Header.Get("Subject"))
	require.NoError(t, err)
	require.Equal(t, "Class cancelled: Flow, Monday", subject)
	require.Equal(t, msgID, msg.Header.Get("Message-ID"))
	require.Contains(t, got[0].data, "class is off =E2=80=94 sorry.")
	require.Contains(t, srv.authLine, "AUTH PLAIN ", "credentials were sent with PLAIN auth")
}

func TestSMTPRejectedRecipientIsPermanent(t *testing.T) {
	srv := newSMTPServer(t)
	srv.rcptCode = 550
	sender := notify.NewSMTP(notify.SMTPConfig{Host: "127.0.0.1", Port: srv.port(), From: "desk@studio.example"})
	_, err := sender.Send(context.Background(), notify.Outgoing{DeliveryID: uuid.New(), To: "nobody@example.com", Body: "x"})
	require.ErrorIs(t, err, notify.ErrPermanent)
	require.Empty(t, srv.got())

	srv.rcptCode = 451 // a temporary refusal may be retried
	_, err = sender.Send(context.Background(), notify.Outgoing{DeliveryID: uuid.New(), To: "nobody@example.com", Body: "x"})
	require.Error(t, err)
	require.False(t, errors.Is(err, notify.ErrPermanent))
}

func TestSMTPRequiredTLSRefusesPlainServer(t *testing.T) {
	srv := newSMTPServer(t)
	sender := notify.NewSMTP(notify.SMTPConfig{Host: "127.0.0.1", Port: srv.port(), From: "desk@studio.example", TLS: notify.TLSRequired})
	_, err := sender.Send(context.Background(), notify.Outgoing{DeliveryID: uuid.New(), To: "a@example.com", Body: "x"})
	require.ErrorContains(t, err, "STARTTLS")
	require.Empty(t, srv.got())
}

func TestSMTPRefusesHeaderInjection(t *testing.T) {
	srv := newSMTPServer(t)
	sender := notify.NewSMTP(notify.SMTPConfig{Host: "127.0.0.1", Port: srv.port(), From: "desk@studio.example"})
	_, err := sender.Send(context.Background(), notify.Outgoing{DeliveryID: uuid.New(), To: "a@example.com\r\nBcc: x@evil.example", Body: "x"})
	require.ErrorIs(t, err, notify.ErrPermanent)
	_, err = sender.Send(context.Background(), notify.Outgoing{DeliveryID: uuid.New(), To: "a@example.com", Subject: "hi\r\nBcc: x@evil.example", Body: "x"})
	require.NoError(t, err)
	msg, err := mail.ReadMessage(strings.NewReader(srv.got()[0].data))
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

package codemail

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/logtest"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/smtptest"
)

// The code and token hash of the tests: distinctive enough that finding them
// in a log line can only mean a leak.
const (
	testCode      = "583920"
	testTokenHash = "tkhash-Zq81xWv0"
)

var testUser = uuid.MustParse("11111111-2222-4333-8444-555555555555")

func delivery(purpose string) accounts.Delivery {
	return accounts.Delivery{UserID: testUser, Email: "ada@example.com", Purpose: purpose, Code: testCode,
		ExpiresAt: time.Date(2030, 5, 6, 7, 8, 9, 0, time.FixedZone("CEST", 2*3600))}
}

// captureLog returns a logger writing JSON lines into the returned buffer.
func captureLog() (*slog.Logger, *logtest.Buffer) {
	b := &logtest.Buffer{}
	return slog.New(slog.NewJSONHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug})), b
}

func TestFolderWritesReadableFileAndLogsNoCode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data", "mail")
	log, logs := captureLog()
	sink := NewFolder(dir, log)
	d := delivery(accounts.PurposeEmailOTP)
	d.TokenHash = testTokenHash
	require.NoError(t, sink.SendCode(context.Background(), d))

	fi, err := os.Stat(dir)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o700), fi.Mode().Perm())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	name := entries[0].Name()
	require.Contains(t, name, "-email_otp-")
	require.True(t, strings.HasSuffix(name, ".eml"))
	require.NotContains(t, name, testCode)
	info, err := entries[0].Info()
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), info.Mode().Perm())

	raw, err := os.ReadFile(filepath.Join(dir, name))
	require.NoError(t, err)
	text := string(raw)
	require.Contains(t, text, "To: ada@example.com\n")
	require.Contains(t, text, "Subject: Your sign-in code\n")
	require.Contains(t, text, testCode)
	require.Contains(t, text, testTokenHash)
	require.Contains(t, text, "2030-05-06 05:08 UTC")

	out := logs.String()
	require.Contains(t, out, "code written to the mail folder")
	require.Contains(t, out, testUser.String())
	require.Contains(t, out, filepath.Join(dir, name))
	require.NotContains(t, out, testCode)
	require.NotContains(t, out, testTokenHash)
	require.NotContains(t, out, "ada@example.com")
}

func TestFolderKeepsEveryMessage(t *testing.T) {
	dir := t.TempDir()
	sink := NewFolder(dir, slog.New(slog.DiscardHandler))
	for range 3 {
		require.NoError(t, sink.SendCode(context.Background(), delivery(accounts.PurposePasswordReset)))
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 3)
}

func TestMessagesPerPurpose(t *testing.T) {
	for purpose, subject := range map[string]string{
		accounts.PurposePasswordReset:  "Your password reset code",
		accounts.PurposePasswordChange: "Your code to change your password",
		accounts.PurposeEmailOTP:       "Your sign-in code",
		"something_new":                "Your verification code",
	} {
		t.Run(purpose, func(t *testing.T) {
			m := compose(delivery(purpose))
			require.Equal(t, subject, m.subject)
			require.Contains(t, m.body, "    "+testCode+"\n")
			require.Contains(t, m.body, "expires at 2030-05-06 05:08 UTC")
			require.NotContains(t, m.body, "token hash")
		})
	}
	require.Contains(t, compose(delivery(accounts.PurposePasswordReset)).body, "claim")
	d := delivery(accounts.PurposeEmailOTP)
	d.TokenHash = testTokenHash
	require.Contains(t, compose(d).body, "token hash:\n\n    "+testTokenHash+"\n")
}

func TestMailDir(t *testing.T) {
	require.Equal(t, filepath.Join("/srv/venue", "mail"), MailDir(config.Mail{}, "/srv/venue"))
	require.Equal(t, filepath.Join(".venue", "mail"), MailDir(config.Mail{}, ""))
	require.Equal(t, "/tmp/letters", MailDir(config.Mail{Dir: "/tmp/letters"}, "/srv/venue"))
}

func TestFromConfig(t *testing.T) {
	s := FromConfig(config.SMTP{}, config.Mail{}, "/srv/venue", slog.New(slog.DiscardHandler))
	require.Nil(t, s.mail)
	require.Equal(t, filepath.Join("/srv/venue", "mail"), s.dir)

	s = FromConfig(config.SMTP{Host: "mail.example.com", Port: 587, From: "codes@example.com", TLS: "auto"},
		config.Mail{}, "/srv/venue", slog.New(slog.DiscardHandler))
	require.NotNil(t, s.mail)
}

func TestSMTPDeliversCode(t *testing.T) {
	srv := smtptest.New(t)
	log, logs := captureLog()
	sink := NewSMTP(smtpConfig(srv), log)
	require.NoError(t, sink.SendCode(context.Background(), delivery(accounts.PurposePasswordReset)))
	require.NoError(t, sink.Close(context.Background()))

	got := srv.Messages()
	require.Len(t, got, 1)
	require.Contains(t, got[0].Data, "To: <ada@example.com>")
	require.Contains(t, got[0].Data, "Subject: Your password reset code")
	require.Contains(t, got[0].Data, testCode)
	out := logs.String()
	require.Contains(t, out, "code e-mailed")
	require.Contains(t, out, testUser.String())
	require.NotContains(t, out, testCode)
}

func TestSMTPFailureIsLoggedWithoutCode(t *testing.T) {
	srv := smtptest.New(t)
	srv.SetRcptCode(550) // the recipient is refused
	log, logs := captureLog()
	sink := NewSMTP(smtpConfig(srv), log)
	require.NoError(t, sink.SendCode(context.Background(), delivery(accounts.PurposePasswordChange)))
	require.NoError(t, sink.Close(context.Background()))

	require.Empty(t, srv.Messages())
	out := logs.String()
	require.Contains(t, out, "code e-mail not sent")
	require.Contains(t, out, testUser.String())
	require.Contains(t, out, accounts.PurposePasswordChange)
	require.Contains(t, out, `"level":"ERROR"`)
	require.NotContains(t, out, testCode)
}

func TestSMTPSendDoesNotWaitForTheServer(t *testing.T) {
	// A server that accepts and never greets: the caller must not notice.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var conns []net.Conn
	accepted := make(chan struct{})
	go func() {
		defer close(accepted)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-accepted
		for _, c := range conns {
			c.Close()
		}
	})
	log, logs := captureLog()
	sink := NewSMTP(notify.SMTPConfig{Host: "127.0.0.1", Port: ln.Addr().(*net.TCPAddr).Port,
		From: "codes@venue.test", TLS: notify.TLSOff}, log)
	sink.timeout = 300 * time.Millisecond

	ctx, cancel := context.WithCancel(context.Background())
	start := time.Now()
	require.NoError(t, sink.SendCode(ctx, delivery(accounts.PurposeEmailOTP)))
	cancel() // the request ends; the send goes on
	require.Less(t, time.Since(start), 100*time.Millisecond)

	short, stop := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer stop()
	require.ErrorIs(t, sink.Close(short), context.DeadlineExceeded)
	require.NoError(t, sink.Close(context.Background()))
	out := logs.String()
	require.Contains(t, out, "code e-mail not sent")
	require.NotContains(t, out, testCode)
}

// smtpConfig is the sender configuration of srv (plain, no TLS).
func smtpConfig(srv *smtptest.Server) notify.SMTPConfig {
	return notify.SMTPConfig{Host: "127.0.0.1", Port: srv.Port(), From: "codes@venue.test", TLS: notify.TLSOff}
}

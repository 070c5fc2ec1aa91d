package codemail

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/accounts"
	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/notify"
)

// Limits of e-mailed codes.
const (
	// SendTimeout bounds one e-mailed code, from SendCode to the mail
	// server's answer (waiting for a free connection included).
	SendTimeout = 30 * time.Second
	// MaxConcurrent is how many codes are e-mailed at once; further ones wait
	// for a connection within their SendTimeout, so a burst of requests
	// cannot open unbounded connections to the mail server.
	MaxConcurrent = 8
)

// DefaultDataDir is the server's data folder when none is known.
const DefaultDataDir = "./.venue"

// Sink delivers one-time codes: e-mailed through an SMTP server in the
// background, or written as files into a mail folder. It implements
// accounts.CodeSink; Close waits for e-mails in flight.
type Sink struct {
	log  *slog.Logger
	mail notify.Sender // nil: write into dir
	dir  string

	timeout time.Duration
	slots   chan struct{}

	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

var _ accounts.CodeSink = (*Sink)(nil)

// NewSMTP returns a sink that e-mails codes through the SMTP server of cfg.
func NewSMTP(cfg notify.SMTPConfig, log *slog.Logger) *Sink {
	return newMailer(notify.NewSMTP(cfg), log)
}

func newMailer(mail notify.Sender, log *slog.Logger) *Sink {
	return &Sink{log: orDefault(log), mail: mail, timeout: SendTimeout, slots: make(chan struct{}, MaxConcurrent)}
}

// NewFolder returns a sink that writes each message as a file into dir
// (created on first use, mode 0700; files 0600). It is for development: the
// developer reads the code from the file.
func NewFolder(dir string, log *slog.Logger) *Sink {
	return &Sink{log: orDefault(log), dir: dir}
}

// MailDir is the folder of the file sink: m.Dir (VENUE_MAIL_DIR), else the
// folder "mail" inside dataDir (DefaultDataDir when empty).
func MailDir(m config.Mail, dataDir string) string {
	if m.Dir != "" {
		return m.Dir
	}
	if dataDir == "" {
		dataDir = DefaultDataDir
	}
	return filepath.Join(dataDir, "mail")
}

// FromConfig returns the sink the settings ask for: SMTP when smtp names a
// host (checked by package config), else the mail folder MailDir(m, dataDir).
func FromConfig(smtp config.SMTP, m config.Mail, dataDir string, log *slog.Logger) *Sink {
	log = orDefault(log)
	cfg := notify.ConfigFor(smtp)
	if cfg.SMTP.Host != "" {
		log.Info("one-time codes are e-mailed over SMTP", "host", cfg.SMTP.Host, "port", cfg.SMTP.Port, "tls", cfg.SMTP.TLS)
		return NewSMTP(cfg.SMTP, log)
	}
	dir := MailDir(m, dataDir)
	log.Info("one-time codes are written to the mail folder (VENUE_SMTP_HOST unset)", "dir", dir)
	return NewFolder(dir, log)
}

// Dir is the mail folder the sink writes into, or "" when it e-mails.
func (s *Sink) Dir() string { return s.dir }

// SendCode implements accounts.CodeSink. An e-mail leaves in the background
// and SendCode returns nil at once (failures are logged); a file is written
// before SendCode returns, and a failure to write it is returned.
func (s *Sink) SendCode(ctx context.Context, d accounts.Delivery) error {
	m := compose(d)
	if s.mail == nil {
		return s.write(ctx, d, m)
	}
	// Detached: the request may end (and cancel its context) long before the
	// mail server answers; values such as the request id stay for the logs.
	ctx = context.WithoutCancel(ctx)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		s.send(ctx, d, m) // after Close nothing waits for a goroutine
		return nil
	}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		s.send(ctx, d, m)
	}()
	return nil
}

// Close waits until the e-mails in flight are sent or have failed, or ctx
// ends (its error is then returned). Codes sent after Close are e-mailed
// before SendCode returns. Close of a file sink returns at once.
func (s *Sink) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("codemail: e-mails still in flight: %w", ctx.Err())
	}
}

// send e-mails one code and logs the outcome, never the code.
func (s *Sink) send(ctx context.Context, d accounts.Delivery, m message) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	select {
	case s.slots <- struct{}{}:
		defer func() { <-s.slots }()
	case <-ctx.Done():
		s.log.ErrorContext(ctx, "code e-mail not sent", "user_id", d.UserID, "purpose", d.Purpose,
			"error", "no free mail connection within the send timeout")
		return
	}
	_, err := s.mail.Send(ctx, notify.Outgoing{
		DeliveryID: uuid.New(),
		Channel:    notify.Email,
		To:         d.Email,
		Kind:       "auth_code." + d.Purpose,
		Subject:    m.subject,
		Body:       m.body,
	})
	if err != nil {
		s.log.ErrorContext(ctx, "code e-mail not sent", "user_id", d.UserID, "purpose", d.Purpose, "error", err)
		return
	}
	s.log.InfoContext(ctx, "code e-mailed", "user_id", d.UserID, "purpose", d.Purpose)
}

// write stores one message as a file named after the time, the purpose and a
// random id, so messages never overwrite each other and sort by time.
func (s *Sink) write(ctx context.Context, d accounts.Delivery, m message) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("codemail: mail folder: %w", err)
	}
	var id [6]byte
	_, _ = rand.Read(id[:])
	now := time.Now().UTC()
	name := fmt.Sprintf("%s-%s-%s.eml", now.Format("20060102T150405.000Z"), fileSafe(d.Purpose), hex.EncodeToString(id[:]))
	path := filepath.Join(s.dir, name)
	var b strings.Builder
	fmt.Fprintf(&b, "To: %s\nSubject: %s\nDate: %s\n\n%s", oneLine(d.Email), m.subject, now.Format(time.RFC1123Z), m.body)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("codemail: %w", err)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return fmt.Errorf("codemail: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("codemail: %w", err)
	}
	s.log.InfoContext(ctx, "code written to the mail folder", "path", path, "purpose", d.Purpose, "user_id", d.UserID)
	return nil
}

// fileSafe keeps the letters, digits, '-' and '_' of s, for a file name.
func fileSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return -1
	}, s)
	if s == "" {
		return "code"
	}
	return s
}

// oneLine keeps a header value on its line.
func oneLine(s string) string { return strings.NewReplacer("\r", " ", "\n", " ").Replace(s) }

func orDefault(log *slog.Logger) *slog.Logger {
	if log == nil {
		return slog.Default()
	}
	return log
}

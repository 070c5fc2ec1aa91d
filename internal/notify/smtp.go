package notify

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"strconv"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/config"
)

// TLS modes of the SMTP adapter.
const (
	// TLSAuto upgrades with STARTTLS when the server offers it.
	TLSAuto = "auto"
	// TLSRequired refuses to send unless STARTTLS succeeds.
	TLSRequired = "required"
	// TLSImplicit connects over TLS from the start (port 465).
	TLSImplicit = "implicit"
	// TLSOff never upgrades (a local relay).
	TLSOff = "off"
)

// SMTPConfig configures the e-mail adapter.
type SMTPConfig struct {
	Host     string
	Port     int
	From     string
	Username string
	Password string
	// TLS is one of TLSAuto (default), TLSRequired, TLSImplicit, TLSOff.
	TLS string
	// TLSConfig overrides the TLS client configuration (tests trust their own CA).
	TLSConfig *tls.Config
	// Timeout bounds one send; zero means 30 seconds.
	Timeout time.Duration
	// HelloName is the name sent in EHLO; empty means "localhost".
	HelloName string
}

// ConfigFor returns the channel configuration of the SMTP settings (package
// config, which has checked port, sender and TLS mode): e-mail over SMTP when
// a host is set, else to the log sink.
func ConfigFor(s config.SMTP) Config {
	if s.Host == "" {
		return Config{}
	}
	return Config{SMTP: SMTPConfig{Host: s.Host, Port: s.Port, From: s.From, Username: s.Username,
		Password: s.Password, TLS: s.TLS}}
}

// SMTP sends e-mail through an SMTP server with net/smtp.
type SMTP struct{ cfg SMTPConfig }

// NewSMTP returns the e-mail adapter of cfg.
func NewSMTP(cfg SMTPConfig) *SMTP {
	if cfg.TLS == "" {
		cfg.TLS = TLSAuto
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.HelloName == "" {
		cfg.HelloName = "localhost"
	}
	return &SMTP{cfg: cfg}
}

// Send implements Sender: one message to m.To, plain text in UTF-8 (quoted-printable). A
// 5xx answer from the server is permanent (ErrPermanent); anything else may be retried.
func (s *SMTP) Send(ctx context.Context, m Outgoing) (string, error) {
	from, err := mail.ParseAddress(s.cfg.From)
	if err != nil {
		return "", fmt.Errorf("smtp: sender address: %w", ErrPermanent)
	}
	to, err := mail.ParseAddress(m.To)
	if err != nil || strings.ContainsAny(m.To, "\r\n") {
		return "", fmt.Errorf("smtp: recipient address: %w", ErrPermanent)
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	c, err := s.dial(ctx)
	if err != nil {
		return "", err
	}
	defer c.Close()
	msgID := fmt.Sprintf("<%s@%s>", m.DeliveryID, domainOf(from.Address))
	body, err := compose(from, to, m, msgID, time.Now())
	if err != nil {
		return "", err
	}
	if err := s.transact(c, from.Address, to.Address, body); err != nil {
		return "", classifySMTP(err)
	}
	return msgID, nil
}

func (s *SMTP) dial(ctx context.Context) (*smtp.Client, error) {
	addr := net.JoinHostPort(s.cfg.Host, strconv.Itoa(s.cfg.Port))
	d := &net.Dialer{}
	conn, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("smtp: dial: %w", err)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = conn.SetDeadline(dl)
	}
	if s.cfg.TLS == TLSImplicit {
		conn = tls.Client(conn, s.tlsConfig())
	}
	c, err := smtp.NewClient(conn, s.cfg.Host)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("smtp: greeting: %w", err)
	}
	if err := c.Hello(s.cfg.HelloName); err != nil {
		c.Close()
		return nil, fmt.Errorf("smtp: hello: %w", err)
	}
	if s.cfg.TLS == TLSAuto || s.cfg.TLS == TLSRequired {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(s.tlsConfig()); err != nil {
				c.Close()
				return nil, fmt.Errorf("smtp: starttls: %w", err)
			}
		} else if s.cfg.TLS == TLSRequired {
			c.Close()
			return nil, errors.New("smtp: server does not offer STARTTLS")
		}
	}
	if s.cfg.Username != "" {
		if err := c.Auth(smtp.PlainAuth("", s.cfg.Username, s.cfg.Password, s.cfg.Host)); err != nil {
			c.Close()
			return nil, fmt.Errorf("smtp: auth: %w", err)
		}
	}
	return c, nil
}

func (s *SMTP) tlsConfig() *tls.Config {
	if s.cfg.TLSConfig != nil {
		c := s.cfg.TLSConfig.Clone()
		if c.ServerName == "" {
			c.ServerName = s.cfg.Host
		}
		return c
	}
	return &tls.Config{ServerName: s.cfg.Host, MinVersion: tls.VersionTLS12}
}

func (s *SMTP) transact(c *smtp.Client, from, to string, body []byte) error {
	if err := c.Mail(from); err != nil {
		return err
	}
	if err := c.Rcpt(to); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(body); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

// classifySMTP marks 5xx replies permanent.
func classifySMTP(err error) error {
	var te *textproto.Error
	if errors.As(err, &te) && te.Code >= 500 {
		return fmt.Errorf("smtp: %d: %w", te.Code, ErrPermanent)
	}
	return fmt.Errorf("smtp: %w", err)
}

func domainOf(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[i+1:]
	}
	return "localhost"
}

// compose builds the RFC 5322 message: headers with encoded words, a quoted-printable body,
// and, when the message carries attachments, a multipart/mixed body whose first part is the
// text and each further part a base64 file.
func compose(from, to *mail.Address, m Outgoing, msgID string, now time.Time) ([]byte, error) {
	var b bytes.Buffer
	subject := strings.NewReplacer("\r", " ", "\n", " ").Replace(m.Subject)
	hdr := [][2]string{
		{"From", from.String()},
		{"To", to.String()},
		{"Subject", mime.QEncoding.Encode("utf-8", subject)},
		{"Date", now.Format(time.RFC1123Z)},
		{"Message-ID", msgID},
		{"MIME-Version", "1.0"},
	}
	var mw *multipart.Writer
	if len(m.Attachments) == 0 {
		hdr = append(hdr, [2]string{"Content-Type", "text/plain; charset=utf-8"},
			[2]string{"Content-Transfer-Encoding", "quoted-printable"})
	} else {
		mw = multipart.NewWriter(&b)
		hdr = append(hdr, [2]string{"Content-Type", mime.FormatMediaType("multipart/mixed", map[string]string{"boundary": mw.Boundary()})})
	}
	var head bytes.Buffer
	for _, h := range hdr {
		fmt.Fprintf(&head, "%s: %s\r\n", h[0], h[1])
	}
	head.WriteString("\r\n")
	body := strings.ReplaceAll(strings.ReplaceAll(m.Body, "\r\n", "\n"), "\n", "\r\n")
	if mw == nil {
		if err := writeQP(&b, body); err != nil {
			return nil, err
		}
		b.WriteString("\r\n")
		return append(head.Bytes(), b.Bytes()...), nil
	}
	text, err := mw.CreatePart(textproto.MIMEHeader{"Content-Type": {"text/plain; charset=utf-8"},
		"Content-Transfer-Encoding": {"quoted-printable"}})
	if err != nil {
		return nil, err
	}
	if err := writeQP(text, body); err != nil {
		return nil, err
	}
	for _, a := range m.Attachments {
		ct := mime.FormatMediaType(a.ContentType, map[string]string{"name": a.Filename})
		disp := mime.FormatMediaType("attachment", map[string]string{"filename": a.Filename})
		if ct == "" || disp == "" {
			return nil, fmt.Errorf("smtp: attachment %q: %w", a.Filename, ErrPermanent)
		}
		part, err := mw.CreatePart(textproto.MIMEHeader{"Content-Type": {ct}, "Content-Disposition": {disp},
			"Content-Transfer-Encoding": {"base64"}})
		if err != nil {
			return nil, err
		}
		enc := base64.StdEncoding.EncodeToString(a.Data)
		for len(enc) > 76 {
			if _, err := io.WriteString(part, enc[:76]+"\r\n"); err != nil {
				return nil, err
			}
			enc = enc[76:]
		}
		if _, err := io.WriteString(part, enc+"\r\n"); err != nil {
			return nil, err
		}
	}
	if err := mw.Close(); err != nil {
		return nil, err
	}
	b.WriteString("\r\n")
	return append(head.Bytes(), b.Bytes()...), nil
}

func writeQP(w io.Writer, body string) error {
	qp := quotedprintable.NewWriter(w)
	if _, err := qp.Write([]byte(body)); err != nil {
		return err
	}
	return qp.Close()
}

// Package smtptest runs a minimal SMTP server on a loopback port for tests of
// the mail senders: enough of RFC 5321 for one client at a time (EHLO, AUTH
// PLAIN when offered, MAIL, RCPT, DATA, QUIT), keeping every message it
// accepts. It never upgrades to TLS, so a sender that requires TLS fails
// against it.
package smtptest

import (
	"bufio"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// Message is one message the server accepted.
type Message struct {
	From, To string
	// Data is the message as sent after DATA, without the final dot line.
	Data string
}

// Server is a running test SMTP server.
type Server struct {
	ln net.Listener

	mu       sync.Mutex
	rcptCode int
	auth     bool
	authLine string
	received []Message
}

// New starts a server that accepts every recipient; it stops with the test.
func New(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &Server{ln: ln, rcptCode: 250}
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

// Port is the server's loopback port.
func (s *Server) Port() int { return s.ln.Addr().(*net.TCPAddr).Port }

// SetRcptCode makes RCPT TO answer code (250 accepts; 550 refuses for good,
// 451 for now).
func (s *Server) SetRcptCode(code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rcptCode = code
}

// OfferAuth makes EHLO offer AUTH PLAIN.
func (s *Server) OfferAuth() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.auth = true
}

// AuthLine is the last AUTH command a client sent.
func (s *Server) AuthLine() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.authLine
}

// Messages are the messages accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.received...)
}

func (s *Server) serve(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	w := bufio.NewWriter(c)
	say := func(lines ...string) {
		for _, l := range lines {
			_, _ = w.WriteString(l + "\r\n")
		}
		_ = w.Flush()
	}
	say("220 test ESMTP")
	var cur Message
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		cmd := strings.ToUpper(line)
		s.mu.Lock()
		auth, rcpt := s.auth, s.rcptCode
		s.mu.Unlock()
		switch {
		case strings.HasPrefix(cmd, "EHLO"):
			if auth {
				say("250-test", "250 AUTH PLAIN")
			} else {
				say("250 test")
			}
		case strings.HasPrefix(cmd, "AUTH PLAIN"):
			s.mu.Lock()
			s.authLine = line
			s.mu.Unlock()
			say("235 ok")
		case strings.HasPrefix(cmd, "MAIL FROM:"):
			cur = Message{From: strings.Trim(line[len("MAIL FROM:"):], "<> ")}
			say("250 ok")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			cur.To = strings.Trim(line[len("RCPT TO:"):], "<> ")
			say(strconv.Itoa(rcpt) + " rcpt")
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
			cur.Data = b.String()
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

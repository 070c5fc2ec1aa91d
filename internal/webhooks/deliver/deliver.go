package deliver

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
)

// Defaults of Options.
const (
	DefaultTimeout         = 10 * time.Second
	DefaultMaxResponseRead = 64 << 10
	DefaultSnippetBytes    = 1 << 10
	// HeaderCorrelationID carries the attempt's correlation id.
	HeaderCorrelationID = "X-Request-Id"
	// userAgent names the sender to receivers.
	userAgent = "venue-webhooks/1"
)

// Options configure a Sender. The zero value is the production setting.
type Options struct {
	// AllowPrivate lets deliveries reach loopback, private, link-local and the other
	// non-public ranges: for development and tests. Metadata addresses stay refused.
	AllowPrivate bool
	// AllowHTTP lets deliveries use plain http.
	AllowHTTP bool
	// Timeout bounds one attempt, from dialling to the end of the response; zero means
	// DefaultTimeout.
	Timeout time.Duration
	// MaxResponseRead caps the bytes of a response read; zero means DefaultMaxResponseRead.
	MaxResponseRead int64
	// SnippetBytes caps the response text kept in an Attempt; zero means
	// DefaultSnippetBytes.
	SnippetBytes int
}

// Class is what became of an attempt, and so what happens next.
type Class string

// The classes of attempts.
const (
	// ClassDelivered is a 2xx answer.
	ClassDelivered Class = "delivered"
	// ClassGone is 410 Gone: the subscription is to be disabled.
	ClassGone Class = "gone"
	// ClassHTTPStatus is any other answer of 4xx or 5xx, 429 included.
	ClassHTTPStatus Class = "http_status"
	// ClassRedirect is a 3xx, not followed.
	ClassRedirect Class = "redirect"
	// ClassTimeout is an attempt that ran out of time.
	ClassTimeout Class = "timeout"
	// ClassConnection is a failure to resolve, connect, or complete TLS or the exchange.
	ClassConnection Class = "connection"
	// ClassBlocked is a target address the guard refused; nothing was sent.
	ClassBlocked Class = "blocked"
	// ClassInvalidURL is a URL that cannot be delivered to; final.
	ClassInvalidURL Class = "invalid_url"
)

// Retry reports whether an attempt of this class is retried on the schedule.
func (c Class) Retry() bool {
	switch c {
	case ClassDelivered, ClassGone, ClassInvalidURL:
		return false
	}
	return true
}

// Request is one attempt to send.
type Request struct {
	URL string
	// Header holds the signature headers, and any other to send.
	Header http.Header
	// Body is the raw JSON payload, the bytes signed.
	Body []byte
	// CorrelationID is sent in X-Request-Id; empty means a new random one.
	CorrelationID string
}

// Attempt is the result of one attempt, as the delivery history keeps it.
type Attempt struct {
	// StartedAt is when the attempt began.
	StartedAt time.Time
	// Status is the HTTP status, zero when no response arrived.
	Status int
	// Duration is the time the attempt took.
	Duration time.Duration
	// Class classifies the outcome.
	Class Class
	// Error describes a failure without a response, or a refused status; empty on delivery.
	// It never holds the URL, which may carry a receiver's token.
	Error string
	// ResponseSnippet is the start of the response body, valid UTF-8.
	ResponseSnippet string
	// CorrelationID was sent in X-Request-Id.
	CorrelationID string
	// RetryAfter is the wait a 429 or 503 asked for in Retry-After; zero when none.
	RetryAfter time.Duration
}

// Sender sends webhook attempts. It is safe for concurrent use.
type Sender struct {
	opts   Options
	client *http.Client
}

// New returns a Sender.
func New(opts Options) *Sender {
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxResponseRead <= 0 {
		opts.MaxResponseRead = DefaultMaxResponseRead
	}
	if opts.SnippetBytes <= 0 {
		opts.SnippetBytes = DefaultSnippetBytes
	}
	dialer := &net.Dialer{
		Timeout:   opts.Timeout,
		KeepAlive: 30 * time.Second,
		Control:   control(opts.AllowPrivate),
	}
	transport := &http.Transport{
		Proxy:                 nil, // a proxy would connect for us, past the guard
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   opts.Timeout,
		ResponseHeaderTimeout: opts.Timeout,
	}
	return &Sender{
		opts: opts,
		client: &http.Client{
			Transport: transport,
			Timeout:   opts.Timeout,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		},
	}
}

// Send makes one attempt and classifies it. It never returns an error: every failure is an
// Attempt of some class.
func (s *Sender) Send(ctx context.Context, r Request) (a Attempt) {
	a = Attempt{StartedAt: time.Now(), CorrelationID: r.CorrelationID}
	if a.CorrelationID == "" {
		a.CorrelationID = uuid.NewString()
	}
	defer func() { a.Duration = time.Since(a.StartedAt) }()

	u, err := CheckURL(r.URL, s.opts)
	if err != nil {
		a.Class, a.Error = classifyErr(err), err.Error()
		return a
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(r.Body))
	if err != nil {
		a.Class, a.Error = ClassInvalidURL, "build request"
		return a
	}
	for k, vs := range r.Header {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set(HeaderCorrelationID, a.CorrelationID)

	resp, err := s.client.Do(req)
	if err != nil {
		a.Class, a.Error = classifyErr(err), describe(err)
		return a
	}
	defer resp.Body.Close()
	body, readErr := io.ReadAll(io.LimitReader(resp.Body, s.opts.MaxResponseRead))
	a.Status = resp.StatusCode
	a.ResponseSnippet = snippet(body, s.opts.SnippetBytes)
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		a.Class = ClassDelivered // the receiver accepted it, whatever happens to the body read
		return a
	case resp.StatusCode == http.StatusGone:
		a.Class, a.Error = ClassGone, "receiver answered 410 Gone"
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		a.Class, a.Error = ClassRedirect, "redirect not followed: "+resp.Status
	default:
		a.Class, a.Error = ClassHTTPStatus, "receiver answered "+resp.Status
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			a.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		}
	}
	if readErr != nil && a.Error != "" {
		a.Error += "; response read failed"
	}
	return a
}

// classifyErr maps a failure without a response to its class.
func classifyErr(err error) Class {
	var netErr net.Error
	switch {
	case errors.Is(err, ErrInvalidURL):
		return ClassInvalidURL
	case errors.Is(err, ErrBlockedAddress):
		return ClassBlocked
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return ClassTimeout
	default:
		return ClassConnection
	}
}

// describe returns the error text without the URL that net/http puts in front of it.
func describe(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	return err.Error()
}

// snippet returns up to n bytes of b as valid UTF-8.
func snippet(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return strings.ToValidUTF8(strings.TrimRightFunc(string(b), func(r rune) bool { return r == utf8.RuneError }), "")
}

// parseRetryAfter reads Retry-After in seconds or as an HTTP date; zero when absent or bad.
func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && secs > 0 {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

package inquiries

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/config"
)

// Notice is what the venue's staff are told about a new inquiry. It holds
// the member's contact details for the venue that received them, and nothing
// else of the account.
type Notice struct {
	InquiryID      uuid.UUID `json:"inquiry_id"`
	OrganizationID uuid.UUID `json:"organization_id"`
	VenueSlug      string    `json:"venue_slug"`
	ServiceID      uuid.UUID `json:"service_id"`
	ServiceName    string    `json:"service_name"`
	PreferredTime  string    `json:"preferred_time"`
	Message        string    `json:"message"`
	ContactName    string    `json:"contact_name"`
	ContactEmail   string    `json:"contact_email"`
	ContactPhone   string    `json:"contact_phone"`
	CreatedAt      time.Time `json:"created_at"`
}

// Notifier delivers a new inquiry to the venue's staff. A nil error means the
// staff have it; delivery of the same inquiry may be repeated (after a lost
// answer) and must be recognised by InquiryID.
type Notifier interface {
	NotifyStaff(ctx context.Context, n Notice) error
}

// LogNotifier is the development notifier: it logs that an inquiry arrived
// (ids only, no contact details) and always succeeds.
type LogNotifier struct{ Log *slog.Logger }

// NotifyStaff implements Notifier.
func (l LogNotifier) NotifyStaff(ctx context.Context, n Notice) error {
	if l.Log != nil {
		l.Log.InfoContext(ctx, "inquiry for venue staff", "inquiry_id", n.InquiryID, "organization_id", n.OrganizationID)
	}
	return nil
}

// HTTPNotifier posts each Notice as JSON to URL (the venue platform's staff
// notification relay) with an Idempotency-Key header equal to the inquiry id;
// any 2xx answer is a delivery.
type HTTPNotifier struct {
	URL    string
	Client *http.Client
}

// NotifyStaff implements Notifier.
func (h HTTPNotifier) NotifyStaff(ctx context.Context, n Notice) error {
	body, err := json.Marshal(n)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, h.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", n.InquiryID.String())
	c := h.Client
	if c == nil {
		c = &http.Client{Timeout: 5 * time.Second}
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("inquiries: notify staff: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("inquiries: notify staff: relay answered %d", resp.StatusCode)
	}
	return nil
}

// EnvNotifyURL names the setting of the staff notification relay.
const EnvNotifyURL = "VENUE_INQUIRY_NOTIFY_URL"

// NotifierFor returns an HTTPNotifier for c.NotifyURL (VENUE_INQUIRY_NOTIFY_URL:
// an absolute http or https URL; no redirects are followed), or a LogNotifier
// when it is unset.
func NotifierFor(c config.Inquiries, log *slog.Logger) (Notifier, error) {
	raw := c.NotifyURL
	if raw == "" {
		return LogNotifier{Log: log}, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("inquiries: %s must be an absolute http(s) URL", EnvNotifyURL)
	}
	return HTTPNotifier{URL: u.String(), Client: &http.Client{
		Timeout: 5 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}, nil
}

package handlers

import (
	"github.com/venueplatform/venue/internal/media"
	"sync"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/pagination"
	"github.com/venueplatform/venue/internal/secretbox"
	"github.com/venueplatform/venue/internal/webhooks/deliver"
)

// Settings are what the REST handlers take from the configuration, each
// part built at start by the server (package config).
type Settings struct {
	// Cursors signs pagination cursors; without a secret, one random secret
	// of this process is used (cursors then die with it).
	Cursors config.Cursors
	// Inquiries names the staff relay of booking inquiries.
	Inquiries config.Inquiries
	// WebhookSender are the delivery options subscription URLs are checked
	// against (webhooks.FromConfig).
	WebhookSender deliver.Options
	// SecretBox seals webhook signing secrets at rest (nil: stored as they are).
	SecretBox *secretbox.Box
	// Media keeps uploaded files (service images); nil refuses uploads.
	Media *media.Service
}

// WithConfig returns h running on s.
func (h *Handler) WithConfig(s Settings) *Handler {
	h.set = s
	h.inq = newInquiryDeps(h)
	return h
}

// processCursorSecret is the cursor secret of a process configured without
// one: random, shared by every handler of the process.
var processCursorSecret = sync.OnceValues(func() ([]byte, error) {
	s, _, err := pagination.LoadSecret(func(string) string { return "" })
	return s, err
})

// tokenSecret is the configured secret of opaque client tokens (confirmation
// tokens), or nil when none is configured or it is malformed (the domain then
// takes a secret of this process).
func (h *Handler) tokenSecret() []byte {
	if h.set.Cursors.Secret == "" {
		return nil
	}
	s, _, err := pagination.LoadSecret(func(string) string { return h.set.Cursors.Secret })
	if err != nil {
		return nil
	}
	return s
}

// cursorSigner signs the list cursors of every resource (bookings, webhook
// deliveries, inquiries). A malformed secret fails the lists that use it,
// not the start.
func (h *Handler) cursorSigner() (*pagination.Signer, error) {
	secret, err := processCursorSecret()
	if h.set.Cursors.Secret != "" {
		secret, _, err = pagination.LoadSecret(func(string) string { return h.set.Cursors.Secret })
	}
	if err != nil {
		return nil, err
	}
	return pagination.NewSigner(secret), nil
}

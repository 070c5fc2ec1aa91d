package media

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // decoders of the accepted image formats
	_ "image/png"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Limits of an uploaded image.
const (
	MaxImageBytes = 10 << 20
	MinWidth      = 1200
	MinHeight     = 675
	UploadFor     = 15 * time.Minute
)

// UploadPrefix is the URL path an upload is PUT to (UploadPrefix + token);
// PublicPrefix the one published objects are read from.
const (
	UploadPrefix = "/media-uploads/"
	PublicPrefix = "/media/"
)

// Ticket is a pending upload: who may finalize it and until when.
type Ticket struct {
	Token          string    `json:"token"`
	OrganizationID uuid.UUID `json:"organization_id"`
	Target         string    `json:"target"`
	ExpiresAt      time.Time `json:"expires_at"`
}

// Path is the staged object's key, the `path` a finalize sends back.
func (t Ticket) Path() string { return "uploads/" + t.Token }

func markerKey(token string) string { return "uploads/" + token + ".ticket" }

var stagedPath = regexp.MustCompile(`^uploads/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`)

// Service stages, checks and publishes uploads over a Store.
type Service struct {
	Store Store
	Now   func() time.Time
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// NewTicket opens an upload for target (for example "service:<id>") of
// venue org.
func (s *Service) NewTicket(ctx context.Context, org uuid.UUID, target string) (*Ticket, error) {
	t := Ticket{Token: uuid.NewString(), OrganizationID: org, Target: target, ExpiresAt: s.now().Add(UploadFor).UTC()}
	b, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	if err := s.Store.Put(ctx, markerKey(t.Token), bytes.NewReader(b), 4096); err != nil {
		return nil, fmt.Errorf("media: ticket: %w", err)
	}
	return &t, nil
}

// ticket reads a live ticket (ErrNotFound when unknown or expired).
func (s *Service) ticket(ctx context.Context, token string) (*Ticket, error) {
	if _, err := uuid.Parse(token); err != nil {
		return nil, ErrNotFound
	}
	rc, err := s.Store.Get(ctx, markerKey(token))
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	var t Ticket
	if err := json.NewDecoder(io.LimitReader(rc, 4096)).Decode(&t); err != nil {
		return nil, fmt.Errorf("media: ticket: %w", err)
	}
	if !s.now().Before(t.ExpiresAt) {
		return nil, ErrNotFound
	}
	return &t, nil
}

// Receive stores the body of an upload to token (ErrNotFound for an unknown
// or expired token, ErrTooLarge beyond MaxImageBytes).
func (s *Service) Receive(ctx context.Context, token string, body io.Reader) error {
	t, err := s.ticket(ctx, token)
	if err != nil {
		return err
	}
	return s.Store.Put(ctx, t.Path(), body, MaxImageBytes)
}

// Refusals of a staged image.
var (
	ErrNotImage = errors.New("media: not a JPEG or PNG image")
	ErrTooSmall = errors.New("media: image too small")
	ErrNoUpload = errors.New("media: nothing uploaded at this path")
)

// Image is a staged image that passed the checks.
type Image struct {
	Ticket        *Ticket
	Format        string
	Width, Height int
	data          []byte
}

// Check reads the staged upload at path for target of venue org and decodes
// it: a JPEG or PNG of at least MinWidth x MinHeight pixels. A refused
// upload is removed.
func (s *Service) Check(ctx context.Context, org uuid.UUID, target, path string) (*Image, error) {
	m := stagedPath.FindStringSubmatch(path)
	if m == nil {
		return nil, ErrNoUpload
	}
	t, err := s.ticket(ctx, m[1])
	if errors.Is(err, ErrNotFound) || (err == nil && (t.OrganizationID != org || t.Target != target)) {
		return nil, ErrNoUpload
	}
	if err != nil {
		return nil, err
	}
	rc, err := s.Store.Get(ctx, t.Path())
	if errors.Is(err, ErrNotFound) {
		return nil, ErrNoUpload
	}
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(rc, MaxImageBytes+1))
	rc.Close()
	if err != nil {
		return nil, err
	}
	img, format, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		s.Discard(ctx, t)
		return nil, ErrNotImage
	}
	b := img.Bounds()
	out := &Image{Ticket: t, Format: format, Width: b.Dx(), Height: b.Dy(), data: data}
	if out.Width < MinWidth || out.Height < MinHeight {
		s.Discard(ctx, t)
		return out, ErrTooSmall
	}
	return out, nil
}

// Publish stores a checked image under key (its extension added) and
// returns the key.
func (s *Service) Publish(ctx context.Context, img *Image, key string) (string, error) {
	ext := ".png"
	if img.Format == "jpeg" {
		ext = ".jpg"
	}
	key += ext
	if err := s.Store.Put(ctx, key, bytes.NewReader(img.data), MaxImageBytes); err != nil {
		return "", err
	}
	return key, nil
}

// Discard removes a ticket's staged upload and marker.
func (s *Service) Discard(ctx context.Context, t *Ticket) error {
	err := s.Store.Delete(ctx, t.Path())
	return errors.Join(err, s.Store.Delete(ctx, markerKey(t.Token)))
}

// SweepStaged removes staged uploads that were never finalized: the upload
// and its ticket once the ticket expired, and other files under uploads/
// (an upload whose ticket is gone, a write cut short) once older than
// UploadFor. It returns how many objects it removed; a store that cannot
// list is not swept.
func (s *Service) SweepStaged(ctx context.Context) (int, error) {
	l, ok := s.Store.(Lister)
	if !ok {
		return 0, nil
	}
	objs, err := l.List(ctx, "uploads/")
	if err != nil {
		return 0, fmt.Errorf("media: sweep: %w", err)
	}
	now := s.now()
	marked := map[string]bool{} // tokens with a ticket
	dead := map[string]bool{}   // tokens whose ticket expired
	n := 0
	var errs []error
	remove := func(key string) {
		if err := s.Store.Delete(ctx, key); err != nil {
			errs = append(errs, err)
			return
		}
		n++
	}
	for _, o := range objs {
		token, isTicket := strings.CutSuffix(strings.TrimPrefix(o.Key, "uploads/"), ".ticket")
		if !isTicket || !stagedPath.MatchString("uploads/"+token) {
			continue
		}
		marked[token] = true
		if _, err := s.ticket(ctx, token); errors.Is(err, ErrNotFound) {
			dead[token] = true
			remove(o.Key)
		}
	}
	for _, o := range objs {
		token, isTicket := strings.CutSuffix(strings.TrimPrefix(o.Key, "uploads/"), ".ticket")
		switch {
		case isTicket && marked[token]:
		case stagedPath.MatchString(o.Key) && (dead[token] || (!marked[token] && now.Sub(o.ModTime) > UploadFor)):
			remove(o.Key)
		case !stagedPath.MatchString(o.Key) && now.Sub(o.ModTime) > UploadFor:
			remove(o.Key) // a write cut short, or anything else left there
		}
	}
	return n, errors.Join(errs...)
}

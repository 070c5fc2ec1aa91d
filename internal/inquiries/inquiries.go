package inquiries

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/featureprovisioning"
	"github.com/venueplatform/venue/ent/inquiry"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// notifyTimeout bounds one delivery to the staff relay, so a slow relay
// answers 503 INQUIRY_RECONCILE_FAILED instead of holding the request.
const notifyTimeout = 5 * time.Second

// Service files and lists booking inquiries.
type Service struct {
	client *ent.Client
	notify Notifier
	log    *slog.Logger
	now    func() time.Time
}

// New returns a Service delivering through n (nil: LogNotifier over log).
func New(client *ent.Client, n Notifier, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if n == nil {
		n = LogNotifier{Log: log}
	}
	return &Service{client: client, notify: n, log: log, now: time.Now}
}

// FileParams is one inquiry as the member sent it. Empty contact fields take
// the account's name, email and phone.
type FileParams struct {
	ServiceID     uuid.UUID
	PreferredTime string
	Message       string
	ContactName   string
	ContactEmail  string
	ContactPhone  string
	// RequestID is the caller's Idempotency-Key, already checked to be a
	// UUID and lower-cased; empty lets File choose one.
	RequestID string
}

// Filed is the outcome of File.
type Filed struct {
	Inquiry   *ent.Inquiry
	RequestID string
	// Replayed is true when the request id named an inquiry filed before.
	Replayed bool
}

// File files an inquiry for the signed-in user at the venue ref (slug or
// organization id) and delivers it to the venue's staff; see the package
// documentation for the rules and errors.
func (s *Service) File(ctx context.Context, ref string, p FileParams) (*Filed, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, apperr.Unauthorized("a user session is required")
	}
	o, err := members.ResolveVenue(ctx, s.client, ref)
	if err != nil {
		return nil, err
	}
	rel, err := s.relationship(ctx, u.UserID, o.ID)
	if err != nil {
		return nil, err
	}
	switch {
	case rel == nil && !o.Listed:
		return nil, apperr.NotFound("venue")
	case rel != nil && rel.Status == member.StatusBlocked:
		return nil, apperr.AccessDenied("blocked", "the venue does not accept this account")
	}
	// The user acts inside the venue for this call only, under the venue's
	// ordinary policies (as joining does); the session is not changed.
	vctx := system.Elevate(ctx, "inquiries.in_venue", viewer.User{UserID: u.UserID, SessionID: u.SessionID, Org: o.ID})
	requestID := p.RequestID
	if requestID == "" {
		requestID = uuid.NewString()
	}
	// A retry of an accepted inquiry replays it, even if the venue switched
	// inquiries off or the service stopped taking them since.
	existing, err := s.byRequest(vctx, u.UserID, requestID)
	if err != nil {
		return nil, err
	}
	if existing != nil {
		return s.replay(vctx, o, existing, p, requestID)
	}
	if err := s.enabled(vctx); err != nil {
		return nil, err
	}
	svc, err := s.client.Service.Get(vctx, p.ServiceID)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("service")
	}
	if err != nil {
		return nil, err
	}
	if !svc.IsActive || !svc.AcceptsInquiries {
		return nil, errNotAccepting()
	}
	if err := s.fillContact(ctx, u, &p); err != nil {
		return nil, err
	}
	inq, err := s.create(vctx, u, rel, svc, p, requestID)
	if ent.IsConstraintError(err) {
		// The same request id filed concurrently: that filing wins.
		if existing, err = s.byRequest(vctx, u.UserID, requestID); err == nil && existing != nil {
			return s.replay(vctx, o, existing, p, requestID)
		}
	}
	if err != nil {
		return nil, err
	}
	if inq, err = s.deliver(vctx, o, inq); err != nil {
		return nil, ReconcileFailed(requestID, err)
	}
	return &Filed{Inquiry: inq, RequestID: requestID}, nil
}

// ErrRequestReused is File's answer to a request id that names an inquiry
// filed with another service, time or message. The request id is what the
// face took from its client (REST: the Idempotency-Key), so the face says
// what the reuse means in its protocol (REST: 409
// IDEMPOTENCY_KEY_REUSE_MISMATCH); this package imports nothing of REST.
var ErrRequestReused = errors.New("inquiries: request id reused with another inquiry")

// replay answers a retry naming an inquiry filed before: the same inquiry,
// delivered now if the first attempt could not be. A retry with another
// body is ErrRequestReused.
func (s *Service) replay(vctx context.Context, o *ent.Organization, inq *ent.Inquiry, p FileParams, requestID string) (*Filed, error) {
	if inq.ServiceID != p.ServiceID || inq.PreferredTime != p.PreferredTime || inq.Message != p.Message {
		return nil, ErrRequestReused
	}
	inq, err := s.deliver(vctx, o, inq)
	if err != nil {
		return nil, ReconcileFailed(requestID, err)
	}
	return &Filed{Inquiry: inq, RequestID: requestID, Replayed: true}, nil
}

// relationship is the user's relationship with org, nil without one.
func (s *Service) relationship(ctx context.Context, uid, org uuid.UUID) (*ent.Member, error) {
	// System call site: the user reads their own relationship with the venue.
	m, err := s.client.Member.Query().Where(member.UserID(uid), member.OrganizationID(org)).
		Only(system.Allow(ctx, "me.memberships"))
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return m, err
}

// enabled refuses a venue that switched its inquiries module off.
func (s *Service) enabled(vctx context.Context) error {
	fp, err := s.client.FeatureProvisioning.Query().
		Where(featureprovisioning.OrganizationIDEQ(mustVenue(vctx))).Only(vctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	if on, set := fp.Modules[ModuleKey]; set && !on {
		return errDisabled()
	}
	return nil
}

func mustVenue(ctx context.Context) uuid.UUID {
	id, _ := viewer.VenueFromContext(ctx)
	return id
}

func (s *Service) byRequest(vctx context.Context, uid uuid.UUID, requestID string) (*ent.Inquiry, error) {
	inq, err := s.client.Inquiry.Query().Where(inquiry.UserID(uid), inquiry.RequestID(requestID)).Only(vctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return inq, err
}

// fillContact takes the account's details for the contact fields left empty.
func (s *Service) fillContact(ctx context.Context, u viewer.User, p *FileParams) error {
	if p.ContactName != "" && p.ContactEmail != "" && p.ContactPhone != "" {
		return nil
	}
	self := system.Elevate(ctx, "inquiries.self", viewer.User{UserID: u.UserID, SessionID: u.SessionID})
	usr, err := s.client.User.Get(self, u.UserID)
	if err != nil {
		return err
	}
	if p.ContactName == "" {
		p.ContactName = trimName(usr.FirstName, usr.LastName)
	}
	if p.ContactEmail == "" {
		p.ContactEmail = usr.Email
	}
	if p.ContactPhone == "" {
		p.ContactPhone = usr.Phone
	}
	return nil
}

func trimName(first, last string) string {
	switch {
	case first == "":
		return last
	case last == "":
		return first
	}
	return first + " " + last
}

// create stores the inquiry and its audit entry in one transaction.
func (s *Service) create(vctx context.Context, u viewer.User, rel *ent.Member, svc *ent.Service, p FileParams, requestID string) (*ent.Inquiry, error) {
	tx, err := s.client.Tx(vctx)
	if err != nil {
		return nil, err
	}
	c := tx.Inquiry.Create().SetUserID(u.UserID).SetServiceID(svc.ID).SetServiceName(svc.Name).
		SetPreferredTime(p.PreferredTime).SetMessage(p.Message).SetContactName(p.ContactName).
		SetContactEmail(p.ContactEmail).SetContactPhone(p.ContactPhone).SetRequestID(requestID)
	if rel != nil {
		c.SetMemberID(rel.ID)
	}
	inq, err := c.Save(vctx)
	if err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	uid := u.UserID
	if _, err := audit.Record(vctx, tx.Client(), audit.Entry{
		ActorKind: audit.KindUser, UserID: &uid, Action: "inquiry.created", Target: "inquiry:" + inq.ID.String(),
		Details: map[string]any{"service_id": svc.ID.String(), "request_id": requestID},
	}); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fmt.Errorf("inquiries: commit: %w", err)
	}
	return inq.Unwrap(), nil
}

// deliver tells the venue's staff of inq unless they were told before, then
// records it (status sent). The inquiry is stored either way.
func (s *Service) deliver(vctx context.Context, o *ent.Organization, inq *ent.Inquiry) (*ent.Inquiry, error) {
	if inq.StaffNotifiedAt != nil {
		return inq, nil
	}
	if err := s.client.Inquiry.UpdateOneID(inq.ID).AddNotifyAttempts(1).Exec(vctx); err != nil {
		return nil, err
	}
	return s.notifyAndMark(vctx, o, inq)
}

// notifyAndMark sends inq to the venue's staff and records it as sent.
func (s *Service) notifyAndMark(vctx context.Context, o *ent.Organization, inq *ent.Inquiry) (*ent.Inquiry, error) {
	nctx, cancel := context.WithTimeout(vctx, notifyTimeout)
	defer cancel()
	err := s.notify.NotifyStaff(nctx, Notice{
		InquiryID: inq.ID, OrganizationID: o.ID, VenueSlug: o.Slug, ServiceID: inq.ServiceID,
		ServiceName: inq.ServiceName, PreferredTime: inq.PreferredTime, Message: inq.Message,
		ContactName: inq.ContactName, ContactEmail: inq.ContactEmail, ContactPhone: inq.ContactPhone,
		CreatedAt: inq.CreatedAt.UTC(),
	})
	if err != nil {
		return nil, err
	}
	upd := s.client.Inquiry.UpdateOneID(inq.ID).SetStaffNotifiedAt(s.now().UTC())
	if inq.Status == inquiry.StatusPending {
		upd.SetStatus(inquiry.StatusSent)
	}
	out, err := upd.Save(vctx)
	if err != nil {
		return nil, err
	}
	return out, nil
}

package payments

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/viewer"
)

// ConnectStatus is a venue's connected account as the platform knows it.
type ConnectStatus struct {
	AccountID        string
	ChargesEnabled   bool
	DetailsSubmitted bool
}

// OnboardingLink is where the venue's staff finish onboarding at Stripe.
type OnboardingLink struct {
	ConnectStatus
	URL       string
	ExpiresAt time.Time
}

// ensureSettings returns the viewer's venue's payment settings, creating the
// row (card payments not yet active) when there is none.
func (s *Service) ensureSettings(ctx context.Context) (*ent.VenuePayments, error) {
	vp, err := s.venuePayments(ctx)
	if err != nil || vp != nil {
		return vp, err
	}
	vp, err = s.client.VenuePayments.Create().Save(ctx)
	if ent.IsConstraintError(err) {
		return s.venuePayments(ctx)
	}
	return vp, err
}

// Onboard gives the viewer's venue a connected account (creating one at
// Stripe the first time, with an idempotency key of the venue's settings row,
// so a retry never makes two) and an onboarding link for staff.
func (s *Service) Onboard(ctx context.Context, refreshURL, returnURL string) (*OnboardingLink, error) {
	if s.port == nil {
		return nil, unavailable(ReasonPaymentsDisabled)
	}
	vp, err := s.ensureSettings(ctx)
	if err != nil {
		return nil, fmt.Errorf("payments: venue settings: %w", err)
	}
	if vp.AccountID == nil {
		org, err := s.client.Organization.Query().Where(organization.ID(vp.OrganizationID)).Only(ctx)
		if err != nil {
			return nil, fmt.Errorf("payments: venue: %w", err)
		}
		id, err := s.port.CreateAccount(ctx, IdempotencyKey("connect_account", vp.ID.String(), "create"), org.Country, org.Email)
		if err != nil {
			return nil, s.portError(ctx, err)
		}
		if vp, err = s.client.VenuePayments.UpdateOne(vp).SetAccountID(id).Save(ctx); err != nil {
			return nil, fmt.Errorf("payments: venue settings: %w", err)
		}
	}
	link, err := s.port.CreateAccountLink(ctx, *vp.AccountID, refreshURL, returnURL)
	if err != nil {
		return nil, s.portError(ctx, err)
	}
	return &OnboardingLink{ConnectStatus: statusOf(vp), URL: link.URL, ExpiresAt: link.ExpiresAt}, nil
}

// Attach sets the viewer's venue's connected account to accountID (an
// operator's `venuectl payments connect`), reading it from Stripe to learn
// whether it may take charges.
func (s *Service) Attach(ctx context.Context, accountID string) (*ConnectStatus, error) {
	if s.port == nil {
		return nil, unavailable(ReasonPaymentsDisabled)
	}
	a, err := s.port.GetAccount(ctx, accountID)
	if err != nil {
		return nil, s.portError(ctx, err)
	}
	vp, err := s.ensureSettings(ctx)
	if err != nil {
		return nil, fmt.Errorf("payments: venue settings: %w", err)
	}
	vp, err = s.client.VenuePayments.UpdateOne(vp).SetAccountID(a.ID).
		SetChargesEnabled(a.ChargesEnabled).SetDetailsSubmitted(a.DetailsSubmitted).Save(ctx)
	if ent.IsConstraintError(err) {
		return nil, apperr.Validation("account", "the account belongs to another venue")
	}
	if err != nil {
		return nil, fmt.Errorf("payments: venue settings: %w", err)
	}
	st := statusOf(vp)
	return &st, nil
}

// Status reads the viewer's venue's connected account as recorded.
func (s *Service) Status(ctx context.Context) (*ConnectStatus, error) {
	vp, err := s.venuePayments(ctx)
	if err != nil {
		return nil, err
	}
	if vp == nil {
		return &ConnectStatus{}, nil
	}
	st := statusOf(vp)
	return &st, nil
}

func statusOf(vp *ent.VenuePayments) ConnectStatus {
	st := ConnectStatus{ChargesEnabled: vp.ChargesEnabled, DetailsSubmitted: vp.DetailsSubmitted}
	if vp.AccountID != nil {
		st.AccountID = *vp.AccountID
	}
	return st
}

func (s *Service) portError(ctx context.Context, err error) error {
	if errors.Is(err, stripeport.ErrNotFound) {
		return apperr.NotFound("account")
	}
	s.log.ErrorContext(ctx, "stripe call failed", "error", err)
	return stripeError()
}

// PermSettings is the staff permission of the venue's payment settings.
const PermSettings = "settings.business"

// RequireStaff refuses a caller without settings.business in its venue:
// 403 ACCESS_DENIED, reason permission.
func RequireStaff(ctx context.Context) error {
	u, ok := viewer.UserFromContext(ctx)
	if ok && u.MemberID == uuid.Nil && u.HasPermission(PermSettings) {
		return nil
	}
	return apperr.AccessDenied("permission", "a required staff permission is missing").
		With("required_permissions", []string{PermSettings})
}

// StatusWithAvailability is Status with whether the venue can take card
// payments now, and why not.
func (s *Service) StatusWithAvailability(ctx context.Context) (*ConnectStatus, bool, string, error) {
	vp, err := s.venuePayments(ctx)
	if err != nil {
		return nil, false, "", err
	}
	ok, reason := s.cardPayments(vp)
	if vp == nil {
		return &ConnectStatus{}, ok, reason, nil
	}
	st := statusOf(vp)
	return &st, ok, reason, nil
}

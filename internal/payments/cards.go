package payments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/paymentcustomer"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/system"
)

// Saved cards. These writes move no money, so they are not attempt rows:
// each carries a Stripe idempotency key derived from the member and the
// request's own key (v1:{purpose}:{member_id}:{request digest}), so a retry
// of the request reaches Stripe with the same key; the member's customer is
// created with a key of the member and the account alone, so there is one.

// SavedCard is a member's saved card.
type SavedCard struct {
	stripeport.Card
	IsDefault bool
}

// SetupCredentials let the app save a card (or pay) with Stripe's SDKs: a
// setup intent on the member's customer of the venue's connected account,
// and an ephemeral key for the payment sheet.
type SetupCredentials struct {
	SetupIntentID, SetupIntentClientSecret string
	CustomerID, EphemeralKey, AccountID    string
	MerchantCountry                        string
}

// Error codes of saved cards.
const (
	CodeCardNotFound       = "PAYMENT_METHOD_NOT_FOUND"
	CodeRemovalNotAllowed  = "PAYMENT_METHOD_REMOVAL_NOT_ALLOWED"
	CodeNotACard           = "NOT_A_CARD"
	CodeStripeUpdateFailed = "STRIPE_UPDATE_FAILED"
)

func cardNotFound() *apperr.Error {
	return &apperr.Error{Status: http.StatusNotFound, Code: CodeCardNotFound, Message: "payment method not found"}
}

// RemovalRefused is the answer to every removal of a saved card by its
// member: cards are removed by the venue's staff (contract).
func RemovalRefused() *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeRemovalNotAllowed,
		Message: "saved cards cannot be removed here; ask the venue"}).With("next_step", "contact_venue")
}

func requestDigest(requestKey string) string {
	sum := sha256.Sum256([]byte(requestKey))
	return hex.EncodeToString(sum[:12])
}

// customer returns the member's customer on the venue's account, creating
// it at Stripe when create is set (nil, nil when there is none and create is
// not set).
func (s *Service) customer(ctx context.Context, vp *ent.VenuePayments, memberID uuid.UUID, create bool) (*ent.PaymentCustomer, error) {
	pc, err := s.client.PaymentCustomer.Query().
		Where(paymentcustomer.MemberID(memberID), paymentcustomer.AccountID(*vp.AccountID)).Only(ctx)
	if err == nil || !ent.IsNotFound(err) || !create {
		if ent.IsNotFound(err) {
			return nil, nil
		}
		return pc, err
	}
	// System call site: the member's own e-mail (their account), read to
	// name their customer at Stripe.
	m, err := s.client.Member.Query().Where(member.ID(memberID)).WithUser().Only(system.Allow(ctx, "payments.customer_email"))
	if err != nil {
		return nil, fmt.Errorf("payments: member: %w", err)
	}
	email := ""
	if m.Edges.User != nil {
		email = m.Edges.User.Email
	}
	id, err := s.port.CreateCustomer(ctx, *vp.AccountID, IdempotencyKey("customer", memberID.String(), *vp.AccountID), email,
		map[string]string{"member_id": memberID.String(), "organization_id": vp.OrganizationID.String()})
	if err != nil {
		return nil, s.portError(ctx, err)
	}
	pc, err = s.client.PaymentCustomer.Create().SetMemberID(memberID).SetAccountID(*vp.AccountID).SetCustomerID(id).Save(ctx)
	if ent.IsConstraintError(err) { // a concurrent request stored it first
		return s.client.PaymentCustomer.Query().
			Where(paymentcustomer.MemberID(memberID), paymentcustomer.AccountID(*vp.AccountID)).Only(ctx)
	}
	return pc, err
}

// Cards lists the member's saved cards at the venue (none before the first
// was saved).
func (s *Service) Cards(ctx context.Context, memberID uuid.UUID) ([]SavedCard, error) {
	vp, err := s.chargeable(ctx)
	if err != nil {
		return nil, err
	}
	pc, err := s.customer(ctx, vp, memberID, false)
	if err != nil || pc == nil {
		return []SavedCard{}, err
	}
	cards, err := s.port.ListCards(ctx, *vp.AccountID, pc.CustomerID)
	if err != nil {
		return nil, s.portError(ctx, err)
	}
	out := make([]SavedCard, len(cards))
	for i, c := range cards {
		out[i] = SavedCard{Card: c, IsDefault: pc.DefaultPaymentMethodID != nil && *pc.DefaultPaymentMethodID == c.ID}
	}
	return out, nil
}

// SetupCard returns the credentials the app saves a card with: a new setup
// intent of the member's customer (created on first use) and an ephemeral
// key for the payment sheet. requestKey is the request's Idempotency-Key.
func (s *Service) SetupCard(ctx context.Context, memberID uuid.UUID, requestKey string) (*SetupCredentials, error) {
	vp, err := s.chargeable(ctx)
	if err != nil {
		return nil, err
	}
	pc, err := s.customer(ctx, vp, memberID, true)
	if err != nil {
		return nil, err
	}
	si, err := s.port.CreateSetupIntent(ctx, *vp.AccountID, IdempotencyKey("setup_card", memberID.String(), requestDigest(requestKey)),
		pc.CustomerID, map[string]string{"member_id": memberID.String(), "organization_id": vp.OrganizationID.String()})
	if err != nil {
		return nil, s.portError(ctx, err)
	}
	ek, err := s.port.CreateEphemeralKey(ctx, *vp.AccountID, pc.CustomerID)
	if err != nil {
		return nil, s.portError(ctx, err)
	}
	country := ""
	if a, err := s.port.GetAccount(ctx, *vp.AccountID); err == nil {
		country = a.Country
	}
	return &SetupCredentials{SetupIntentID: si.ID, SetupIntentClientSecret: si.ClientSecret, CustomerID: pc.CustomerID,
		EphemeralKey: ek, AccountID: *vp.AccountID, MerchantCountry: country}, nil
}

// SetDefaultCard makes paymentMethod the member's default card. A card that
// is not the member's is PAYMENT_METHOD_NOT_FOUND; a wallet's 422 NOT_A_CARD.
func (s *Service) SetDefaultCard(ctx context.Context, memberID uuid.UUID, paymentMethod, requestKey string) ([]SavedCard, error) {
	vp, err := s.chargeable(ctx)
	if err != nil {
		return nil, err
	}
	pc, err := s.customer(ctx, vp, memberID, false)
	if err != nil {
		return nil, err
	}
	if pc == nil {
		return nil, cardNotFound()
	}
	cards, err := s.port.ListCards(ctx, *vp.AccountID, pc.CustomerID)
	if err != nil {
		return nil, s.portError(ctx, err)
	}
	var found *stripeport.Card
	for i := range cards {
		if cards[i].ID == paymentMethod {
			found = &cards[i]
		}
	}
	if found == nil {
		return nil, cardNotFound()
	}
	if !found.IsCard {
		return nil, &apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeNotACard, Message: "only a card can be the default"}
	}
	err = s.port.SetDefaultCard(ctx, *vp.AccountID, IdempotencyKey("default_card", memberID.String(), requestDigest(requestKey)),
		pc.CustomerID, paymentMethod)
	if err != nil {
		var e *apperr.Error
		if errors.As(s.portError(ctx, err), &e) && e.Status == http.StatusNotFound {
			return nil, cardNotFound()
		}
		return nil, &apperr.Error{Status: http.StatusBadGateway, Code: CodeStripeUpdateFailed, Message: "the card could not be made the default"}
	}
	if err := s.client.PaymentCustomer.UpdateOne(pc).SetDefaultPaymentMethodID(paymentMethod).Exec(ctx); err != nil {
		return nil, fmt.Errorf("payments: default card: %w", err)
	}
	return s.Cards(ctx, memberID)
}

package billing

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// The client card desk: staff holding members.contact see a member's saved
// cards, remove one, make one the default or clear the default. These
// writes move no money, so, like the member's own card writes, they are
// not attempt rows: each carries a Stripe idempotency key derived from the
// member and the request's Idempotency-Key (v1:{purpose}:{member_id}:{request
// digest}), so a retried request reaches Stripe with the same key.

// Staff permissions of the client desk (the contract's names).
const (
	PermMembersContact   = "members.contact"
	PermNotificationSend = "notifications.send"
	PermPosSell          = "pos.sell"
)

// Error codes of the client card desk.
const (
	CodeClientNotFound     = "CLIENT_NOT_FOUND"
	CodeWalletForbidden    = "WALLET_FORBIDDEN"
	CodeNotDefault         = "NOT_DEFAULT"
	CodeStripeDetachFailed = "STRIPE_DETACH_FAILED"
)

// Audit actions of the client card desk.
const (
	AuditCardRemoved        = "member_payment_method_removed"
	AuditDefaultCardSet     = "member_default_payment_method_set"
	AuditDefaultCardCleared = "member_default_payment_method_cleared"
)

func clientNotFound() *apperr.Error {
	return &apperr.Error{Status: http.StatusNotFound, Code: CodeClientNotFound, Message: "client not found"}
}

func cardNotFound() *apperr.Error {
	return &apperr.Error{Status: http.StatusNotFound, Code: payments.CodeCardNotFound, Message: "payment method not found"}
}

func requestDigest(requestKey string) string {
	sum := sha256.Sum256([]byte(requestKey))
	return hex.EncodeToString(sum[:12])
}

// clientOf reads a member of the viewer's venue: another venue's or an
// unknown one is CLIENT_NOT_FOUND.
func (s *Service) clientOf(ctx context.Context, memberID uuid.UUID) (*ent.Member, error) {
	m, err := s.client.Member.Get(ctx, memberID)
	if ent.IsNotFound(err) {
		return nil, clientNotFound()
	}
	return m, err
}

// walletOf returns the member's customer and saved cards at the venue's
// account (pc nil when the member never saved a card).
func (s *Service) walletOf(ctx context.Context, memberID uuid.UUID) (*ent.VenuePayments, *ent.PaymentCustomer, []stripeport.Card, error) {
	if _, err := s.clientOf(ctx, memberID); err != nil {
		return nil, nil, nil, err
	}
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	pc, err := s.pay.Customer(ctx, vp, memberID, false)
	if err != nil || pc == nil {
		return vp, nil, nil, err
	}
	cards, err := s.port.ListCards(ctx, *vp.AccountID, pc.CustomerID)
	if err != nil {
		return nil, nil, nil, stripeError()
	}
	return vp, pc, cards, nil
}

func findCard(cards []stripeport.Card, id string) *stripeport.Card {
	for i := range cards {
		if cards[i].ID == id {
			return &cards[i]
		}
	}
	return nil
}

// ClientCards lists a member's saved cards at the venue.
func (s *Service) ClientCards(ctx context.Context, memberID uuid.UUID) ([]payments.SavedCard, error) {
	if _, err := s.clientOf(ctx, memberID); err != nil {
		return nil, err
	}
	return s.pay.Cards(ctx, memberID)
}

// RemoveClientCard detaches a member's saved card at Stripe. A card the
// member holds in a device wallet (Apple Pay, Google Pay) is the member's
// to remove: 403 WALLET_FORBIDDEN. Removing the default card leaves the
// member without a default.
func (s *Service) RemoveClientCard(ctx context.Context, memberID uuid.UUID, pm, requestKey string) ([]payments.SavedCard, error) {
	vp, pc, cards, err := s.walletOf(ctx, memberID)
	if err != nil {
		return nil, err
	}
	card := findCard(cards, pm)
	if pc == nil || card == nil {
		return nil, cardNotFound()
	}
	if card.Wallet != "" {
		return nil, (&apperr.Error{Status: http.StatusForbidden, Code: CodeWalletForbidden,
			Message: "a card in the client's device wallet is removed by the client"}).With("wallet", card.Wallet)
	}
	err = s.port.DetachPaymentMethod(ctx, *vp.AccountID, payments.IdempotencyKey("card_detach", memberID.String(), requestDigest(requestKey)), pm)
	if errors.Is(err, stripeport.ErrNotFound) {
		return nil, cardNotFound()
	}
	if err != nil {
		s.pay.Logger().ErrorContext(ctx, "detach card", "error", err)
		return nil, &apperr.Error{Status: http.StatusBadGateway, Code: CodeStripeDetachFailed,
			Message: "the payment processor did not remove the card; nothing changed"}
	}
	wasDefault := pc.DefaultPaymentMethodID != nil && *pc.DefaultPaymentMethodID == pm
	if wasDefault {
		if err := s.client.PaymentCustomer.UpdateOne(pc).ClearDefaultPaymentMethodID().Exec(ctx); err != nil {
			return nil, fmt.Errorf("billing: clear default: %w", err)
		}
	}
	if err := s.auditCard(ctx, AuditCardRemoved, memberID, card, map[string]any{"was_default": wasDefault}); err != nil {
		return nil, err
	}
	return s.pay.Cards(ctx, memberID)
}

// SetClientDefaultCard makes a member's saved card the default (payments'
// rules: 404 PAYMENT_METHOD_NOT_FOUND, 422 NOT_A_CARD, 502
// STRIPE_UPDATE_FAILED).
func (s *Service) SetClientDefaultCard(ctx context.Context, memberID uuid.UUID, pm, requestKey string) ([]payments.SavedCard, error) {
	if _, err := s.clientOf(ctx, memberID); err != nil {
		return nil, err
	}
	out, err := s.pay.SetDefaultCard(ctx, memberID, pm, "staff:"+requestKey)
	if err != nil {
		return nil, err
	}
	var card *stripeport.Card
	for i := range out {
		if out[i].ID == pm {
			card = &out[i].Card
		}
	}
	if err := s.auditCard(ctx, AuditDefaultCardSet, memberID, card, nil); err != nil {
		return nil, err
	}
	return out, nil
}

// ClearClientDefaultCard leaves the member without a default card; pm
// must be the default (409 NOT_DEFAULT otherwise).
func (s *Service) ClearClientDefaultCard(ctx context.Context, memberID uuid.UUID, pm, requestKey string) ([]payments.SavedCard, error) {
	vp, pc, cards, err := s.walletOf(ctx, memberID)
	if err != nil {
		return nil, err
	}
	card := findCard(cards, pm)
	if pc == nil || card == nil {
		return nil, cardNotFound()
	}
	if pc.DefaultPaymentMethodID == nil || *pc.DefaultPaymentMethodID != pm {
		return nil, &apperr.Error{Status: http.StatusConflict, Code: CodeNotDefault, Message: "this card is not the client's default"}
	}
	err = s.port.ClearDefaultCard(ctx, *vp.AccountID, payments.IdempotencyKey("default_clear", memberID.String(), requestDigest(requestKey)), pc.CustomerID)
	if err != nil {
		s.pay.Logger().ErrorContext(ctx, "clear default card", "error", err)
		return nil, &apperr.Error{Status: http.StatusBadGateway, Code: payments.CodeStripeUpdateFailed,
			Message: "the payment processor did not clear the default card; nothing changed"}
	}
	if err := s.client.PaymentCustomer.UpdateOne(pc).ClearDefaultPaymentMethodID().Exec(ctx); err != nil {
		return nil, fmt.Errorf("billing: clear default: %w", err)
	}
	if err := s.auditCard(ctx, AuditDefaultCardCleared, memberID, card, nil); err != nil {
		return nil, err
	}
	return s.pay.Cards(ctx, memberID)
}

func (s *Service) auditCard(ctx context.Context, action string, memberID uuid.UUID, card *stripeport.Card, extra map[string]any) error {
	d := map[string]any{"member_id": memberID.String()}
	if card != nil {
		d["payment_method_id"], d["brand"], d["last4"] = card.ID, card.Brand, card.Last4
	}
	for k, v := range extra {
		d[k] = v
	}
	_, err := audit.Record(ctx, s.client, audit.Entry{Action: action, Target: "member:" + memberID.String(), Details: d})
	return err
}

package giftcards

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/giftcard"
	"github.com/venueplatform/venue/ent/giftcardmovement"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/viewer"
)

// PermSell is the staff permission to issue and list gift cards.
const PermSell = "gift_cards.sell"

// RequireSeller refuses a caller without gift_cards.sell in its venue: 403
// ACCESS_DENIED, reason permission.
func RequireSeller(ctx context.Context) error {
	u, ok := viewer.UserFromContext(ctx)
	if ok && u.MemberID == uuid.Nil && u.HasPermission(PermSell) {
		return nil
	}
	return apperr.AccessDenied("permission", "a required staff permission is missing").
		With("required_permissions", []string{PermSell})
}

// IssueParams are a card staff issue without a card payment.
type IssueParams struct {
	Pass       bool
	PassTypeID uuid.UUID
	// AmountMinor and Currency of an amount card; Currency empty is the
	// venue's.
	AmountMinor    int64
	Currency       string
	SenderName     string
	Message        string
	ExpiresAt      *time.Time
	Notify         bool
	RecipientEmail string
}

// Issue issues a card in the viewer's venue with its first ledger line
// (issue) and, when asked, the e-mail with its code, in one transaction.
// The caller checked RequireSeller (and notify.Authorize when Notify).
func (s *Service) Issue(ctx context.Context, p IssueParams) (*ent.GiftCard, error) {
	if p.Notify && strings.TrimSpace(p.RecipientEmail) == "" {
		return nil, apperr.Validation("recipient_email", "required when send_notification is true")
	}
	var pt *ent.PassType
	if p.Pass {
		if p.PassTypeID == uuid.Nil {
			return nil, apperr.Validation("pass_type_id", "required for a pass card")
		}
		var err error
		if pt, err = s.client.PassType.Get(ctx, p.PassTypeID); ent.IsNotFound(err) {
			return nil, apperr.NotFound("pass type")
		} else if err != nil {
			return nil, err
		}
		p.AmountMinor, p.Currency = pt.PriceMinor, pt.Currency
	} else {
		if p.PassTypeID != uuid.Nil {
			return nil, apperr.Validation("pass_type_id", "only a pass card names a pass type")
		}
		if p.Currency == "" {
			org, err := s.client.Organization.Query().Only(ctx)
			if err != nil {
				return nil, fmt.Errorf("giftcards: venue: %w", err)
			}
			p.Currency = org.Currency
		}
		if !money.ValidCurrency(p.Currency) {
			return nil, apperr.Validation("currency", "not an ISO 4217 currency")
		}
		unit := pow10(money.Exponent(p.Currency))
		if p.AmountMinor < MinMajor*unit || p.AmountMinor > MaxMajor*unit {
			return nil, apperr.Validation("amount_minor",
				fmt.Sprintf("between %d and %d in minor units of %s", MinMajor*unit, MaxMajor*unit, p.Currency))
		}
	}
	now := s.now()
	expires := now.AddDate(Validity, 0, 0).UTC()
	if p.ExpiresAt != nil {
		if !p.ExpiresAt.After(now) {
			return nil, apperr.Validation("expires_at", "must be in the future")
		}
		expires = p.ExpiresAt.UTC()
	}
	code, err := newCode()
	if err != nil {
		return nil, err
	}
	var card *ent.GiftCard
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.GiftCard.Create().SetCode(code).SetGiftType(giftcard.GiftTypeAmount).
			SetInitialAmountMinor(p.AmountMinor).SetRemainingAmountMinor(p.AmountMinor).
			SetCurrency(p.Currency).SetStatus(giftcard.StatusActive).SetExpiresAt(expires).
			SetSenderName(p.SenderName).SetGiftDescription(p.Message)
		if pt != nil {
			c.SetGiftType(giftcard.GiftTypePass).SetPassTypeID(pt.ID)
		}
		if card, err = c.Save(ctx); err != nil {
			return err
		}
		if err := tx.GiftCardMovement.Create().SetGiftCardID(card.ID).SetKind(giftcardmovement.KindIssue).
			SetAmountMinor(card.InitialAmountMinor).SetCurrency(card.Currency).
			SetBalanceAfterMinor(card.RemainingAmountMinor).Exec(ctx); err != nil {
			return err
		}
		if !p.Notify {
			return nil
		}
		org, err := tx.Organization.Query().Only(ctx)
		if err != nil {
			return err
		}
		from := p.SenderName
		if from == "" {
			from = org.Name
		}
		_, err = notify.EnqueueEmail(ctx, tx.Client(), notify.DirectEmail{
			To: p.RecipientEmail, Kind: DeliveryKind,
			Subject: fmt.Sprintf("A gift card for %s", org.Name),
			Body: fmt.Sprintf("%s has given you a gift card for %s worth %s.\n\nYour code: %s\nValid until %s.\n",
				from, org.Name, money.Format(card.InitialAmountMinor, card.Currency), card.Code, expires.Format("2006-01-02")),
			Data:          map[string]any{"gift_card_id": card.ID.String()},
			CorrelationID: "gift_card:" + card.ID.String(),
		})
		return err
	})
	if err != nil {
		return nil, err
	}
	return card, nil
}

// List is the venue's cards, newest first, at most 100; code narrows to
// the card of that code (any case).
func (s *Service) List(ctx context.Context, code string) ([]*ent.GiftCard, error) {
	q := s.client.GiftCard.Query()
	if code != "" {
		q.Where(giftcard.Code(strings.ToUpper(strings.TrimSpace(code))))
	}
	return q.Order(ent.Desc(giftcard.FieldCreatedAt), ent.Desc(giftcard.FieldID)).Limit(100).All(ctx)
}

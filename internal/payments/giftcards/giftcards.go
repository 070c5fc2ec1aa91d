// Package giftcards sells and redeems a venue's gift cards. A member buys a
// card for someone: the order is charged through the card payments of
// package payments (an attempt row before every Stripe write, activation
// once under the order's row lock, whichever of the answer, Stripe's event
// and reconcile comes first), and paying issues the card, records the
// payment, e-mails the code to the recipient at the chosen time through the
// notification outbox and emits gift_card.purchased. A member redeems a card
// into credit (amount cards) or a pass (pass cards) under the card's row
// lock, so two redemptions racing never spend more than the balance. Every
// movement of a card (purchase, redemption) is a ledger row whose
// balance_after equals the card's remaining amount.
package giftcards

import (
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/giftcard"
	"github.com/venueplatform/venue/ent/giftcardmovement"
	"github.com/venueplatform/venue/ent/giftcardorder"
	"github.com/venueplatform/venue/ent/membercredit"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/payments"
)

// Purpose is the payment attempt purpose of a gift card order's charge.
const Purpose = paymentattempt.PurposeGiftCardCharge

func init() { payments.RegisterSubject(Purpose, orderSubject{}) }

// Limits of a bought card.
const (
	// MinMajor and MaxMajor bound a bought card's amount in major units of
	// its currency (so 1 to 100 000 DKK, JPY or KWD alike).
	MinMajor = 1
	MaxMajor = 100_000
	// MaxDeliveryAhead is how far ahead delivery may be scheduled.
	MaxDeliveryAhead = 366 * 24 * time.Hour
	// Validity is how long an issued card stays redeemable.
	Validity = 3 // years
)

// DeliveryKind is the notification kind of the e-mail carrying a card.
const DeliveryKind = "gift_card.delivery"

// Error codes.
const (
	CodeNotRedeemable = "GIFT_CARD_NOT_REDEEMABLE"
)

// Service sells and redeems gift cards over one ent client.
type Service struct {
	client *ent.Client
	pay    *payments.Service
	now    func() time.Time
}

// New returns a Service charging through pay.
func New(client *ent.Client, pay *payments.Service) *Service {
	return &Service{client: client, pay: pay, now: time.Now}
}

// BuyParams are a member's order of a gift card.
type BuyParams struct {
	AmountMinor int64
	// Currency is any ISO 4217 code; empty is the venue's.
	Currency       string
	RecipientEmail string
	RecipientName  string
	SenderName     string
	Message        string
	// DeliverAt is when the card is e-mailed; zero or past is at once.
	DeliverAt time.Time
	// PaymentMethodID (a saved card) confirms the charge at once.
	PaymentMethodID string
	// RequestKey is the digest of the request's Idempotency-Key: a retry of
	// the same request finds its order.
	RequestKey string
}

// Bought is an order and its charge's outcome.
type Bought struct {
	Order  *ent.GiftCardOrder
	Charge payments.ChargeResult
}

func notRedeemable(reason, message string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeNotRedeemable, Message: message}).
		With("reason", reason).With("next_step", nil)
}

// Buy orders a card for the member memberID of the viewer's venue and
// charges it. Errors are those of payments.ChargeSubject (declines,
// unavailability, unknown outcomes) and 400 VALIDATION_ERROR.
func (s *Service) Buy(ctx context.Context, memberID uuid.UUID, p BuyParams) (*Bought, error) {
	if p.RequestKey == "" {
		return nil, apperr.Validation("Idempotency-Key", "required")
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
	now := s.now()
	if p.DeliverAt.IsZero() || p.DeliverAt.Before(now) {
		p.DeliverAt = now
	}
	if p.DeliverAt.After(now.Add(MaxDeliveryAhead)) {
		return nil, apperr.Validation("deliver_at", "at most 366 days ahead")
	}
	o, err := s.client.GiftCardOrder.Query().
		Where(giftcardorder.MemberID(memberID), giftcardorder.RequestKey(p.RequestKey)).Only(ctx)
	if ent.IsNotFound(err) {
		o, err = s.client.GiftCardOrder.Create().
			SetMemberID(memberID).SetRequestKey(p.RequestKey).
			SetAmountMinor(p.AmountMinor).SetCurrency(p.Currency).
			SetRecipientEmail(p.RecipientEmail).SetRecipientName(p.RecipientName).
			SetSenderName(p.SenderName).SetMessage(p.Message).
			SetDeliverAt(p.DeliverAt.UTC()).Save(ctx)
		if ent.IsConstraintError(err) { // the same request, concurrently
			o, err = s.client.GiftCardOrder.Query().
				Where(giftcardorder.MemberID(memberID), giftcardorder.RequestKey(p.RequestKey)).Only(ctx)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("giftcards: order: %w", err)
	}
	if o.Status == giftcardorder.StatusPaid {
		return &Bought{Order: o, Charge: payments.ChargeResult{Status: payments.StatusPaid, IntentID: deref(o.PaymentIntentID)}}, nil
	}
	res, err := s.pay.ChargeSubject(ctx, payments.ChargeParams{Purpose: Purpose, SubjectID: o.ID, PaymentMethodID: p.PaymentMethodID})
	if err != nil {
		return nil, err
	}
	if o, err = s.client.GiftCardOrder.Get(ctx, o.ID); err != nil {
		return nil, fmt.Errorf("giftcards: order: %w", err)
	}
	return &Bought{Order: o, Charge: *res}, nil
}

// Order reads one of the member's orders (another member's is not found).
// An order whose payment waits on the member or the bank is first brought
// up to date from Stripe (read only), so a member back from 3-D Secure sees
// the card issued.
func (s *Service) Order(ctx context.Context, id uuid.UUID) (*ent.GiftCardOrder, error) {
	o, err := s.client.GiftCardOrder.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("gift card order")
	}
	if err != nil || o.Status == giftcardorder.StatusPaid {
		return o, err
	}
	if err := s.pay.RefreshSubject(ctx, o.ID); err != nil {
		return nil, err
	}
	return s.client.GiftCardOrder.Get(ctx, id)
}

// orderSubject lets package payments charge and settle orders.
type orderSubject struct{}

func (orderSubject) Lock(ctx context.Context, tx *ent.Tx, id uuid.UUID) (payments.SubjectCharge, error) {
	o, err := tx.GiftCardOrder.Query().Where(giftcardorder.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return payments.SubjectCharge{}, err
	}
	return payments.SubjectCharge{AmountMinor: o.AmountMinor, Currency: o.Currency, Description: "Gift card",
		MemberID: o.MemberID, Paid: o.Status == giftcardorder.StatusPaid}, nil
}

// Settle issues the paid order's card, once, under the order's lock: the
// card, its purchase in the ledger, the payment row, the e-mail to the
// recipient at deliver_at, and the events payment.succeeded and
// gift_card.purchased.
func (orderSubject) Settle(ctx context.Context, tx *ent.Tx, id uuid.UUID, intentID string, now time.Time) error {
	o, err := tx.GiftCardOrder.Get(ctx, id)
	if err != nil || o.Status == giftcardorder.StatusPaid {
		return err
	}
	code, err := newCode()
	if err != nil {
		return err
	}
	card, err := tx.GiftCard.Create().SetCode(code).SetGiftType(giftcard.GiftTypeAmount).
		SetInitialAmountMinor(o.AmountMinor).SetRemainingAmountMinor(o.AmountMinor).
		SetCurrency(o.Currency).SetStatus(giftcard.StatusActive).
		SetExpiresAt(now.AddDate(Validity, 0, 0).UTC()).
		SetSenderName(o.SenderName).SetGiftDescription(o.Message).Save(ctx)
	if err != nil {
		return err
	}
	if err := tx.GiftCardMovement.Create().SetGiftCardID(card.ID).SetKind(giftcardmovement.KindPurchase).
		SetAmountMinor(o.AmountMinor).SetCurrency(o.Currency).SetBalanceAfterMinor(o.AmountMinor).
		SetMemberID(o.MemberID).SetOrderID(o.ID).Exec(ctx); err != nil {
		return err
	}
	pay, err := tx.Payment.Create().SetMemberID(o.MemberID).
		SetAmountMinor(o.AmountMinor).SetCurrency(o.Currency).
		SetStatus(payment.StatusSucceeded).SetKind(payment.KindGiftCard).
		SetPaidAt(now).SetProcessorPaymentID(intentID).SetMethod(payment.MethodCard).Save(ctx)
	if err != nil {
		return err
	}
	if o, err = tx.GiftCardOrder.UpdateOne(o).SetStatus(giftcardorder.StatusPaid).
		SetGiftCardID(card.ID).SetPaymentID(pay.ID).SetPaymentIntentID(intentID).SetPaidAt(now).Save(ctx); err != nil {
		return err
	}
	org, err := tx.Organization.Query().Where(organization.ID(o.OrganizationID)).Only(ctx)
	if err != nil {
		return err
	}
	if _, err := notify.EnqueueEmail(ctx, tx.Client(), deliveryEmail(org, o, card)); err != nil {
		return err
	}
	if _, err := events.Record(ctx, tx.Client(), events.PaymentSucceeded, map[string]any{
		"payment_id": pay.ID.String(), "gift_card_order_id": o.ID.String(), "member_id": o.MemberID.String(),
		"payment_intent_id": intentID, "amount_minor": o.AmountMinor, "currency": o.Currency, "vat_minor": 0,
	}); err != nil {
		return err
	}
	_, err = events.Record(ctx, tx.Client(), events.GiftCardPurchased, map[string]any{
		"gift_card_id": card.ID.String(), "order_id": o.ID.String(), "payment_id": pay.ID.String(),
		"member_id": o.MemberID.String(), "amount_minor": o.AmountMinor, "currency": o.Currency,
		"deliver_at": o.DeliverAt.UTC().Format(time.RFC3339),
	})
	return err
}

func deliveryEmail(org *ent.Organization, o *ent.GiftCardOrder, card *ent.GiftCard) notify.DirectEmail {
	from := o.SenderName
	if from == "" {
		from = "Someone"
	}
	var b strings.Builder
	if o.RecipientName != "" {
		fmt.Fprintf(&b, "Dear %s,\n\n", o.RecipientName)
	}
	fmt.Fprintf(&b, "%s has given you a gift card for %s worth %s.\n\n", from, org.Name, money.Format(card.InitialAmountMinor, card.Currency))
	if o.Message != "" {
		fmt.Fprintf(&b, "%s\n\n", o.Message)
	}
	fmt.Fprintf(&b, "Your code: %s\nValid until %s.\n", card.Code, card.ExpiresAt.Format("2006-01-02"))
	return notify.DirectEmail{
		To: o.RecipientEmail, MemberID: o.MemberID, Kind: DeliveryKind,
		Subject: fmt.Sprintf("A gift card for %s", org.Name), Body: b.String(),
		Data:          map[string]any{"gift_card_id": card.ID.String(), "order_id": o.ID.String()},
		CorrelationID: "gift_card_order:" + o.ID.String(), At: o.DeliverAt,
	}
}

// codeAlphabet leaves out characters read alike (0 O 1 I L).
const codeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"

// newCode is a card code: four groups of four, about 79 bits of chance.
func newCode() (string, error) {
	var b strings.Builder
	for i := 0; i < 16; i++ {
		if i > 0 && i%4 == 0 {
			b.WriteByte('-')
		}
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(codeAlphabet))))
		if err != nil {
			return "", err
		}
		b.WriteByte(codeAlphabet[n.Int64()])
	}
	return b.String(), nil
}

// RedeemParams are a member's redemption of a card.
type RedeemParams struct {
	Code string
	// AmountMinor is how much of an amount card to move into credit; 0 is
	// all that remains. Pass cards are redeemed whole.
	AmountMinor int64
}

// Redemption is what a redemption did.
type Redemption struct {
	Card     *ent.GiftCard
	Movement *ent.GiftCardMovement
	// Credit is the credit an amount card added, Pass the pass a pass card
	// created; the other is nil.
	Credit             *ent.MemberCredit
	Pass               *ent.Pass
	CreditBalanceMinor int64
}

// Redeem redeems the card code of the viewer's venue for the member
// memberID, under the card's row lock: an amount card moves AmountMinor (or
// all that remains) into the member's credit in the card's currency; a pass
// card becomes a pass of its pass type. Unknown and cancelled cards are 404
// NOT_FOUND, like the public reads; an expired or spent card, or more than
// remains, is 422 GIFT_CARD_NOT_REDEEMABLE (details.reason expired,
// redeemed or insufficient_balance).
func (s *Service) Redeem(ctx context.Context, memberID uuid.UUID, p RedeemParams) (*Redemption, error) {
	code := strings.ToUpper(strings.TrimSpace(p.Code))
	var out Redemption
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		card, err := tx.GiftCard.Query().
			Where(giftcard.Code(code), giftcard.StatusNEQ(giftcard.StatusCancelled)).
			ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("gift card")
		}
		if err != nil {
			return err
		}
		now := s.now()
		switch {
		case card.Status == giftcard.StatusExpired || (card.ExpiresAt != nil && !card.ExpiresAt.After(now)):
			return notRedeemable("expired", "the gift card has expired")
		case card.Status == giftcard.StatusRedeemed || card.RemainingAmountMinor == 0:
			return notRedeemable("redeemed", "the gift card has been used up")
		}
		amount := card.RemainingAmountMinor
		mv := tx.GiftCardMovement.Create().SetGiftCardID(card.ID).SetKind(giftcardmovement.KindRedemption).
			SetCurrency(card.Currency).SetMemberID(memberID)
		if card.GiftType == giftcard.GiftTypePass {
			if p.AmountMinor != 0 && p.AmountMinor != amount {
				return apperr.Validation("amount_minor", "a pass gift card is redeemed whole; leave amount_minor out")
			}
			if card.PassTypeID == nil {
				return notRedeemable("no_pass_type", "the gift card names no pass")
			}
			ps, err := newPass(ctx, tx, memberID, *card.PassTypeID, now)
			if err != nil {
				return err
			}
			out.Pass = ps
			mv.SetPassID(ps.ID)
		} else {
			if p.AmountMinor != 0 {
				if p.AmountMinor > amount {
					return notRedeemable("insufficient_balance", "the amount is more than remains on the gift card").
						With("remaining_amount_minor", amount)
				}
				amount = p.AmountMinor
			}
			cr, err := tx.MemberCredit.Create().SetMemberID(memberID).SetAmountMinor(amount).
				SetCurrency(card.Currency).SetSource(membercredit.SourceGiftCardRedemption).
				SetGiftCardID(card.ID).Save(ctx)
			if err != nil {
				return err
			}
			out.Credit = cr
			mv.SetCreditID(cr.ID)
		}
		// The row lock serialises redemptions; the condition makes an
		// overdraft impossible even so.
		upd := tx.GiftCard.Update().
			Where(giftcard.ID(card.ID), giftcard.RemainingAmountMinorGTE(amount)).
			AddRemainingAmountMinor(-amount)
		if amount == card.RemainingAmountMinor {
			upd.SetStatus(giftcard.StatusRedeemed)
		}
		if n, err := upd.Save(ctx); err != nil || n != 1 {
			return fmt.Errorf("giftcards: spend %s: %d rows, %w", card.ID, n, err)
		}
		if out.Card, err = tx.GiftCard.Get(ctx, card.ID); err != nil {
			return err
		}
		if out.Movement, err = mv.SetAmountMinor(-amount).SetBalanceAfterMinor(out.Card.RemainingAmountMinor).Save(ctx); err != nil {
			return err
		}
		out.CreditBalanceMinor, err = creditBalance(ctx, tx.Client(), memberID, card.Currency)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// CreditBalance is the member's credit in currency at the viewer's venue.
func (s *Service) CreditBalance(ctx context.Context, memberID uuid.UUID, currency string) (int64, error) {
	return creditBalance(ctx, s.client, memberID, currency)
}

func creditBalance(ctx context.Context, client *ent.Client, memberID uuid.UUID, currency string) (int64, error) {
	rows, err := client.MemberCredit.Query().
		Where(membercredit.MemberID(memberID), membercredit.Currency(currency)).All(ctx)
	if err != nil {
		return 0, err
	}
	var sum int64
	for _, r := range rows {
		sum += r.AmountMinor
	}
	return sum, nil
}

// newPass is the pass a pass card becomes, valid from the venue's today.
func newPass(ctx context.Context, tx *ent.Tx, memberID, passTypeID uuid.UUID, now time.Time) (*ent.Pass, error) {
	pt, err := tx.PassType.Get(ctx, passTypeID)
	if err != nil {
		return nil, err
	}
	org, err := tx.Organization.Query().Where(organization.ID(pt.OrganizationID)).Only(ctx)
	if err != nil {
		return nil, err
	}
	loc, err := time.LoadLocation(org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	local := now.In(loc)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, time.UTC)
	pc := tx.Pass.Create().SetMemberID(memberID).SetPassTypeID(pt.ID).SetStatus(pass.StatusActive).SetValidFrom(today)
	if pt.ValidityDays != nil {
		pc.SetValidTo(today.AddDate(0, 0, *pt.ValidityDays))
	}
	if pt.Clips != nil {
		pc.SetClipsRemaining(*pt.Clips)
	}
	return pc.Save(ctx)
}

// Movements is a card's ledger, oldest first.
func (s *Service) Movements(ctx context.Context, cardID uuid.UUID) ([]*ent.GiftCardMovement, error) {
	return s.client.GiftCardMovement.Query().Where(giftcardmovement.GiftCardID(cardID)).
		Order(ent.Asc(giftcardmovement.FieldCreatedAt), ent.Asc(giftcardmovement.FieldID)).All(ctx)
}

func pow10(n int) int64 {
	v := int64(1)
	for range n {
		v *= 10
	}
	return v
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

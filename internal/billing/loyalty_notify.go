package billing

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
)

// Notification kinds of loyalty prices (category payments of the member's
// notification preferences).
const (
	KindLoyaltyPriceGranted = "payment.loyalty_price_granted"
	KindLoyaltyPriceRevoked = "payment.loyalty_price_revoked"
)

// tellLoyalty queues, in the transaction that follows a loyalty price's
// grant or revoke at Stripe, the member's message about it: e-mail and push
// through the notification outbox under the member's rules (the venue's
// channel switches, the member's reachability, opt-outs and payments
// preferences), as tellLateFee does; a channel that does not reach them is
// recorded as skipped with its reason. Each grant is told once when given
// and once when revoked (the correlation id names the grant and the change).
func tellLoyalty(ctx context.Context, tx *ent.Tx, g *ent.LoyaltyPrice, granted bool) error {
	pt, err := tx.PassType.Get(ctx, g.PassTypeID)
	if err != nil {
		return err
	}
	msg := notify.Message{
		Kind:    KindLoyaltyPriceGranted,
		Subject: "Your own price for " + pt.Name,
		Body: fmt.Sprintf("Your membership %s now costs %s per period, from your next renewal on.",
			pt.Name, money.Format(g.AmountMinor, g.Currency)),
		Data: map[string]any{"loyalty_price_id": g.ID.String(), "pass_type_id": pt.ID.String(),
			"amount_minor": g.AmountMinor, "currency": g.Currency},
		CorrelationID: "loyalty_price:" + g.ID.String() + ":granted",
	}
	if !granted {
		msg.Kind = KindLoyaltyPriceRevoked
		msg.Subject = "Your price for " + pt.Name + " has changed"
		msg.Body = fmt.Sprintf("Your own price of %s for %s has ended; from your next renewal on the membership's usual price of %s applies.",
			money.Format(g.AmountMinor, g.Currency), pt.Name, money.Format(pt.PriceMinor, pt.Currency))
		msg.Data["usual_amount_minor"] = pt.PriceMinor
		msg.CorrelationID = "loyalty_price:" + g.ID.String() + ":revoked"
	}
	// A grant a retry finished (Stripe took it for some passes first) is
	// told once.
	if told, err := toldAlready(ctx, tx, msg.CorrelationID); err != nil || told {
		return err
	}
	for _, ch := range []notify.Channel{notify.Email, notify.Push} {
		if _, err := notify.EnqueueForMembers(ctx, tx.Client(), []uuid.UUID{g.MemberID}, ch, msg); err != nil {
			return fmt.Errorf("billing: loyalty price notice: %w", err)
		}
	}
	return nil
}

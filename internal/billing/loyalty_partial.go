package billing

import (
	"context"
	"errors"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/payments"
)

// AuditLoyaltyPricePartial records a loyalty price grant or revoke Stripe
// took for some of the member's memberships and refused for the others,
// with the outcome per pass.
const AuditLoyaltyPricePartial = "membership.loyalty_price_partially_applied"

// Per-pass outcomes of a loyalty price change (details.passes[].outcome).
const (
	LoyaltyPassApplied = "applied"
	LoyaltyPassRefused = "refused"
)

// sameGrant is the active grant among prev of the same scope (pass or none)
// and amount, or nil.
func sameGrant(prev []*ent.LoyaltyPrice, passID *uuid.UUID, amount int64) *ent.LoyaltyPrice {
	for _, g := range prev {
		samePass := (g.PassID == nil && passID == nil) || (g.PassID != nil && passID != nil && *g.PassID == *passID)
		if samePass && g.AmountMinor == amount {
			return g
		}
	}
	return nil
}

func passesOf(subs []*ent.Subscription) []uuid.UUID {
	out := make([]uuid.UUID, 0, len(subs))
	for _, sub := range subs {
		out = append(out, sub.PassID)
	}
	return out
}

// passOutcomes names each pass's outcome: refused, else applied (Stripe
// took it, or nothing needed writing).
func passOutcomes(passes []uuid.UUID, refused map[uuid.UUID]bool) []map[string]any {
	out := make([]map[string]any, 0, len(passes))
	for _, id := range passes {
		o := LoyaltyPassApplied
		if refused[id] {
			o = LoyaltyPassRefused
		}
		out = append(out, map[string]any{"pass_id": id.String(), "outcome": o})
	}
	return out
}

// recordLoyaltyPartial records, in the transaction that keeps what Stripe
// took, which passes got the change and which did not.
func recordLoyaltyPartial(ctx context.Context, tx *ent.Tx, memberID uuid.UUID, grants []*ent.LoyaltyPrice, granted bool,
	passes []uuid.UUID, refused map[uuid.UUID]bool) error {
	ids := make([]string, 0, len(grants))
	for _, g := range grants {
		ids = append(ids, g.ID.String())
	}
	change := "granted"
	if !granted {
		change = "revoked"
	}
	_, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditLoyaltyPricePartial, Target: "member:" + memberID.String(),
		Details: map[string]any{"loyalty_price_ids": ids, "change": change, "passes": passOutcomes(passes, refused)}})
	return err
}

// loyaltyOutcome answers a change Stripe took only for some passes: 502
// STRIPE_ERROR with write_state partial and details.passes, each pass
// applied or refused. The key is released (a 5xx), so a retry with the
// same key writes only the refused passes. Other errors pass unchanged.
func loyaltyOutcome(err error, passes []uuid.UUID) error {
	var pp *partialPrices
	if !errors.As(err, &pp) {
		return err
	}
	return refusal(http.StatusBadGateway, payments.CodeStripeError,
		"the payment processor took the price for some memberships and refused it for the others; retry to finish", "retry").
		With("write_state", "partial").With("passes", passOutcomes(passes, pp.refused))
}

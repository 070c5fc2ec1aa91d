package billing

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/subscription"
)

// No card path charges an externally billed membership. While a
// membership's collection is external, every way of paying one of its
// invoices by card is refused before anything changes and before Stripe is
// asked: the member's retry and its confirm, the staff's retry of a failed
// payment, the renewal recovery's charge of the saved card (its late fee
// too) and the pay link (which points the member at the card retry). The
// refusal is 422 NOT_RETRYABLE with details.reason externally_billed and
// details.next_step contact_venue, in the retry's place in the contract's
// order of checks (after 404 and ALREADY_PAID). Comp moves no money and
// stays open to staff; the cycle is settled through the external
// settlement. The subscription's current collection decides, so an
// invoice issued while the membership was billed by card and left unpaid
// when it moved to external is settled externally too (never charged).

// ReasonExternallyBilled is details.reason of a card path refused for an
// externally billed membership.
const ReasonExternallyBilled = "externally_billed"

func externallyBilled() error { return notRetryable(ReasonExternallyBilled) }

// IsExternallyBilled reports whether sub collects outside the service.
func IsExternallyBilled(sub *ent.Subscription) bool {
	return sub != nil && sub.Collection == subscription.CollectionExternal
}

// refuseExternalInvoice refuses a card charge of row when its membership is
// externally billed.
func (s *Service) refuseExternalInvoice(ctx context.Context, row *ent.Invoice) error {
	if row == nil || row.SubscriptionID == nil {
		return nil
	}
	n, err := s.client.Subscription.Query().Where(subscription.ID(*row.SubscriptionID),
		subscription.CollectionEQ(subscription.CollectionExternal)).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return externallyBilled()
	}
	return nil
}

// refuseExternalPass refuses a card charge (or a pay link) of a pass whose
// membership is externally billed.
func (s *Service) refuseExternalPass(ctx context.Context, passID uuid.UUID) error {
	n, err := s.client.Subscription.Query().Where(subscription.PassID(passID),
		subscription.CollectionEQ(subscription.CollectionExternal)).Count(ctx)
	if err != nil {
		return err
	}
	if n > 0 {
		return externallyBilled()
	}
	return nil
}

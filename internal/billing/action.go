package billing

import (
	"context"
	"fmt"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// AuthenticationRequired is the failure code of a renewal whose card asks
// the member to authenticate the payment.
const AuthenticationRequired = "authentication_required"

// tellAuthenticate marks the open renewal as waiting on the member and
// tells the member that their renewal's card asks them to authenticate the
// payment and how to do it (Outstanding payments, Pay now: the retry
// answers requires_action with the client secret), under the same rules as
// the declined renewal's notice (tellMember: the venue's e-mail switch, the
// member's opt-out and payments preferences; a member it does not reach is
// a skipped row). The invoice stays open. Called under the subscription's
// row lock, so the check for an earlier notice of the same charge makes a
// second delivery of invoice.payment_action_required (or the same charge's
// other copy) tell nothing twice; a paid or void invoice tells nothing
// (events arrive in any order).
func (s *Service) tellAuthenticate(ctx context.Context, tx *ent.Tx, row *ent.Invoice, in *stripeport.Invoice) error {
	if row.Status == invoice.StatusPaid || row.Status == invoice.StatusVoid {
		return nil
	}
	if row.FailedAt == nil {
		// The open renewal becomes the member's outstanding item, its retry
		// answering requires_action with the client secret. Not a decline:
		// no failed payment row, no attempt counted, the pass stays active.
		if err := tx.Invoice.UpdateOne(row).SetFailedAt(s.now()).SetFailureCode(AuthenticationRequired).Exec(ctx); err != nil {
			return err
		}
	}
	corr := fmt.Sprintf("renewal_action_required:%s:%s", row.ID, in.PaymentIntent)
	if told, err := toldAlready(ctx, tx, corr); err != nil || told {
		return err
	}
	amount := money.Format(row.TotalMinor-row.AmountPaidMinor, row.Currency)
	return tellMember(ctx, tx, row, notify.Message{
		Kind:    KindRenewalActionRequired,
		Subject: "Confirm your membership payment",
		Body: fmt.Sprintf("Your bank asks you to confirm the payment of %s for invoice %s. Open the app "+
			"(Outstanding payments, Pay now) and confirm it to keep your membership active.", amount, row.Number),
		Data:          map[string]any{"invoice_id": row.ID.String()},
		CorrelationID: corr,
	})
}

package stripeport

import (
	"context"

	"github.com/stripe/stripe-go/v79"
)

// CreditNotes records part of an open invoice as paid outside Stripe.
type CreditNotes interface {
	// CreditInvoiceOutOfBand issues a credit note of amountMinor on the open
	// invoice id, credited out of band (money the venue received outside
	// Stripe): the invoice's amount due falls by it, so Stripe's next
	// charge of the invoice takes only the rest. It returns the note's id.
	CreditInvoiceOutOfBand(ctx context.Context, account, key, id string, amountMinor int64) (string, error)
}

func (s *stripePort) CreditInvoiceOutOfBand(ctx context.Context, account, key, id string, amountMinor int64) (string, error) {
	params := &stripe.CreditNoteParams{Invoice: stripe.String(id), Amount: stripe.Int64(amountMinor),
		OutOfBandAmount: stripe.Int64(amountMinor)}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.SetIdempotencyKey(key)
	cn, err := s.api.CreditNotes.New(params)
	if err != nil {
		return "", classify(err)
	}
	return cn.ID, nil
}

package stripeport

import (
	"context"
	"errors"
	"strings"

	"github.com/stripe/stripe-go/v79"
)

// InvoiceItems are one-off amounts added to a subscription's next invoice:
// how a period of a membership is made to cost something else than its
// price (a payment override: the difference, negative for a reduction).
type InvoiceItems interface {
	// CreateInvoiceItem adds a pending invoice item to the subscription's
	// next invoice on the connected account and returns its id.
	CreateInvoiceItem(ctx context.Context, p InvoiceItemParams) (string, error)
	// DeleteInvoiceItem removes a pending invoice item. An item that is
	// already gone is no error; one already invoiced is ErrRefused.
	DeleteInvoiceItem(ctx context.Context, account, id string) error
}

// InvoiceItemParams are a pending invoice item to create.
type InvoiceItemParams struct {
	Account, IdempotencyKey string
	Customer, Subscription  string
	AmountMinor             int64 // negative reduces the invoice
	Currency, Description   string
	Metadata                map[string]string
}

func (s *stripePort) CreateInvoiceItem(ctx context.Context, p InvoiceItemParams) (string, error) {
	params := &stripe.InvoiceItemParams{
		Customer: stripe.String(p.Customer), Subscription: stripe.String(p.Subscription),
		Amount: stripe.Int64(p.AmountMinor), Currency: stripe.String(strings.ToLower(p.Currency)),
		Description: stripe.String(p.Description),
	}
	for k, v := range p.Metadata {
		params.AddMetadata(k, v)
	}
	params.Context = ctx
	params.SetStripeAccount(p.Account)
	params.SetIdempotencyKey(p.IdempotencyKey)
	it, err := s.api.InvoiceItems.New(params)
	if err != nil {
		return "", classify(err)
	}
	return it.ID, nil
}

func (s *stripePort) DeleteInvoiceItem(ctx context.Context, account, id string) error {
	params := &stripe.InvoiceItemParams{}
	params.Context = ctx
	params.SetStripeAccount(account)
	if _, err := s.api.InvoiceItems.Del(id, params); err != nil {
		if err = classify(err); errors.Is(err, ErrNotFound) {
			return nil
		}
		return err
	}
	return nil
}

package stripeport

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/stripe/stripe-go/v79"
)

// Refunds is the part of the port that gives money back on a payment
// intent of the connected account: a refund created with the caller's
// idempotency key, and the intent's refunds read back (reconcile finds an
// unanswered refund by the attempt id in its metadata).
type Refunds interface {
	CreateRefund(ctx context.Context, p RefundParams) (*Refund, error)
	ListRefunds(ctx context.Context, account, paymentIntent string) ([]*Refund, error)
}

// RefundParams are a refund to create.
type RefundParams struct {
	Account        string
	IdempotencyKey string
	PaymentIntent  string
	AmountMinor    int64
	Metadata       map[string]string
}

// Refund is what the domain reads of a refund.
type Refund struct {
	ID            string
	Status        string // pending, requires_action, succeeded, failed, canceled
	AmountMinor   int64
	Currency      string
	PaymentIntent string
	FailureReason string
	Metadata      map[string]string
}

func refundOf(r *stripe.Refund) *Refund {
	out := &Refund{ID: r.ID, Status: string(r.Status), AmountMinor: r.Amount,
		Currency: strings.ToUpper(string(r.Currency)), FailureReason: string(r.FailureReason), Metadata: r.Metadata}
	if r.PaymentIntent != nil {
		out.PaymentIntent = r.PaymentIntent.ID
	}
	return out
}

func (s *stripePort) CreateRefund(ctx context.Context, p RefundParams) (*Refund, error) {
	params := &stripe.RefundParams{PaymentIntent: stripe.String(p.PaymentIntent), Amount: stripe.Int64(p.AmountMinor)}
	params.Context = ctx
	params.SetStripeAccount(p.Account)
	params.SetIdempotencyKey(p.IdempotencyKey)
	for k, v := range p.Metadata {
		params.AddMetadata(k, v)
	}
	r, err := s.api.Refunds.New(params)
	if err != nil {
		return nil, classify(err)
	}
	return refundOf(r), nil
}

func (s *stripePort) ListRefunds(ctx context.Context, account, paymentIntent string) ([]*Refund, error) {
	params := &stripe.RefundListParams{PaymentIntent: stripe.String(paymentIntent)}
	params.Context = ctx
	params.SetStripeAccount(account)
	it := s.api.Refunds.List(params)
	var out []*Refund
	for it.Next() {
		out = append(out, refundOf(it.Refund()))
	}
	if err := it.Err(); err != nil {
		return nil, classify(err)
	}
	return out, nil
}

// RefundFromObject reads a refund of an event's data.object (refund.created,
// refund.updated, charge.refund.updated).
func RefundFromObject(raw json.RawMessage) (*Refund, error) {
	var r stripe.Refund
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	return refundOf(&r), nil
}

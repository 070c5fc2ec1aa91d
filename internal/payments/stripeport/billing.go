package stripeport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v79"
)

// Billing is what the renewals of memberships ask of Stripe Billing:
// subscriptions that renew a pass each period, and their invoices.
type Billing interface {
	// CreateSubscription creates the product and the subscription of a
	// membership on the connected account; its first invoice falls at
	// FirstChargeAt (the end of the period the member already paid).
	CreateSubscription(ctx context.Context, p SubscriptionParams) (*Subscription, error)
	// UpdateSubscription moves a subscription's next charge or changes what
	// each period costs.
	UpdateSubscription(ctx context.Context, p SubscriptionUpdate) (*Subscription, error)
	// GetInvoice reads an invoice of the connected account.
	GetInvoice(ctx context.Context, account, id string) (*Invoice, error)
	// PayInvoice charges an open invoice's remaining amount to paymentMethod
	// (the customer's default when empty), off session. A charge that waits
	// (3-D Secure, a processing debit) is the open invoice with its intent's
	// IntentStatus and ClientSecret, not an error.
	PayInvoice(ctx context.Context, account, key, id, paymentMethod string) (*Invoice, error)
	// PayInvoiceOutOfBand marks an open invoice paid outside Stripe (cash,
	// a bank transfer, a comp): Stripe charges nothing and stops retrying.
	PayInvoiceOutOfBand(ctx context.Context, account, key, id string) (*Invoice, error)
	// SetInvoiceAutoAdvance turns Stripe's automatic collection of an open
	// invoice (its automatic charge retries) off or on: auto_advance.
	SetInvoiceAutoAdvance(ctx context.Context, account, key, id string, on bool) (*Invoice, error)
}

// SubscriptionParams are a membership's subscription to create.
type SubscriptionParams struct {
	Account, IdempotencyKey string
	Customer, PaymentMethod string
	ProductName             string
	AmountMinor             int64
	Currency                string
	Interval                string // day, week, month, year
	IntervalCount           int
	FirstChargeAt           time.Time
	Metadata                map[string]string
}

// SubscriptionUpdate changes a subscription: NextChargeAt moves the next
// renewal (no proration), AmountMinor replaces the price of each period.
type SubscriptionUpdate struct {
	Account, IdempotencyKey, ID string
	NextChargeAt                time.Time
	AmountMinor                 int64
	Currency                    string
	Interval                    string
	IntervalCount               int
	Product                     string
	// ItemID is the subscription item whose price AmountMinor replaces
	// (without it Stripe would add a second item).
	ItemID string
	// CancelAt ends the subscription at that time (a membership moved to
	// another pass type): Stripe invoices nothing from then on.
	CancelAt time.Time
	// CollectionMethod changes how the subscription's invoices are paid:
	// charge_automatically (the saved card) or send_invoice (the customer
	// pays each invoice by other means, within DaysUntilDue days).
	CollectionMethod string
	DaysUntilDue     int64
}

// Subscription is what the domain reads of a subscription.
type Subscription struct {
	ID               string
	Status           string
	Customer         string
	Product          string
	CurrentPeriodEnd time.Time
	TrialEnd         time.Time
	Metadata         map[string]string
	// ItemID is the subscription's first item (its price).
	ItemID string
	// AmountMinor is the first item's unit amount.
	AmountMinor int64
	// CollectionMethod is charge_automatically or send_invoice.
	CollectionMethod string
	// Schedule is the schedule managing the subscription ("" without one).
	Schedule string
	// CancelAt is when the subscription ends instead of renewing (zero
	// when it renews).
	CancelAt time.Time
}

// Invoice is what the domain reads of an invoice.
type Invoice struct {
	ID            string
	Status        string // draft, open, paid, void, uncollectible
	Subscription  string
	Customer      string
	AmountDue     int64
	AmountPaid    int64
	Total         int64
	Currency      string
	AttemptCount  int64
	Created       time.Time
	PeriodStart   time.Time
	PeriodEnd     time.Time
	PaymentIntent string
	// IntentStatus and ClientSecret are the payment intent's
	// (requires_action: the member authenticates in the app with the
	// secret; processing: the bank answers later).
	IntentStatus    string
	ClientSecret    string
	FailureCode     string
	DeclineCode     string
	BillingReason   string
	Metadata        map[string]string // the subscription's metadata
	LineDescription string
	// PaidOutOfBand marks an invoice paid outside Stripe (staff recorded it).
	PaidOutOfBand bool
}

func (s *stripePort) CreateSubscription(ctx context.Context, p SubscriptionParams) (*Subscription, error) {
	pp := &stripe.ProductParams{Name: stripe.String(p.ProductName)}
	pp.Context = ctx
	pp.SetStripeAccount(p.Account)
	pp.SetIdempotencyKey(p.IdempotencyKey + ":product")
	prod, err := s.api.Products.New(pp)
	if err != nil {
		return nil, classify(err)
	}
	params := &stripe.SubscriptionParams{
		Customer: stripe.String(p.Customer),
		Items: []*stripe.SubscriptionItemsParams{{PriceData: &stripe.SubscriptionItemPriceDataParams{
			Currency: stripe.String(strings.ToLower(p.Currency)), Product: stripe.String(prod.ID),
			UnitAmount: stripe.Int64(p.AmountMinor),
			Recurring: &stripe.SubscriptionItemPriceDataRecurringParams{
				Interval: stripe.String(p.Interval), IntervalCount: stripe.Int64(int64(p.IntervalCount))},
		}}},
		ProrationBehavior: stripe.String("none"),
		OffSession:        stripe.Bool(true),
	}
	if !p.FirstChargeAt.IsZero() {
		params.TrialEnd = stripe.Int64(p.FirstChargeAt.Unix())
	}
	if p.PaymentMethod != "" {
		params.DefaultPaymentMethod = stripe.String(p.PaymentMethod)
	}
	for k, v := range p.Metadata {
		params.AddMetadata(k, v)
	}
	params.Context = ctx
	params.SetStripeAccount(p.Account)
	params.SetIdempotencyKey(p.IdempotencyKey)
	sub, err := s.api.Subscriptions.New(params)
	if err != nil {
		return nil, classify(err)
	}
	out := subscriptionOf(sub)
	out.Product = prod.ID
	return out, nil
}

func (s *stripePort) UpdateSubscription(ctx context.Context, p SubscriptionUpdate) (*Subscription, error) {
	params := &stripe.SubscriptionParams{ProrationBehavior: stripe.String("none")}
	if !p.NextChargeAt.IsZero() {
		params.TrialEnd = stripe.Int64(p.NextChargeAt.Unix())
	}
	if p.AmountMinor > 0 {
		params.Items = []*stripe.SubscriptionItemsParams{{PriceData: &stripe.SubscriptionItemPriceDataParams{
			Currency: stripe.String(strings.ToLower(p.Currency)), Product: stripe.String(p.Product),
			UnitAmount: stripe.Int64(p.AmountMinor),
			Recurring: &stripe.SubscriptionItemPriceDataRecurringParams{
				Interval: stripe.String(p.Interval), IntervalCount: stripe.Int64(int64(p.IntervalCount))},
		}}}
		if p.ItemID != "" {
			params.Items[0].ID = stripe.String(p.ItemID)
		}
	}
	if !p.CancelAt.IsZero() {
		params.CancelAt = stripe.Int64(p.CancelAt.Unix())
	}
	if p.CollectionMethod != "" {
		params.CollectionMethod = stripe.String(p.CollectionMethod)
		if p.CollectionMethod == "send_invoice" && p.DaysUntilDue > 0 {
			params.DaysUntilDue = stripe.Int64(p.DaysUntilDue)
		}
	}
	params.Context = ctx
	params.SetStripeAccount(p.Account)
	params.SetIdempotencyKey(p.IdempotencyKey)
	sub, err := s.api.Subscriptions.Update(p.ID, params)
	if err != nil {
		return nil, classify(err)
	}
	return subscriptionOf(sub), nil
}

func (s *stripePort) GetInvoice(ctx context.Context, account, id string) (*Invoice, error) {
	params := &stripe.InvoiceParams{}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.AddExpand("payment_intent")
	inv, err := s.api.Invoices.Get(id, params)
	if err != nil {
		return nil, classify(err)
	}
	return invoiceOf(inv), nil
}

func (s *stripePort) PayInvoice(ctx context.Context, account, key, id, paymentMethod string) (*Invoice, error) {
	params := &stripe.InvoicePayParams{OffSession: stripe.Bool(true)}
	if paymentMethod != "" {
		params.PaymentMethod = stripe.String(paymentMethod)
	}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.SetIdempotencyKey(key)
	params.AddExpand("payment_intent")
	inv, err := s.api.Invoices.Pay(id, params)
	if err != nil {
		return invoicePayError(id, classify(err))
	}
	return invoiceOf(inv), nil
}

// invoicePayError reads an invoice pay's refusal. A 402 that is no decline,
// invoice_payment_intent_requires_action, is Stripe's answer when the
// charge waits on the member's authentication (3-D Secure): nothing is
// charged yet, the invoice is open and its intent requires_action; it is
// returned as that invoice (IntentStatus, ClientSecret), not as an error.
func invoicePayError(id string, err error) (*Invoice, error) {
	var ce *CardError
	if !errors.As(err, &ce) || ce.Code != CodeInvoiceRequiresAction {
		return nil, err
	}
	out := &Invoice{ID: id, Status: "open", IntentStatus: "requires_action"}
	if ce.Intent != nil {
		out.PaymentIntent, out.ClientSecret = ce.Intent.ID, ce.Intent.ClientSecret
		if ce.Intent.Status != "" {
			out.IntentStatus = ce.Intent.Status
		}
	}
	return out, nil
}

// CodeInvoiceRequiresAction is Stripe's code of an invoice pay whose
// charge waits on the customer's authentication.
const CodeInvoiceRequiresAction = "invoice_payment_intent_requires_action"

func (s *stripePort) PayInvoiceOutOfBand(ctx context.Context, account, key, id string) (*Invoice, error) {
	params := &stripe.InvoicePayParams{PaidOutOfBand: stripe.Bool(true)}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.SetIdempotencyKey(key)
	inv, err := s.api.Invoices.Pay(id, params)
	if err != nil {
		return nil, classify(err)
	}
	return invoiceOf(inv), nil
}

func (s *stripePort) SetInvoiceAutoAdvance(ctx context.Context, account, key, id string, on bool) (*Invoice, error) {
	params := &stripe.InvoiceParams{AutoAdvance: stripe.Bool(on)}
	params.Context = ctx
	params.SetStripeAccount(account)
	params.SetIdempotencyKey(key)
	inv, err := s.api.Invoices.Update(id, params)
	if err != nil {
		return nil, classify(err)
	}
	return invoiceOf(inv), nil
}

// RefusalCode is the Stripe error code of an answered refusal
// (invoice_already_paid, ...), "" for any other error.
func RefusalCode(err error) string {
	var rc *refusalError
	if errors.As(err, &rc) {
		return rc.code
	}
	return ""
}

// refusalError is a request Stripe answered with a refusal (4xx, not a
// card decline): ErrRefused with its status and code.
type refusalError struct {
	status int
	code   string
}

func (e *refusalError) Error() string {
	return fmt.Sprintf("%v: %d %s", ErrRefused, e.status, e.code)
}

func (e *refusalError) Unwrap() error { return ErrRefused }

func unixTime(sec int64) time.Time {
	if sec == 0 {
		return time.Time{}
	}
	return time.Unix(sec, 0).UTC()
}

func subscriptionOf(sub *stripe.Subscription) *Subscription {
	out := &Subscription{ID: sub.ID, Status: string(sub.Status), Metadata: sub.Metadata,
		CurrentPeriodEnd: unixTime(sub.CurrentPeriodEnd), TrialEnd: unixTime(sub.TrialEnd),
		CollectionMethod: string(sub.CollectionMethod), CancelAt: unixTime(sub.CancelAt)}
	if sub.Customer != nil {
		out.Customer = sub.Customer.ID
	}
	if sub.Schedule != nil {
		out.Schedule = sub.Schedule.ID
	}
	if sub.Items != nil && len(sub.Items.Data) > 0 && sub.Items.Data[0].Price != nil && sub.Items.Data[0].Price.Product != nil {
		out.Product = sub.Items.Data[0].Price.Product.ID
	}
	if sub.Items != nil && len(sub.Items.Data) > 0 && sub.Items.Data[0] != nil {
		out.ItemID = sub.Items.Data[0].ID
		if sub.Items.Data[0].Price != nil {
			out.AmountMinor = sub.Items.Data[0].Price.UnitAmount
		}
	}
	return out
}

func invoiceOf(inv *stripe.Invoice) *Invoice {
	out := &Invoice{ID: inv.ID, Status: string(inv.Status), AmountDue: inv.AmountDue, AmountPaid: inv.AmountPaid,
		Total: inv.Total, Currency: strings.ToUpper(string(inv.Currency)), AttemptCount: inv.AttemptCount,
		Created: unixTime(inv.Created), PeriodStart: unixTime(inv.PeriodStart), PeriodEnd: unixTime(inv.PeriodEnd),
		BillingReason: string(inv.BillingReason), PaidOutOfBand: inv.PaidOutOfBand}
	if inv.Subscription != nil {
		out.Subscription = inv.Subscription.ID
	}
	if inv.Customer != nil {
		out.Customer = inv.Customer.ID
	}
	if inv.SubscriptionDetails != nil {
		out.Metadata = inv.SubscriptionDetails.Metadata
	}
	if out.Metadata == nil {
		out.Metadata = inv.Metadata
	}
	if pi := inv.PaymentIntent; pi != nil {
		out.PaymentIntent = pi.ID
		out.IntentStatus, out.ClientSecret = string(pi.Status), pi.ClientSecret
		if e := pi.LastPaymentError; e != nil {
			out.FailureCode, out.DeclineCode = string(e.Code), string(e.DeclineCode)
		}
	}
	if inv.Lines != nil && len(inv.Lines.Data) > 0 {
		li := inv.Lines.Data[0]
		for _, l := range inv.Lines.Data {
			if l.Type == stripe.InvoiceLineItemTypeSubscription {
				li = l // an invoice item (a payment override) may come first
				break
			}
		}
		out.LineDescription = li.Description
		if li.Period != nil {
			// A subscription invoice's own period_start/end are the previous
			// period's; the line's period is the one billed.
			out.PeriodStart, out.PeriodEnd = unixTime(li.Period.Start), unixTime(li.Period.End)
		}
	}
	return out
}

// InvoiceFromObject reads an invoice of an event's data.object.
func InvoiceFromObject(raw json.RawMessage) (*Invoice, error) {
	var inv stripe.Invoice
	if err := json.Unmarshal(raw, &inv); err != nil {
		return nil, err
	}
	return invoiceOf(&inv), nil
}

// SubscriptionFromObject reads a subscription of an event's data.object.
func SubscriptionFromObject(raw json.RawMessage) (*Subscription, error) {
	var sub stripe.Subscription
	if err := json.Unmarshal(raw, &sub); err != nil {
		return nil, err
	}
	return subscriptionOf(&sub), nil
}

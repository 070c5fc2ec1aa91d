package billing

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/internal/pagination"
)

// memberVisible are the invoice states members see (drafts, void and
// uncollectible invoices are left out).
var memberVisible = []invoice.Status{invoice.StatusSent, invoice.StatusViewed, invoice.StatusOverdue,
	invoice.StatusPartiallyPaid, invoice.StatusPaid}

// unpaid are the invoice states with a balance a member can pay.
var unpaid = []invoice.Status{invoice.StatusSent, invoice.StatusViewed, invoice.StatusOverdue, invoice.StatusPartiallyPaid}

// Balance is what is still owed on an invoice.
func Balance(row *ent.Invoice) int64 {
	if row.Status == invoice.StatusPaid {
		return 0
	}
	return row.TotalMinor - row.AmountPaidMinor
}

// MyInvoices returns one page of the member's invoices at the viewer's venue
// (ctx acts as the member), newest first.
func (s *Service) MyInvoices(ctx context.Context, memberID uuid.UUID, signer *pagination.Signer, limit int, after string) ([]*ent.Invoice, pagination.CursorMeta, error) {
	list := "me.invoices:" + memberID.String()
	var k pagination.TimeID
	has, err := signer.After(list, after, &k)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	q := s.client.Invoice.Query().Where(invoice.MemberID(memberID), invoice.StatusIn(memberVisible...)).
		Order(ent.Desc(invoice.FieldCreatedAt), ent.Desc(invoice.FieldID)).Limit(limit + 1)
	if has {
		q.Where(invoice.Or(invoice.CreatedAtLT(k.At), invoice.And(invoice.CreatedAt(k.At), invoice.IDLT(k.ID))))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	return pagination.Next(signer, list, rows, limit, func(r *ent.Invoice) any {
		return pagination.TimeID{At: r.CreatedAt, ID: r.ID}
	})
}

// MyInvoice returns one of the member's invoices, marking a sent one viewed;
// another member's, a draft or an unknown id is NOT_FOUND.
func (s *Service) MyInvoice(ctx context.Context, memberID, id uuid.UUID, markViewed bool) (*ent.Invoice, error) {
	row, err := s.client.Invoice.Query().Where(invoice.ID(id), invoice.MemberID(memberID), invoice.StatusIn(memberVisible...)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, invoiceNotFound()
	}
	if err != nil {
		return nil, err
	}
	if markViewed && row.Status == invoice.StatusSent {
		n, err := s.client.Invoice.Update().Where(invoice.ID(id), invoice.StatusEQ(invoice.StatusSent)).
			SetStatus(invoice.StatusViewed).SetViewedAt(s.now()).Save(ctx)
		if err != nil {
			return nil, err
		}
		if n > 0 {
			return s.client.Invoice.Get(ctx, id)
		}
	}
	return row, nil
}

// FailedRow is one declined charge with its invoice.
type FailedRow struct {
	Payment *ent.Payment
	Invoice *ent.Invoice
}

// FailedPayments returns declined renewal charges of the viewer's venue,
// newest first: of memberID when set, since since when not zero, at most
// limit.
func (s *Service) FailedPayments(ctx context.Context, memberID *uuid.UUID, since time.Time, limit int) ([]FailedRow, error) {
	q := s.client.Payment.Query().Where(payment.StatusEQ(payment.StatusFailed), payment.KindEQ(payment.KindRenewal)).
		Order(ent.Desc(payment.FieldCreatedAt), ent.Desc(payment.FieldID)).Limit(limit)
	if memberID != nil {
		q.Where(payment.MemberID(*memberID))
	}
	if !since.IsZero() {
		q.Where(payment.CreatedAtGTE(since))
	}
	pays, err := q.All(ctx)
	if err != nil {
		return nil, err
	}
	var intents []string
	for _, p := range pays {
		if p.ProcessorPaymentID != nil {
			intents = append(intents, *p.ProcessorPaymentID)
		}
	}
	byIntent := map[string]*ent.Invoice{}
	if len(intents) > 0 {
		// A declined charge's intent is the invoice's latest, or an earlier
		// one of the same invoice: match through the payment's pass and
		// time when the invoice moved on to a later intent.
		invs, err := s.client.Invoice.Query().Where(invoice.PaymentIntentIDIn(intents...)).All(ctx)
		if err != nil {
			return nil, err
		}
		for _, in := range invs {
			byIntent[*in.PaymentIntentID] = in
		}
	}
	out := make([]FailedRow, 0, len(pays))
	for _, p := range pays {
		r := FailedRow{Payment: p}
		if p.ProcessorPaymentID != nil {
			r.Invoice = byIntent[*p.ProcessorPaymentID]
		}
		if r.Invoice == nil && p.PassID != nil {
			in, err := s.client.Invoice.Query().Where(invoice.PassID(*p.PassID), invoice.IssuedAtLTE(p.CreatedAt)).
				Order(ent.Desc(invoice.FieldIssuedAt)).First(ctx)
			if err != nil && !ent.IsNotFound(err) {
				return nil, err
			}
			r.Invoice = in
		}
		out = append(out, r)
	}
	return out, nil
}

// Outstanding is an unpaid invoice of the member with its subscription.
type Outstanding struct {
	Invoice      *ent.Invoice
	Subscription *ent.Subscription
}

// MyOutstanding returns the member's unpaid invoices at the viewer's venue,
// oldest due first.
func (s *Service) MyOutstanding(ctx context.Context, memberID uuid.UUID) ([]Outstanding, error) {
	rows, err := s.client.Invoice.Query().Where(invoice.MemberID(memberID), invoice.StatusIn(unpaid...)).
		Order(ent.Asc(invoice.FieldDueDate), ent.Asc(invoice.FieldID)).Limit(100).All(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Outstanding, 0, len(rows))
	for _, r := range rows {
		o := Outstanding{Invoice: r}
		if r.SubscriptionID != nil {
			if o.Subscription, err = s.client.Subscription.Get(ctx, *r.SubscriptionID); err != nil && !ent.IsNotFound(err) {
				return nil, err
			}
		}
		out = append(out, o)
	}
	return out, nil
}

package payments

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/internal/pagination"
)

// PaymentRow is one receipt-bearing payment of the member, with what it
// bought.
type PaymentRow struct {
	Payment     *ent.Payment
	Description string
}

// receiptBearing are the payment states a receipt exists for.
var receiptBearing = []payment.Status{payment.StatusSucceeded, payment.StatusRefunded, payment.StatusPartiallyRefunded}

// MyPayments returns one page of the member's receipt-bearing payments at the
// viewer's venue (ctx acts as the member: booking.AsMember), newest first,
// after the cursor after (a cursor of this list and this member only).
func (s *Service) MyPayments(ctx context.Context, memberID uuid.UUID, signer *pagination.Signer, limit int, after string) ([]PaymentRow, pagination.CursorMeta, error) {
	list := "me.payments:" + memberID.String()
	var k pagination.TimeID
	has, err := signer.After(list, after, &k)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	q := s.client.Payment.Query().
		Where(payment.MemberID(memberID), payment.StatusIn(receiptBearing...), payment.PaidAtNotNil()).
		Order(ent.Desc(payment.FieldPaidAt), ent.Desc(payment.FieldID)).Limit(limit + 1)
	if has {
		q.Where(payment.Or(payment.PaidAtLT(k.At), payment.And(payment.PaidAt(k.At), payment.IDLT(k.ID))))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	rows, meta, err := pagination.Next(signer, list, rows, limit, func(p *ent.Payment) any {
		return pagination.TimeID{At: *p.PaidAt, ID: p.ID}
	})
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	var passIDs []uuid.UUID
	for _, r := range rows {
		if r.PassID != nil {
			passIDs = append(passIDs, *r.PassID)
		}
	}
	names := map[uuid.UUID]string{}
	if len(passIDs) > 0 {
		passes, err := s.client.Pass.Query().Where(pass.IDIn(passIDs...)).
			WithPassType(func(q *ent.PassTypeQuery) { q.Select(passtype.FieldName) }).All(ctx)
		if err != nil {
			return nil, pagination.CursorMeta{}, err
		}
		for _, p := range passes {
			if p.Edges.PassType != nil {
				names[p.ID] = p.Edges.PassType.Name
			}
		}
	}
	out := make([]PaymentRow, 0, len(rows))
	for _, r := range rows {
		row := PaymentRow{Payment: r}
		if r.PassID != nil {
			row.Description = names[*r.PassID]
		}
		out = append(out, row)
	}
	return out, meta, nil
}

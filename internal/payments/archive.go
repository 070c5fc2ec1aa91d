package payments

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/pagination"
)

// MemberMoneyVersion is the version of the payment history's money fields
// (minor units with currency and exponent), declared in its metadata.
const MemberMoneyVersion = 2

// CodeHistoryUnavailable is the payment history's 503.
const CodeHistoryUnavailable = "PAYMENT_HISTORY_UNAVAILABLE"

// HistoryBudget bounds one page of the payment history: a read that cannot
// finish in it (the database unreachable or the rows locked) answers 503
// PAYMENT_HISTORY_UNAVAILABLE rather than hanging or failing with a 500.
const HistoryBudget = 2 * time.Second

func historyUnavailable(cause error) *apperr.Error {
	return (&apperr.Error{Status: http.StatusServiceUnavailable, Code: CodeHistoryUnavailable,
		Message: "the payment history cannot be read now; try again later", Cause: cause})
}

// PaymentHistory returns one page of every payment row of the member at the
// viewer's venue, in any state (pending, failed and cancelled ones too),
// newest recorded first, after the cursor after.
func (s *Service) PaymentHistory(ctx context.Context, memberID uuid.UUID, signer *pagination.Signer, limit int, after string) ([]PaymentRow, pagination.CursorMeta, error) {
	list := "me.payments.history:" + memberID.String()
	var k pagination.TimeID
	has, err := signer.After(list, after, &k)
	if err != nil {
		return nil, pagination.CursorMeta{}, err
	}
	rctx, cancel := context.WithTimeout(ctx, HistoryBudget)
	defer cancel()
	q := s.client.Payment.Query().Where(payment.MemberID(memberID)).
		Order(ent.Desc(payment.FieldCreatedAt), ent.Desc(payment.FieldID)).Limit(limit + 1)
	if has {
		q.Where(payment.Or(payment.CreatedAtLT(k.At), payment.And(payment.CreatedAt(k.At), payment.IDLT(k.ID))))
	}
	rows, err := q.All(rctx)
	if err != nil {
		return nil, pagination.CursorMeta{}, historyUnavailable(err)
	}
	rows, meta, err := pagination.Next(signer, list, rows, limit, func(p *ent.Payment) any {
		return pagination.TimeID{At: p.CreatedAt, ID: p.ID}
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
			WithPassType(func(q *ent.PassTypeQuery) { q.Select(passtype.FieldName) }).All(rctx)
		if err != nil {
			var ae *apperr.Error
			if errors.As(err, &ae) {
				return nil, pagination.CursorMeta{}, err
			}
			return nil, pagination.CursorMeta{}, historyUnavailable(err)
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

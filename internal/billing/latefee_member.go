package billing

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/paymentattempt"
)

// A late fee whose own card charge was declined (the automatic charge after
// Stripe's retry paid the renewal, or a staff charge of the fee alone) is
// no longer part of an unpaid invoice, so the member's outstanding list
// would not show it: it is listed on its own (DeclinedLateFees) while it is
// pending, and each declined charge of it is a row of the member's failed
// payments (LateFeeDeclines). The member cannot pay it in the app: the
// venue settles it (SettleLateFee, latefee_settle.go) or waives it, after
// which it leaves the outstanding list.

// DeclinedLateFee is a pending late fee whose last charge was declined.
type DeclinedLateFee struct {
	Fee *ent.LateFee
	// Attempt is the fee's latest charge attempt (failed).
	Attempt *ent.PaymentAttempt
	// Invoice is the renewal the fee was added to (nil when not readable).
	Invoice *ent.Invoice
}

// DeclinedLateFees returns the member's pending late fees at the viewer's
// venue whose renewal is paid and whose latest charge was declined, oldest
// first (ctx acts as the member).
func (s *Service) DeclinedLateFees(ctx context.Context, memberID uuid.UUID) ([]DeclinedLateFee, error) {
	fees, err := s.client.LateFee.Query().Where(latefee.MemberID(memberID), latefee.StatusEQ(latefee.StatusPending)).
		Order(ent.Asc(latefee.FieldAppliedAt), ent.Asc(latefee.FieldID)).Limit(100).All(ctx)
	if err != nil || len(fees) == 0 {
		return nil, err
	}
	out := make([]DeclinedLateFee, 0, len(fees))
	for _, f := range fees {
		at, err := s.client.PaymentAttempt.Query().Where(paymentattempt.PurposeEQ(LateFeePurpose),
			paymentattempt.SubjectID(f.ID)).Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
		if ent.IsNotFound(err) {
			continue // never charged on its own: shown with its unpaid renewal
		}
		if err != nil {
			return nil, fmt.Errorf("billing: late fee attempts: %w", err)
		}
		if at.State != paymentattempt.StateFailed {
			continue
		}
		in, err := s.client.Invoice.Query().Where(invoice.ID(f.InvoiceID)).Only(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return nil, err
		}
		if in != nil && isUnpaid(in.Status) {
			continue // the renewal is still owed: its item carries the fee
		}
		out = append(out, DeclinedLateFee{Fee: f, Attempt: at, Invoice: in})
	}
	return out, nil
}

// LateFeeDecline is one declined charge of a late fee of the member.
type LateFeeDecline struct {
	Fee     *ent.LateFee
	Attempt *ent.PaymentAttempt
	Invoice *ent.Invoice
}

// LateFeeDeclines returns the member's declined late fee charges at the
// viewer's venue, newest first, at most limit.
func (s *Service) LateFeeDeclines(ctx context.Context, memberID uuid.UUID, limit int) ([]LateFeeDecline, error) {
	fees, err := s.client.LateFee.Query().Where(latefee.MemberID(memberID)).All(ctx)
	if err != nil || len(fees) == 0 {
		return nil, err
	}
	byID := make(map[uuid.UUID]*ent.LateFee, len(fees))
	ids := make([]uuid.UUID, 0, len(fees))
	for _, f := range fees {
		byID[f.ID] = f
		ids = append(ids, f.ID)
	}
	ats, err := s.client.PaymentAttempt.Query().Where(paymentattempt.PurposeEQ(LateFeePurpose),
		paymentattempt.SubjectIDIn(ids...), paymentattempt.StateEQ(paymentattempt.StateFailed),
		paymentattempt.FailureCodeNotNil(), paymentattempt.FailureCodeNEQ("processor_refused")).
		Order(ent.Desc(paymentattempt.FieldUpdatedAt), ent.Desc(paymentattempt.FieldID)).Limit(limit).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("billing: late fee declines: %w", err)
	}
	out := make([]LateFeeDecline, 0, len(ats))
	for _, at := range ats {
		f := byID[at.SubjectID]
		in, err := s.client.Invoice.Query().Where(invoice.ID(f.InvoiceID)).Only(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return nil, err
		}
		out = append(out, LateFeeDecline{Fee: f, Attempt: at, Invoice: in})
	}
	return out, nil
}

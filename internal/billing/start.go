package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// StartArgs is the job that starts the renewals of a recurring pass just
// bought: queued in the activation's transaction, so a paid membership
// always gets its subscription, once.
type StartArgs struct {
	PassID         string `json:"pass_id"`
	OrganizationID string `json:"organization_id"`
}

// Kind implements river.JobArgs.
func (StartArgs) Kind() string { return "billing.start" }

func init() {
	payments.RegisterRecurringHook(func(ctx context.Context, _ *ent.Tx, p *ent.Pass, _ *ent.Checkout) error {
		return events.EnqueueJobs(ctx, river.InsertManyParams{Args: StartArgs{PassID: p.ID.String(), OrganizationID: p.OrganizationID.String()}})
	})
	payments.RegisterWorkers(func(w *river.Workers, p *payments.Service) error {
		return river.AddWorkerSafely(w, river.WorkFunc(func(ctx context.Context, job *river.Job[StartArgs]) error {
			org, err := uuid.Parse(job.Args.OrganizationID)
			if err != nil {
				return river.JobCancel(err)
			}
			id, err := uuid.Parse(job.Args.PassID)
			if err != nil {
				return river.JobCancel(err)
			}
			_, err = New(p).Start(inVenue(ctx, org), id)
			return err
		}))
	})
}

// Start starts the renewals of a recurring pass of the viewer's venue: a
// Stripe subscription on the venue's connected account that charges the
// member's saved card at the end of each period, its first charge at the end
// of the period already paid. It is idempotent: a pass has one subscription
// row, its one creation attempt is reused by every retry (so Stripe sees the
// same idempotency key), and a started subscription is returned as it is.
func (s *Service) Start(ctx context.Context, passID uuid.UUID) (*ent.Subscription, error) {
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return nil, err
	}
	p, err := s.client.Pass.Query().Where(pass.ID(passID)).WithPassType().Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("billing: start: %w", err)
	}
	pt := p.Edges.PassType
	if pt == nil || !pt.IsRecurring || pt.BillingInterval == nil || payments.PeriodPrice(p, pt) <= 0 {
		return nil, fmt.Errorf("billing: start: pass %s is not a paid recurring membership", passID)
	}
	if p.ValidTo == nil {
		return nil, fmt.Errorf("billing: start: pass %s has no period end", passID)
	}
	price, err := s.renewalPrice(ctx, p, pt) // a loyalty price of the member (loyalty.go)
	if err != nil {
		return nil, err
	}
	cust, err := s.pay.Customer(ctx, vp, p.MemberID, true)
	if err != nil {
		return nil, err
	}
	amount := price                                          // a binding's first phase has its own price (schedules.go)
	if t, err := termsOf(ctx, s.client, p, pt); err != nil { // schedules.go
		return nil, err
	} else if t != nil && dateOf(*p.ValidTo).Before(t.FirstEnd) {
		amount = t.FirstMinor
	}
	var (
		sub     *ent.Subscription
		attempt *ent.PaymentAttempt
	)
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := tx.Pass.Query().Where(pass.ID(passID)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		sub, err = tx.Subscription.Query().Where(subscription.PassID(passID)).Only(ctx)
		if ent.IsNotFound(err) {
			n := 1
			if pt.BillingIntervalCount != nil {
				n = *pt.BillingIntervalCount
			}
			sub, err = tx.Subscription.Create().SetMemberID(p.MemberID).SetPassID(p.ID).SetPassTypeID(pt.ID).
				SetCustomerID(cust.CustomerID).SetNillablePaymentMethodID(cust.DefaultPaymentMethodID).
				SetAmountMinor(amount).SetCurrency(pt.Currency).SetVatRateBp(vp.VatRateBp).
				SetInterval(subscription.Interval(*pt.BillingInterval)).SetIntervalCount(n).
				SetNextChargeAt(*p.ValidTo).Save(ctx)
		}
		if err != nil || sub.ProcessorSubscriptionID != nil {
			return err
		}
		attempt, err = tx.PaymentAttempt.Query().
			Where(paymentattempt.SubjectID(sub.ID), paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionCreate)).
			Order(ent.Asc(paymentattempt.FieldNumber)).First(ctx)
		if ent.IsNotFound(err) {
			attempt, err = tx.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeSubscriptionCreate).
				SetSubjectID(sub.ID).SetNumber(1).SetState(paymentattempt.StateInFlight).Save(ctx)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if sub.ProcessorSubscriptionID != nil {
		return sub, s.ensureSchedule(ctx, vp, sub, p, pt) // schedules.go
	}
	n := sub.IntervalCount
	out, err := s.port.CreateSubscription(ctx, stripeport.SubscriptionParams{
		Account: *vp.AccountID, IdempotencyKey: payments.IdempotencyKey(string(attempt.Purpose), attempt.ID.String(), "create"),
		Customer: sub.CustomerID, PaymentMethod: deref(sub.PaymentMethodID), ProductName: pt.Name,
		AmountMinor: sub.AmountMinor, Currency: sub.Currency, Interval: string(sub.Interval), IntervalCount: n,
		FirstChargeAt: *p.ValidTo,
		Metadata: map[string]string{"organization_id": sub.OrganizationID.String(), "subscription_id": sub.ID.String(),
			"pass_id": p.ID.String(), "member_id": p.MemberID.String(), "attempt_id": attempt.ID.String()},
	})
	if errors.Is(err, stripeport.ErrUnknownOutcome) {
		return nil, err // the job retries with the same attempt, so the same key
	}
	if err != nil {
		_ = s.client.PaymentAttempt.UpdateOne(attempt).SetState(paymentattempt.StateFailed).
			SetFailureCode("processor_refused").Exec(ctx)
		return nil, fmt.Errorf("billing: create subscription: %w", err)
	}
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		upd := tx.Subscription.UpdateOneID(sub.ID).SetProcessorSubscriptionID(out.ID).SetProcessorStatus(out.Status)
		if !out.CurrentPeriodEnd.IsZero() {
			upd.SetCurrentPeriodEnd(out.CurrentPeriodEnd).SetNextChargeAt(out.CurrentPeriodEnd)
		}
		if sub, err = upd.Save(ctx); err != nil {
			return err
		}
		return tx.PaymentAttempt.UpdateOneID(attempt.ID).SetState(paymentattempt.StateSucceeded).
			SetProcessorObjectID(out.ID).ClearLiveSubjectID().Exec(ctx)
	})
	if err != nil {
		return sub, err
	}
	return sub, s.ensureSchedule(ctx, vp, sub, p, pt) // schedules.go
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// dateOf is t's calendar day as a date value (midnight UTC).
func dateOf(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

package billing

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// AuditCancelRequested is the audit action of a membership's cancel.
const AuditCancelRequested = "membership.cancel_requested"

// Cancellation is a membership's cancel: it ends (no renewal) on EndsOn.
type Cancellation struct {
	PassID        uuid.UUID
	EndsOn        time.Time
	BindingEndsOn *time.Time
}

// CancelAtPeriodEnd ends membership passID of the viewer's venue (the
// member's own under a member viewer) at the end of its paid period: the
// subscription gets cancel_at its next charge, after releasing its schedule
// (Stripe refuses a cancel of a subscription a schedule manages). Notice
// given while a binding lasts is accepted too: the membership ends on the
// binding's end, the renewal at or after it (cancelEnd), so the periods
// the binding promised are charged and none after. The subscription row
// keeps the end (cancel_at): the membership's current cancellation, which
// Stripe withdrawing clears (OnSubscription). A pass that does not
// renew is 422 NO_STRIPE_SUBSCRIPTION. Refusals change nothing.
func (s *Service) CancelAtPeriodEnd(ctx context.Context, passID uuid.UUID) (*Cancellation, error) {
	sub, err := s.liveSubscription(ctx, passID, CodeNoStripeSubscription)
	if err != nil {
		return nil, err
	}
	p, err := s.client.Pass.Query().Where(pass.ID(passID)).WithPassType().Only(ctx)
	if err != nil {
		return nil, err
	}
	t, err := termsOf(ctx, s.client, p, p.Edges.PassType)
	if err != nil {
		return nil, err
	}
	today, loc, err := s.venueToday(ctx)
	if err != nil {
		return nil, err
	}
	out := &Cancellation{PassID: passID}
	if sub.NextChargeAt == nil {
		return nil, noStripeSubscription(CodeNoStripeSubscription)
	}
	end := *sub.NextChargeAt
	out.EndsOn = dateOf(end)
	if t != nil && t.BindingEndsOn != nil {
		out.BindingEndsOn = t.BindingEndsOn
		if today.Before(*t.BindingEndsOn) {
			end = cancelEnd(end, *t.BindingEndsOn, loc, p.Edges.PassType)
			out.EndsOn = *t.BindingEndsOn
		}
	}
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return nil, err
	}
	sched, err := s.client.PaymentAttempt.Query().Where(paymentattempt.SubjectID(sub.ID),
		paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionUpdate), paymentattempt.StateEQ(paymentattempt.StateSucceeded),
		paymentattempt.ProcessorObjectIDHasPrefix("sub_sched_")).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	at, err := s.updateAttempt(ctx, sub)
	if err != nil {
		return nil, err
	}
	if sched != nil {
		// Released already by an earlier cancel: Stripe refuses again, the
		// replayed key answers as before.
		err := s.port.ReleaseSchedule(ctx, *vp.AccountID,
			payments.IdempotencyKey("subscription_schedule", sub.ID.String(), "release"), *sched.ProcessorObjectID)
		if errors.Is(err, stripeport.ErrUnknownOutcome) {
			_ = s.client.PaymentAttempt.UpdateOne(at).SetState(paymentattempt.StateUnknown).ClearLiveSubjectID().Exec(ctx)
			return nil, unknownOutcome()
		}
		if err != nil && stripeport.RefusalCode(err) == "" {
			_ = s.client.PaymentAttempt.UpdateOne(at).SetState(paymentattempt.StateFailed).
				SetFailureCode("processor_refused").ClearLiveSubjectID().Exec(ctx)
			s.pay.Logger().ErrorContext(ctx, "schedule release refused", "attempt_id", at.ID, "error", err)
			return nil, stripeError()
		}
	}
	if _, err := s.stripeUpdate(ctx, at, stripeport.SubscriptionUpdate{Account: *vp.AccountID,
		ID: *sub.ProcessorSubscriptionID, CancelAt: end}); err != nil {
		return nil, err
	}
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		details := map[string]any{"subscription_id": sub.ID.String(), "member_id": sub.MemberID.String(),
			"ends_on": out.EndsOn.Format(time.DateOnly), "cancel_at": end.UTC().Format(time.RFC3339),
			"inside_binding": out.BindingEndsOn != nil && today.Before(*out.BindingEndsOn)}
		if out.BindingEndsOn != nil {
			details["binding_ends_on"] = out.BindingEndsOn.Format(time.DateOnly)
		}
		if _, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditCancelRequested, Target: "pass:" + passID.String(),
			Details: details}); err != nil {
			return err
		}
		if err := tx.Subscription.UpdateOneID(sub.ID).SetCancelAt(end).Exec(ctx); err != nil {
			return err
		}
		return tx.PaymentAttempt.UpdateOneID(at.ID).SetState(paymentattempt.StateSucceeded).
			SetProcessorObjectID(*sub.ProcessorSubscriptionID).ClearLiveSubjectID().Exec(ctx)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// cancelEnd is when a subscription whose next charge is next ends if notice
// is given before its binding ends on bindingEnds (a venue-local day): the
// first renewal whose venue-local day is on or after it, stepping by the
// pass type's billing period as Stripe does from the billing anchor. That
// renewal does not happen; every one before it does.
func cancelEnd(next, bindingEnds time.Time, loc *time.Location, pt *ent.PassType) time.Time {
	if pt.BillingInterval == nil {
		return next
	}
	n := 1
	if pt.BillingIntervalCount != nil {
		n = *pt.BillingIntervalCount
	}
	end := next.UTC()
	for i := 0; i < 1000 && dateOf(end.In(loc)).Before(bindingEnds); i++ {
		end = addPeriod(end, string(*pt.BillingInterval), n)
	}
	return end
}

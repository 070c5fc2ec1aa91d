package billing

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/viewer"
)

// A change of a membership's collection (card or external) keeps what staff
// asked on its attempt (payment_attempts.intent: from, to, reason and who
// asked) before Stripe is told, so an answer Stripe lost is finished by the
// reconcile as asked instead of being dropped: it reads the subscription and
// records the collection and the audit entry when Stripe has it, or sends
// the change again under the attempt's key when Stripe does not; a refusal
// then leaves our rows as they were.

// Intent kinds on a payment attempt.
const (
	intentCollection = "collection"
	intentSettlement = "settlement"
)

func init() {
	// Subscription updates that carry a collection change are reconciled
	// here; the others as before (pricechange.go).
	payments.RegisterDomainReconciler(paymentattempt.PurposeSubscriptionUpdate, func(ctx context.Context, p *payments.Service, at *ent.PaymentAttempt) error {
		s := New(p)
		if intentKind(at) == intentCollection {
			return s.reconcileCollection(ctx, at)
		}
		return reconcileSubscriptionUpdate(ctx, s.client, s.port, at)
	})
}

func intentKind(at *ent.PaymentAttempt) string {
	k, _ := at.Intent["kind"].(string)
	return k
}

func intentString(in map[string]any, k string) string {
	v, _ := in[k].(string)
	return v
}

// requester records who asked, for an audit entry written later by the
// reconcile or an event.
func requester(ctx context.Context, in map[string]any) map[string]any {
	v := viewer.FromContext(ctx)
	in["actor"] = v.Actor()
	if u, ok := v.(viewer.User); ok {
		in["actor_kind"], in["user_id"] = audit.KindUser, u.UserID.String()
	}
	return in
}

// asRequested fills an audit entry written without the requester's viewer
// with who asked.
func asRequested(e audit.Entry, in map[string]any) audit.Entry {
	e.Actor, e.ActorKind = intentString(in, "actor"), intentString(in, "actor_kind")
	if id, err := uuid.Parse(intentString(in, "user_id")); err == nil {
		e.UserID = &id
	}
	return e
}

func collectionMethodOf(to subscription.Collection) string {
	if to == subscription.CollectionExternal {
		return "send_invoice"
	}
	return "charge_automatically"
}

func collectionUpdate(account, id string, to subscription.Collection) stripeport.SubscriptionUpdate {
	u := stripeport.SubscriptionUpdate{Account: account, ID: id, CollectionMethod: collectionMethodOf(to)}
	if to == subscription.CollectionExternal {
		u.DaysUntilDue = ExternalDaysUntilDue
	}
	return u
}

// SetCollection moves a membership to external collection or back to card,
// with the automatic collection of its open invoices (external_autoadvance.go).
// The same collection again changes nothing (no Stripe write, no audit).
// Otherwise, in the attempt-row discipline of every subscription update: the
// attempt holds the subscription's live slot (a change in flight is 409
// PAYMENT_PENDING) and keeps the change asked, Stripe's collection_method is
// changed under a key of the attempt (refused: 502 STRIPE_ERROR, nothing
// changed; answer lost: 409 UNKNOWN_WRITE_OUTCOME, finished by the
// reconcile), then our row and the audit entry
// membership.billing_collection_changed in one transaction.
func (s *Service) SetCollection(ctx context.Context, passID uuid.UUID, to subscription.Collection, reason string) (*ent.Subscription, error) {
	if subscription.CollectionValidator(to) != nil {
		return nil, apperr.Validation("collection", "collection must be card or external")
	}
	sub, err := s.externalTarget(ctx, passID)
	if err != nil {
		return nil, err
	}
	if sub.Collection == to {
		return sub, nil
	}
	vp, err := s.stripeConfigured(ctx)
	if err != nil {
		return nil, err
	}
	at, err := s.updateAttempt(ctx, sub) // lifecycle.go
	if err != nil {
		return nil, err
	}
	in := requester(ctx, map[string]any{"kind": intentCollection, "from": string(sub.Collection), "to": string(to), "reason": reason})
	err = s.autoAdvancePlan(ctx, sub, to, in) // external_autoadvance.go
	var withIntent *ent.PaymentAttempt
	if err == nil {
		withIntent, err = s.client.PaymentAttempt.UpdateOne(at).SetIntent(in).Save(ctx)
	}
	if err != nil {
		_ = s.client.PaymentAttempt.UpdateOneID(at.ID).SetState(paymentattempt.StateCanceled).ClearLiveSubjectID().Exec(ctx)
		return nil, err
	}
	at = withIntent
	if _, err := s.stripeUpdate(ctx, at, collectionUpdate(*vp.AccountID, *sub.ProcessorSubscriptionID, to)); err != nil {
		return nil, err
	}
	if err := s.sendAutoAdvance(ctx, *vp.AccountID, at); err != nil {
		return nil, unknownOutcome() // left in flight: the sweep and the reconcile send the rest again
	}
	return s.finishCollection(ctx, at, false)
}

// finishCollection records the collection an attempt's intent asked for,
// the audit entry and the attempt succeeded, once: an attempt settled
// meanwhile changes nothing.
func (s *Service) finishCollection(ctx context.Context, at *ent.PaymentAttempt, reconciled bool) (*ent.Subscription, error) {
	in := at.Intent
	to := subscription.Collection(intentString(in, "to"))
	var out *ent.Subscription
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.Subscription.Query().Where(subscription.ID(at.SubjectID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		n, err := tx.PaymentAttempt.Update().Where(paymentattempt.ID(at.ID),
			paymentattempt.StateIn(paymentattempt.StateInFlight, paymentattempt.StateUnknown)).
			SetState(paymentattempt.StateSucceeded).SetNillableProcessorObjectID(cur.ProcessorSubscriptionID).
			ClearLiveSubjectID().Save(ctx)
		if err != nil || n == 0 {
			out = cur
			return err
		}
		if out, err = tx.Subscription.UpdateOne(cur).SetCollection(to).Save(ctx); err != nil {
			return err
		}
		e := audit.Entry{Action: AuditCollectionChanged, Target: "pass:" + cur.PassID.String(),
			Details: map[string]any{"subscription_id": cur.ID.String(), "member_id": cur.MemberID.String(),
				"from": string(cur.Collection), "to": string(to), "reason": intentString(in, "reason"), "attempt_id": at.ID.String()}}
		if reconciled {
			e = asRequested(e, in)
			e.Details["finished_by"] = "reconcile"
		}
		_, err = audit.Record(ctx, tx.Client(), e)
		return err
	})
	return out, err
}

// reconcileCollection finishes a collection change whose answer was lost:
// Stripe's subscription already collects as asked, the change is recorded;
// it does not, the change is sent again under the attempt's key (a lost
// answer again: the job tries later; a refusal: the attempt failed, our
// rows as they were).
func (s *Service) reconcileCollection(ctx context.Context, at *ent.PaymentAttempt) error {
	sub, err := s.client.Subscription.Get(ctx, at.SubjectID)
	if err != nil {
		return fmt.Errorf("billing: reconcile collection: %w", err)
	}
	if sub.ProcessorSubscriptionID == nil {
		return s.settleUnknown(ctx, at, paymentattempt.StateCanceled, "")
	}
	vp, err := s.client.VenuePayments.Query().Only(ctx)
	if err != nil || vp.AccountID == nil {
		return fmt.Errorf("billing: reconcile collection: venue account: %v", err)
	}
	to := subscription.Collection(intentString(at.Intent, "to"))
	cur, err := s.port.GetSubscription(ctx, *vp.AccountID, *sub.ProcessorSubscriptionID)
	if err != nil {
		return fmt.Errorf("billing: reconcile collection: read: %w", err) // the job tries again
	}
	method := cur.CollectionMethod
	if method == "" {
		method = "charge_automatically"
	}
	if method != collectionMethodOf(to) {
		u := collectionUpdate(*vp.AccountID, *sub.ProcessorSubscriptionID, to)
		u.IdempotencyKey = payments.IdempotencyKey(string(at.Purpose), at.ID.String(), "update")
		_, err := s.port.UpdateSubscription(ctx, u)
		if errors.Is(err, stripeport.ErrUnknownOutcome) {
			return fmt.Errorf("billing: reconcile collection: %w", err) // the job tries again
		}
		if err != nil {
			s.pay.Logger().ErrorContext(ctx, "collection change refused on reconcile", "attempt_id", at.ID, "error", err)
			err := s.client.PaymentAttempt.UpdateOneID(at.ID).Where(paymentattempt.StateEQ(paymentattempt.StateUnknown)).
				SetState(paymentattempt.StateFailed).SetFailureCode("processor_refused").ClearLiveSubjectID().Exec(ctx)
			if ent.IsNotFound(err) {
				return nil
			}
			return err
		}
	}
	if err := s.sendAutoAdvance(ctx, *vp.AccountID, at); err != nil {
		return fmt.Errorf("billing: reconcile collection: %w", err) // the job tries again
	}
	_, err = s.finishCollection(ctx, at, true)
	return err
}

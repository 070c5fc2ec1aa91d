package billing

import (
	"context"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Removing a dead membership setup. A recurring membership bought at
// checkout starts as a pending pass, with its checkout and, once the
// renewals start, a subscription row. When the purchase never completed
// (no payment, the subscription absent or incomplete_expired at Stripe)
// those rows are a dead setup: staff may remove them. The contract's
// cleanup_failed_setup capability is billing.manage.

// Error codes and the audit action of dead setup removal.
const (
	CodeStale               = "STALE"
	CodeHasHistory          = "HAS_HISTORY"
	CodeHasLifecycleHistory = "HAS_LIFECYCLE_HISTORY"
	CodeProcessorUnknown    = "PROCESSOR_UNKNOWN"
	CodeNotRecurring        = "NOT_RECURRING"
	CodeNotSafe             = "NOT_SAFE"
	CodeNotRemovable        = "NOT_REMOVABLE"
	AuditSetupRemoved       = "membership.setup_artifact_removed"
	// PermCleanupFailedSetup is the contract's cleanup_failed_setup capability.
	PermCleanupFailedSetup = PermBillingManage
)

// deadAtProcessor are the Stripe subscription statuses of a setup that will
// never charge.
var deadAtProcessor = map[string]bool{"incomplete_expired": true, "canceled": true}

func setupRefusal(code, msg, reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: code, Message: msg}).With("reason", reason)
}

// RemovedSetup is what a removal took away.
type RemovedSetup struct {
	PassID              uuid.UUID
	MemberID            uuid.UUID
	SubscriptionID      *uuid.UUID
	ProcessorStatus     string // absent when Stripe has no subscription
	CheckoutsDetached   int
	PaymentAttemptsKept int
}

// RemoveDeadSetup removes the dead setup of a recurring pass of the
// viewer's venue, in the contract's order of checks: 404 NOT_FOUND, 422
// NOT_RECURRING, 409 STALE (expectedUpdatedAt is not the pass's
// updated_at), 422 NOT_REMOVABLE (the pass is not pending: it activated),
// HAS_HISTORY (payments, bookings, invoices or a paid checkout),
// HAS_LIFECYCLE_HISTORY (staff changed the membership), NOT_SAFE (a checkout
// or charge may still complete, or Stripe's subscription is live),
// PROCESSOR_UNKNOWN (Stripe's state of the subscription cannot be read, or
// its creation's outcome is unknown). The pass and its subscription row are
// deleted, its checkouts keep their rows (their payment records) without the
// pass; audit membership.setup_artifact_removed.
func (s *Service) RemoveDeadSetup(ctx context.Context, passID uuid.UUID, expectedUpdatedAt time.Time) (*RemovedSetup, error) {
	p, err := s.client.Pass.Query().Where(pass.ID(passID)).WithPassType().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, passNotFound()
	}
	if err != nil {
		return nil, err
	}
	if p.Edges.PassType == nil || !p.Edges.PassType.IsRecurring {
		return nil, setupRefusal(CodeNotRecurring, "the pass is not a recurring membership", "not_recurring")
	}
	if err := checkFresh(p, expectedUpdatedAt); err != nil {
		return nil, err
	}
	if p.Status != pass.StatusPending {
		return nil, setupRefusal(CodeNotRemovable, "the membership activated; only a setup that never activated can be removed", string(p.Status)).
			With("pass_status", string(p.Status))
	}
	if reason, err := s.setupHistory(ctx, p); err != nil {
		return nil, err
	} else if reason != "" {
		return nil, setupRefusal(CodeHasHistory, "the membership has history and is kept", reason)
	}
	n, err := s.client.AuditLog.Query().Where(auditlog.Target("pass:" + passID.String())).Count(ctx)
	if err != nil {
		return nil, err
	}
	if n > 0 {
		return nil, setupRefusal(CodeHasLifecycleHistory, "staff changed this membership; it is kept", "staff_changes").With("changes", n)
	}
	sub, err := s.client.Subscription.Query().Where(subscription.PassID(passID)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, err
	}
	if reason, err := s.setupBusy(ctx, p, sub); err != nil {
		return nil, err
	} else if reason != "" {
		return nil, setupRefusal(CodeNotSafe, "a payment of this setup may still complete", reason)
	}
	out := &RemovedSetup{PassID: p.ID, MemberID: p.MemberID, ProcessorStatus: "absent"}
	if sub != nil {
		st, err := s.processorState(ctx, sub)
		if err != nil {
			return nil, err
		}
		out.ProcessorStatus, out.SubscriptionID = st, &sub.ID
	}
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.Pass.Query().Where(pass.ID(passID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		if err := checkFresh(cur, expectedUpdatedAt); err != nil {
			return err
		}
		if cur.Status != pass.StatusPending {
			return setupRefusal(CodeNotRemovable, "the membership activated meanwhile", string(cur.Status))
		}
		if reason, err := s.setupHistory(ctx, cur); err != nil {
			return err
		} else if reason != "" {
			return setupRefusal(CodeHasHistory, "the membership has history and is kept", reason)
		}
		if out.CheckoutsDetached, err = tx.Checkout.Update().Where(checkout.PassID(passID)).ClearPassID().Save(ctx); err != nil {
			return err
		}
		if sub != nil {
			if err := tx.Subscription.DeleteOneID(sub.ID).Exec(ctx); err != nil {
				return err
			}
		}
		if err := tx.Pass.DeleteOneID(passID).Exec(ctx); err != nil {
			return err
		}
		details := map[string]any{"pass_id": passID.String(), "member_id": p.MemberID.String(),
			"pass_type_id": p.PassTypeID.String(), "processor_status": out.ProcessorStatus,
			"checkouts_detached": out.CheckoutsDetached}
		if sub != nil {
			details["subscription_id"] = sub.ID.String()
			details["processor_subscription_id"] = deref(sub.ProcessorSubscriptionID)
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditSetupRemoved, Target: "pass:" + passID.String(), Details: details})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// checkFresh is 409 STALE unless expected is the pass's updated_at (to the
// microsecond the database keeps).
func checkFresh(p *ent.Pass, expected time.Time) error {
	if !p.UpdatedAt.Truncate(time.Microsecond).Equal(expected.Truncate(time.Microsecond)) {
		return (&apperr.Error{Status: http.StatusConflict, Code: CodeStale,
			Message: "the membership changed since it was read; reload it"}).With("updated_at", p.UpdatedAt.UTC())
	}
	return nil
}

// setupHistory says why a pass has history ("" when it has none).
func (s *Service) setupHistory(ctx context.Context, p *ent.Pass) (string, error) {
	c := s.client
	if ok, err := c.Payment.Query().Where(payment.PassID(p.ID)).Exist(ctx); err != nil || ok {
		return "payments", err
	}
	if ok, err := c.Booking.Query().Where(booking.PassID(p.ID)).Exist(ctx); err != nil || ok {
		return "bookings", err
	}
	if ok, err := c.Invoice.Query().Where(invoice.PassID(p.ID)).Exist(ctx); err != nil || ok {
		return "invoices", err
	}
	if ok, err := c.Checkout.Query().Where(checkout.PassID(p.ID), checkout.StatusEQ(checkout.StatusPaid)).Exist(ctx); err != nil || ok {
		return "paid_checkout", err
	}
	return "", nil
}

// setupBusy says why a payment of the setup may still complete ("" when
// none can): an open checkout whose hold has not lapsed, or a charge or
// subscription creation not settled.
func (s *Service) setupBusy(ctx context.Context, p *ent.Pass, sub *ent.Subscription) (string, error) {
	cos, err := s.client.Checkout.Query().Where(checkout.PassID(p.ID)).All(ctx)
	if err != nil {
		return "", err
	}
	subjects := make([]uuid.UUID, 0, len(cos)+1)
	for _, co := range cos {
		if co.Status == checkout.StatusOpen && (co.HoldExpiresAt == nil || co.HoldExpiresAt.After(s.now())) {
			return "checkout_open", nil
		}
		subjects = append(subjects, co.ID)
	}
	if sub != nil {
		subjects = append(subjects, sub.ID)
	}
	if len(subjects) == 0 {
		return "", nil
	}
	ats, err := s.client.PaymentAttempt.Query().Where(paymentattempt.SubjectIDIn(subjects...)).All(ctx)
	if err != nil {
		return "", err
	}
	for _, at := range ats {
		switch at.State {
		case paymentattempt.StateSucceeded:
			if at.Purpose != paymentattempt.PurposeSubscriptionCreate {
				return "payment_succeeded", nil
			}
		case paymentattempt.StateCreated, paymentattempt.StateInFlight, paymentattempt.StateRequiresAction,
			paymentattempt.StateProcessing:
			return "payment_in_progress", nil
		case paymentattempt.StateUnknown:
			if at.Purpose == paymentattempt.PurposeSubscriptionCreate {
				continue // read at Stripe below
			}
			return "payment_outcome_unknown", nil
		}
	}
	return "", nil
}

// processorState reads the setup's subscription at Stripe through the port:
// absent (none was made, or Stripe has none) and incomplete_expired or
// canceled are dead; a live status is NOT_SAFE; an unreadable one (or a
// creation whose outcome is unknown and that names no subscription) is
// PROCESSOR_UNKNOWN.
func (s *Service) processorState(ctx context.Context, sub *ent.Subscription) (string, error) {
	if sub.ProcessorSubscriptionID == nil {
		unknown, err := s.client.PaymentAttempt.Query().Where(paymentattempt.SubjectID(sub.ID),
			paymentattempt.PurposeEQ(paymentattempt.PurposeSubscriptionCreate),
			paymentattempt.StateIn(paymentattempt.StateUnknown, paymentattempt.StateSucceeded)).Exist(ctx)
		if err != nil {
			return "", err
		}
		if unknown {
			return "", setupRefusal(CodeProcessorUnknown, "whether the payment processor made the subscription is not known", "creation_outcome_unknown")
		}
		return "absent", nil
	}
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return "", setupRefusal(CodeProcessorUnknown, "the payment processor cannot be asked now", "processor_unavailable")
	}
	got, err := s.port.GetSubscription(ctx, *vp.AccountID, *sub.ProcessorSubscriptionID)
	switch {
	case stripeport.RefusalCode(err) == "resource_missing":
		return "absent", nil
	case err != nil:
		return "", setupRefusal(CodeProcessorUnknown, "the payment processor's state of the subscription could not be read", "processor_read_failed")
	}
	if !deadAtProcessor[got.Status] {
		return "", setupRefusal(CodeNotSafe, "the subscription is live at the payment processor", "processor_"+got.Status).
			With("processor_status", got.Status)
	}
	return got.Status, nil
}

// MembershipSetup reads a pass of the viewer's venue with its pass type and
// its subscription row (nil when none was made).
func (s *Service) MembershipSetup(ctx context.Context, passID uuid.UUID) (*ent.Pass, *ent.Subscription, error) {
	p, err := s.client.Pass.Query().Where(pass.ID(passID)).WithPassType().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, passNotFound()
	}
	if err != nil {
		return nil, nil, err
	}
	sub, err := s.client.Subscription.Query().Where(subscription.PassID(passID)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, nil, err
	}
	return p, sub, nil
}

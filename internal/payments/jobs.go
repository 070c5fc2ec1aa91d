package payments

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/venuepayments"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// EventArgs is the job that processes one recorded inbound event.
type EventArgs struct {
	EventID string `json:"event_id"`
}

// Kind implements river.JobArgs.
func (EventArgs) Kind() string { return "payments.event" }

// ReconcileArgs is the job that settles an attempt whose outcome was not
// known, by reading Stripe.
type ReconcileArgs struct {
	AttemptID      string `json:"attempt_id"`
	OrganizationID string `json:"organization_id"`
}

// Kind implements river.JobArgs.
func (ReconcileArgs) Kind() string { return "payments.reconcile" }

func enqueueReconcile(ctx context.Context, at *ent.PaymentAttempt) error {
	return events.EnqueueJobs(ctx, river.InsertManyParams{
		Args:       ReconcileArgs{AttemptID: at.ID.String(), OrganizationID: at.OrganizationID.String()},
		InsertOpts: &river.InsertOpts{ScheduledAt: time.Now().Add(2 * time.Second)},
	})
}

// Register adds the payments workers (inbound events, reconcile) to River.
func (s *Service) Register(w *river.Workers) error {
	if err := river.AddWorkerSafely(w, river.WorkFunc(s.workEvent)); err != nil {
		return err
	}
	if err := river.AddWorkerSafely(w, river.WorkFunc(s.workCancelIntent)); err != nil { // holds.go
		return err
	}
	if err := river.AddWorkerSafely(w, river.WorkFunc(s.workReconcile)); err != nil {
		return err
	}
	return registerExtraWorkers(w, s)
}

// inVenue is the context of a job's work in one venue, as its operator.
// Elevation site: the job holds only ids; the venue is the one the attempt
// or the event's object names.
func inVenue(ctx context.Context, org uuid.UUID) context.Context {
	return system.Elevate(ctx, "payments.job_venue", viewer.Operator{Org: org, Name: "payments"})
}

func (s *Service) workReconcile(ctx context.Context, job *river.Job[ReconcileArgs]) error {
	org, err := uuid.Parse(job.Args.OrganizationID)
	if err != nil {
		return river.JobCancel(err)
	}
	id, err := uuid.Parse(job.Args.AttemptID)
	if err != nil {
		return river.JobCancel(err)
	}
	return s.Reconcile(inVenue(ctx, org), id)
}

// SearchLag is how long after an attempt was made reconcile trusts that
// Stripe's search finding no intent means there is none (Stripe documents a
// delay of up to a minute before an object is searchable).
const SearchLag = 3 * time.Minute

// StaleAfter is how long an attempt may stay created or in flight before the
// sweep takes it for one whose server died mid-call and reconciles it.
const StaleAfter = 2 * time.Minute

// SweepStale marks attempts left created or in flight by a server that died
// mid-call as unknown and queues their reconcile jobs; it returns how many.
func (s *Service) SweepStale(ctx context.Context) (int, error) {
	// System call site: the sweep runs for every venue and holds no
	// viewer; it reads attempt ids and venues, and marks each in its venue's
	// transaction with the job that settles it.
	stale, err := s.client.PaymentAttempt.Query().
		Where(paymentattempt.StateIn(paymentattempt.StateCreated, paymentattempt.StateInFlight),
			paymentattempt.UpdatedAtLT(s.now().Add(-StaleAfter))).
		Limit(500).All(system.Allow(ctx, "payments.stale_attempts"))
	if err != nil {
		return 0, fmt.Errorf("payments: stale attempts: %w", err)
	}
	n := 0
	for _, at := range stale {
		if err := s.markUnknown(inVenue(ctx, at.OrganizationID), at); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Reconcile settles an unknown attempt of the viewer's venue by reading
// Stripe: the intent the attempt made (searched by the attempt id in its
// metadata), applied like any other answer. No intent means the charge never
// happened: the attempt is canceled and the member may buy again. It never
// writes to Stripe.
func (s *Service) Reconcile(ctx context.Context, attemptID uuid.UUID) error {
	at, err := s.client.PaymentAttempt.Get(ctx, attemptID)
	if err != nil {
		return fmt.Errorf("payments: reconcile: %w", err)
	}
	if at.State != paymentattempt.StateUnknown {
		return nil
	}
	if s.port == nil {
		return errors.New("payments: reconcile: card payments are off")
	}
	if r := domainReconcilerOf(at.Purpose); r != nil {
		return r(ctx, s, at)
	}
	if r := reconcilerOf(at.Purpose); r != nil {
		return r(ctx, s.client, s.port, at)
	}
	vp, err := s.venuePayments(ctx)
	if err != nil || vp == nil || vp.AccountID == nil {
		return fmt.Errorf("payments: reconcile: venue account: %v", err)
	}
	if at.Purpose == paymentattempt.PurposeCheckoutSetup {
		// A setup intent moves no money: one whose creation went unanswered is
		// dropped (canceled), and the member starts again.
		return s.client.PaymentAttempt.UpdateOneID(at.ID).
			Where(paymentattempt.StateEQ(paymentattempt.StateUnknown)).
			SetState(paymentattempt.StateCanceled).ClearLiveSubjectID().Exec(ctx)
	}
	var in *stripeport.Intent
	if at.ProcessorObjectID != nil {
		in, err = s.port.GetPaymentIntent(ctx, *vp.AccountID, *at.ProcessorObjectID)
	} else {
		in, err = s.port.FindPaymentIntent(ctx, *vp.AccountID, at.ID.String())
	}
	if err != nil {
		return fmt.Errorf("payments: reconcile read: %w", err)
	}
	if in == nil && s.now().Sub(at.CreatedAt) < SearchLag {
		// Stripe's search may lag a new intent: ask again later (River
		// retries the job with backoff) before concluding there is none.
		return fmt.Errorf("payments: reconcile: no intent found yet for attempt %s", at.ID)
	}
	if in == nil {
		return s.client.PaymentAttempt.UpdateOneID(at.ID).
			Where(paymentattempt.StateEQ(paymentattempt.StateUnknown)).
			SetState(paymentattempt.StateCanceled).ClearLiveSubjectID().Exec(ctx)
	}
	_, err = s.applyAny(ctx, at, in)
	return err
}

func (s *Service) workEvent(ctx context.Context, job *river.Job[EventArgs]) error {
	id, err := uuid.Parse(job.Args.EventID)
	if err != nil {
		return river.JobCancel(err)
	}
	return s.ProcessEvent(ctx, id)
}

// ProcessEvent handles one recorded inbound event. Handlers are monotonic
// (applyIntent never moves a settled attempt back; activation happens once),
// so redeliveries and disorder change nothing twice.
func (s *Service) ProcessEvent(ctx context.Context, id uuid.UUID) error {
	// System call site: the job reads the global event row it was given.
	sctx := system.Allow(ctx, "payments.event_job")
	ev, err := s.client.ProcessorEvent.Get(sctx, id)
	if err != nil {
		return fmt.Errorf("payments: event: %w", err)
	}
	if ev.ProcessedAt != nil {
		return nil
	}
	outcome, err := s.handle(ctx, ev)
	if err != nil {
		return err
	}
	return s.client.ProcessorEvent.UpdateOneID(ev.ID).SetProcessedAt(s.now()).SetOutcome(outcome).Exec(sctx)
}

func (s *Service) handle(ctx context.Context, ev *ent.ProcessorEvent) (string, error) {
	verified, err := stripeport.ParseEvent(ev.Payload)
	if err != nil {
		return "malformed", nil
	}
	if h := eventHandlerOf(ev.Type); h != nil { // registered by other money packages (extend.go); they may take over a type handled below
		return h(ctx, s, verified)
	}
	switch {
	case strings.HasPrefix(ev.Type, "payment_intent."):
		in, err := stripeport.IntentFromObject(verified.Object)
		if err != nil {
			return "malformed", nil
		}
		return s.onIntent(ctx, ev.Type, in)
	case ev.Type == "setup_intent.succeeded":
		si, err := stripeport.SetupIntentFromObject(verified.Object)
		if err != nil {
			return "malformed", nil
		}
		return s.onSetup(ctx, si)
	case ev.Type == "account.updated":
		a, err := stripeport.AccountFromObject(verified.Object)
		if err != nil {
			return "malformed", nil
		}
		return s.onAccount(ctx, a)
	}
	return "ignored", nil
}

func (s *Service) onIntent(ctx context.Context, typ string, in *stripeport.Intent) (string, error) {
	org, err := uuid.Parse(in.Metadata["organization_id"])
	if err != nil {
		return "not_ours", nil
	}
	attemptID, err := uuid.Parse(in.Metadata["attempt_id"])
	if err != nil {
		return "not_ours", nil
	}
	vctx := inVenue(ctx, org)
	at, err := s.client.PaymentAttempt.Get(vctx, attemptID)
	if ent.IsNotFound(err) {
		return "not_ours", nil
	} else if err != nil {
		return "", err
	}
	if typ == "payment_intent.payment_failed" && in.FailureCode == "" && in.DeclineCode == "" {
		in.FailureCode = "payment_failed"
	}
	status, err := s.applyAny(vctx, at, in)
	if err != nil {
		return "", err
	}
	return "intent_" + status, nil
}

func (s *Service) onAccount(ctx context.Context, a *stripeport.Account) (string, error) {
	// System call site: account.updated names only the connected account;
	// the venue that holds it is found by the account id.
	vp, err := s.client.VenuePayments.Query().Where(venuepayments.AccountID(a.ID)).
		Only(system.Allow(ctx, "payments.event_lookup"))
	if ent.IsNotFound(err) {
		return "not_ours", nil
	}
	if err != nil {
		return "", err
	}
	err = s.client.VenuePayments.UpdateOne(vp).SetChargesEnabled(a.ChargesEnabled).
		SetDetailsSubmitted(a.DetailsSubmitted).Exec(inVenue(ctx, vp.OrganizationID))
	return fmt.Sprintf("account_charges_enabled_%t", a.ChargesEnabled), err
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

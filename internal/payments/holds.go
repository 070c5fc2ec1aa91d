package payments

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/riverqueue/river"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Holds that lapse: a subject (a guest place, a reserved membership) whose
// hold expired before it was paid gives up the payment the member started
// and left. The cancel is a Stripe write like any other: the attempt that
// made the intent was recorded before it, and the cancel is its step
// "cancel" (Stripe key v1:{purpose}:{attempt_id}:cancel), made by a River
// job queued in the transaction that ended the hold. The job only acts on an
// attempt still waiting on the member (requires_action, which includes
// requires_payment_method); a cancelled intent moves the attempt to canceled
// (terminal, out of the live slot), so a second run finds nothing to do. An
// intent that succeeded meanwhile is read and applied instead: money that
// moved is never left unrecorded.

// InVenue is the context of work in one venue by a job or a sweep that
// holds only ids, as the venue's payments operator.
func InVenue(ctx context.Context, org uuid.UUID) context.Context { return inVenue(ctx, org) }

// CancelIntentArgs is the job that cancels the intent of one attempt whose
// hold lapsed.
type CancelIntentArgs struct {
	AttemptID      string `json:"attempt_id"`
	OrganizationID string `json:"organization_id"`
}

// Kind implements river.JobArgs.
func (CancelIntentArgs) Kind() string { return "payments.cancel_intent" }

// InsertOpts makes the job unique per attempt while one is waiting.
func (CancelIntentArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// CancelSubjectIntents queues, in the caller's transaction (events.WithTx;
// c its tx.Client()), the cancel of every intent of the subject's live
// attempts that waits on the member. It calls no one.
func CancelSubjectIntents(ctx context.Context, c *ent.Client, subjectID uuid.UUID) error {
	ats, err := c.PaymentAttempt.Query().
		Where(paymentattempt.LiveSubjectID(subjectID), paymentattempt.StateEQ(paymentattempt.StateRequiresAction),
			paymentattempt.ProcessorObjectIDNotNil()).All(ctx)
	if err != nil {
		return fmt.Errorf("payments: intents to cancel: %w", err)
	}
	if len(ats) == 0 {
		return nil
	}
	args := make([]river.InsertManyParams, 0, len(ats))
	for _, at := range ats {
		args = append(args, river.InsertManyParams{Args: CancelIntentArgs{AttemptID: at.ID.String(), OrganizationID: at.OrganizationID.String()}})
	}
	return events.EnqueueJobs(ctx, args...)
}

func (s *Service) workCancelIntent(ctx context.Context, job *river.Job[CancelIntentArgs]) error {
	org, err := uuid.Parse(job.Args.OrganizationID)
	if err != nil {
		return river.JobCancel(err)
	}
	id, err := uuid.Parse(job.Args.AttemptID)
	if err != nil {
		return river.JobCancel(err)
	}
	return s.CancelIntent(inVenue(ctx, org), id)
}

// CancelIntent cancels at Stripe the intent of an attempt of the viewer's
// venue that still waits on the member, and records the answer. Anything
// else (settled, already cancelled, no intent) changes nothing.
func (s *Service) CancelIntent(ctx context.Context, attemptID uuid.UUID) error {
	at, err := s.client.PaymentAttempt.Get(ctx, attemptID)
	if err != nil {
		return fmt.Errorf("payments: cancel: %w", err)
	}
	if at.State != paymentattempt.StateRequiresAction || at.ProcessorObjectID == nil {
		return nil
	}
	if s.port == nil {
		return errors.New("payments: cancel: card payments are off")
	}
	vp, err := s.venuePayments(ctx)
	if err != nil || vp == nil || vp.AccountID == nil {
		return fmt.Errorf("payments: cancel: venue account: %v", err)
	}
	in, err := s.port.CancelPaymentIntent(ctx, *vp.AccountID, IdempotencyKey(string(at.Purpose), at.ID.String(), "cancel"), *at.ProcessorObjectID)
	if errors.Is(err, stripeport.ErrRefused) {
		// Not cancellable: it moved on (succeeded, processing) meanwhile.
		in, err = s.port.GetPaymentIntent(ctx, *vp.AccountID, *at.ProcessorObjectID)
	}
	if err != nil {
		return fmt.Errorf("payments: cancel %s: %w", at.ID, err) // River retries with backoff
	}
	_, err = s.applyAny(ctx, at, in)
	return err
}

// LiveCharge is the payment a subject's member started and has not
// finished (an intent waiting for a card or 3-D Secure), read from Stripe,
// so a second checkout of the same subject answers the same intent instead
// of PAYMENT_PENDING. ok is false when there is none (or it has moved on;
// what Stripe said is then applied).
func (s *Service) LiveCharge(ctx context.Context, subjectID uuid.UUID) (*ChargeResult, bool, error) {
	if s.port == nil {
		return nil, false, nil
	}
	at, err := s.client.PaymentAttempt.Query().
		Where(paymentattempt.LiveSubjectID(subjectID), paymentattempt.StateEQ(paymentattempt.StateRequiresAction),
			paymentattempt.ProcessorObjectIDNotNil()).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("payments: live charge: %w", err)
	}
	vp, err := s.chargeable(ctx)
	if err != nil {
		return nil, false, err
	}
	in, err := s.port.GetPaymentIntent(ctx, *vp.AccountID, *at.ProcessorObjectID)
	if err != nil {
		return nil, false, unknownOutcome()
	}
	status, err := s.applyAny(ctx, at, in)
	if err != nil {
		return nil, false, err
	}
	switch status {
	case StatusRequiresAction, StatusRequiresPaymentMethod, "requires_confirmation":
		return &ChargeResult{Status: status, IntentID: in.ID, ClientSecret: in.ClientSecret, AccountID: *vp.AccountID}, true, nil
	}
	return nil, false, nil
}

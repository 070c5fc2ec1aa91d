package refunds

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/refund"
	"github.com/venueplatform/venue/ent/refundreview"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/viewer"
)

// ReviewTTL is how long a refund review may be acted on.
const ReviewTTL = 10 * time.Minute

// Destinations of a refund.
const (
	DestinationCard     = "original_payment_method"
	DestinationExternal = "external"
)

// Receipt channels of a refund.
const (
	ChannelEmail = "email"
	ChannelSMS   = "sms"
	ChannelPush  = "push"
)

// Service is the refunds domain over one ent client and the payments port.
type Service struct {
	client *ent.Client
	port   stripeport.Port
	log    *slog.Logger
	now    func() time.Time
}

// New returns a Service; port nil means card payments are off (only
// external refunds).
func New(client *ent.Client, port stripeport.Port, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{client: client, port: port, log: log, now: time.Now}
}

// staff is the caller's standing for refunds: full refunds, or same-day
// ones only.
type staff struct {
	userID *uuid.UUID
	full   bool
}

// authorize admits staff holding billing.refunds.full or
// billing.refunds.same_day (owners hold both) and the venue's operator. API
// keys are refused: refunds are for staff sessions only.
func authorize(ctx context.Context) (staff, error) {
	switch v := viewer.FromContext(ctx).(type) {
	case viewer.User:
		if v.Org == uuid.Nil {
			return staff{}, apperr.AccessDenied("no_organization", "choose an active organization first")
		}
		id := v.UserID
		if v.HasPermission(PermFull) {
			return staff{userID: &id, full: true}, nil
		}
		if v.HasPermission(PermSameDay) {
			return staff{userID: &id}, nil
		}
		return staff{}, apperr.AccessDenied("missing_permission", "a required staff permission is missing").
			With("required_permissions", []string{PermSameDay, PermFull})
	case viewer.Operator:
		return staff{full: true}, nil
	case viewer.APIKey:
		return staff{}, apperr.JWTOnly()
	default:
		return staff{}, apperr.Unauthorized("staff credentials are required")
	}
}

// Authorize is the refunds permission check for reads of refunds (either
// refund permission).
func Authorize(ctx context.Context) error {
	_, err := authorize(ctx)
	return err
}

// toMinor converts a major-unit amount to minor units of currency: more
// than zero and a whole number of minor units, else 400 VALIDATION_ERROR.
func toMinor(amount float64, currency string) (int64, error) {
	scaled := amount * math.Pow10(money.Exponent(currency))
	minor := int64(math.Round(scaled))
	if amount <= 0 || math.IsNaN(amount) || math.IsInf(amount, 0) || math.Abs(scaled-float64(minor)) > 1e-6 || minor <= 0 {
		return 0, apperr.Validation("amount", "amount must be more than 0, in whole minor units of "+currency)
	}
	return minor, nil
}

// refundedSoFar is what the payment's pending and succeeded refunds hold.
func refundedSoFar(ctx context.Context, c *ent.Client, paymentID uuid.UUID) (int64, error) {
	rs, err := c.Refund.Query().Where(refund.PaymentID(paymentID),
		refund.StatusIn(refund.StatusPending, refund.StatusSucceeded)).All(ctx)
	if err != nil {
		return 0, err
	}
	var sum int64
	for _, r := range rs {
		sum += r.AmountMinor
	}
	return sum, nil
}

// refundable payment states.
var refundableStates = []payment.Status{payment.StatusSucceeded, payment.StatusPartiallyRefunded}

func isRefundable(p *ent.Payment) bool {
	return p.PaidAt != nil && (p.Status == payment.StatusSucceeded || p.Status == payment.StatusPartiallyRefunded)
}

// sameDay reports whether t falls on today's venue-local date.
func (s *Service) sameDay(ctx context.Context, c *ent.Client, t time.Time) (bool, error) {
	org, err := c.Organization.Query().Select(organization.FieldTimezone).Only(ctx)
	if err != nil {
		return false, fmt.Errorf("refunds: venue: %w", err)
	}
	loc, err := time.LoadLocation(org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	a, b := t.In(loc), s.now().In(loc)
	return a.Year() == b.Year() && a.YearDay() == b.YearDay(), nil
}

func (s *Service) checkSameDay(ctx context.Context, c *ent.Client, st staff, p *ent.Payment) error {
	if st.full {
		return nil
	}
	ok, err := s.sameDay(ctx, c, *p.PaidAt)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.AccessDenied("missing_permission", "refunding a payment of an earlier day needs billing.refunds.full").
			With("required_permissions", []string{PermFull})
	}
	return nil
}

// Review is a made refund review.
type Review struct {
	Review          *ent.RefundReview
	RefundedMinor   int64
	PaymentMinor    int64
	SameDay         bool
	CardRefundable  bool
	CardUnavailable string
}

// CreateReview reviews a refund of amount (major units) on payment id of
// the viewer's venue: the payment must be paid, the amount at most what it
// has left to refund. Nothing is refunded.
func (s *Service) CreateReview(ctx context.Context, paymentID uuid.UUID, amount float64) (*Review, error) {
	st, err := authorize(ctx)
	if err != nil {
		return nil, err
	}
	p, err := s.client.Payment.Get(ctx, paymentID)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("payment")
	}
	if err != nil {
		return nil, fmt.Errorf("refunds: payment: %w", err)
	}
	minor, err := toMinor(amount, p.Currency)
	if err != nil {
		return nil, err
	}
	if !isRefundable(p) {
		return nil, notRefundable(string(p.Status))
	}
	if err := s.checkSameDay(ctx, s.client, st, p); err != nil {
		return nil, err
	}
	sofar, err := refundedSoFar(ctx, s.client, p.ID)
	if err != nil {
		return nil, fmt.Errorf("refunds: refunded: %w", err)
	}
	rest := p.AmountMinor - sofar
	if minor > rest {
		return nil, exceeds(rest)
	}
	rv, err := s.client.RefundReview.Create().SetPaymentID(p.ID).SetAmountMinor(minor).SetCurrency(p.Currency).
		SetRefundableMinor(rest).SetConfirmationPhrase(Phrase(minor, p.Currency)).
		SetNillableCreatedByUserID(st.userID).SetExpiresAt(s.now().Add(ReviewTTL)).Save(ctx)
	if err != nil {
		return nil, fmt.Errorf("refunds: review: %w", err)
	}
	same, err := s.sameDay(ctx, s.client, *p.PaidAt)
	if err != nil {
		return nil, err
	}
	out := &Review{Review: rv, RefundedMinor: sofar, PaymentMinor: p.AmountMinor, SameDay: same}
	out.CardRefundable, out.CardUnavailable = s.cardRefundable(ctx, s.client, p)
	return out, nil
}

// Phrase is the confirmation phrase of a refund of minor in currency.
func Phrase(minor int64, currency string) string { return "REFUND " + money.Format(minor, currency) }

// cardRefundable says whether p can be refunded to the card that paid it,
// and why not.
func (s *Service) cardRefundable(ctx context.Context, c *ent.Client, p *ent.Payment) (bool, string) {
	if p.ProcessorPaymentID == nil || !strings.HasPrefix(*p.ProcessorPaymentID, "pi_") {
		return false, "not_a_card_payment"
	}
	if s.port == nil {
		return false, "payments_disabled"
	}
	vp, err := c.VenuePayments.Query().Only(ctx)
	if err != nil || vp.AccountID == nil {
		return false, "connect_not_active"
	}
	return true, ""
}

// Params are a refund to make.
type Params struct {
	ReviewID             uuid.UUID
	Confirmation         string
	Amount               float64 // major units
	Reason               string
	ClientReceiptComment string
	Destination          string // original_payment_method (default) or external
	MethodReference      string
	NotifyClient         bool
	ReceiptChannels      []string
	// RequestKey is a digest of the request's Idempotency-Key: the same key
	// finds the refund it made.
	RequestKey string
}

// Refund makes a reviewed refund of payment id. The payment's row lock
// serialises its refunds: what its pending and succeeded refunds hold plus
// this one never exceeds the payment. A card refund is an attempt row
// before the Stripe call, with the Stripe key v1:refund:{attempt}:create;
// an unanswered call is 409 UNKNOWN_WRITE_OUTCOME, the refund stays pending
// (its amount held) and the reconcile job settles it by reading Stripe.
func (s *Service) Refund(ctx context.Context, paymentID uuid.UUID, p Params) (*ent.Refund, error) {
	st, err := authorize(ctx)
	if err != nil {
		return nil, err
	}
	if p.Destination == "" {
		p.Destination = DestinationCard
	}
	if p.Destination == DestinationExternal && strings.TrimSpace(p.MethodReference) == "" {
		return nil, apperr.Validation("method_reference", "an external refund names how the money was given back")
	}
	channels := p.ReceiptChannels
	if p.NotifyClient && len(channels) == 0 {
		channels = []string{ChannelEmail}
	}
	if p.NotifyClient {
		for _, ch := range channels {
			switch ch {
			case ChannelSMS:
				return nil, channelUnavailable(CodeSMSUnavailable, ch)
			case ChannelPush:
				return nil, channelUnavailable(CodePushUnavailable, ch)
			}
		}
	} else {
		channels = nil
	}
	if p.RequestKey != "" {
		prev, err := s.client.Refund.Query().Where(refund.RequestKey(p.RequestKey)).Only(ctx)
		if err == nil {
			return s.resume(ctx, prev)
		}
		if !ent.IsNotFound(err) {
			return nil, fmt.Errorf("refunds: replay: %w", err)
		}
	}
	var (
		rf      *ent.Refund
		attempt *ent.PaymentAttempt
		account string
		intent  string
	)
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		pay, err := tx.Payment.Query().Where(payment.ID(paymentID)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("payment")
		}
		if err != nil {
			return err
		}
		minor, err := toMinor(p.Amount, pay.Currency)
		if err != nil {
			return err
		}
		if !isRefundable(pay) {
			return notRefundable(string(pay.Status))
		}
		if err := s.checkSameDay(ctx, tx.Client(), st, pay); err != nil {
			return err
		}
		if p.Destination == DestinationCard {
			ok, why := s.cardRefundable(ctx, tx.Client(), pay)
			if !ok && why == "not_a_card_payment" {
				return destinationUnavailable(why)
			}
			if !ok {
				return cardPaymentsUnavailable(why)
			}
			vp, err := tx.VenuePayments.Query().Only(ctx)
			if err != nil {
				return err
			}
			account, intent = *vp.AccountID, *pay.ProcessorPaymentID
		}
		sofar, err := refundedSoFar(ctx, tx.Client(), pay.ID)
		if err != nil {
			return err
		}
		rest := pay.AmountMinor - sofar
		if minor > rest {
			return exceeds(rest)
		}
		rv, err := tx.RefundReview.Query().Where(refundreview.ID(p.ReviewID)).ForUpdate().Only(ctx)
		switch {
		case ent.IsNotFound(err):
			return reviewRequired("review_not_found")
		case err != nil:
			return err
		case rv.PaymentID != pay.ID || rv.AmountMinor != minor:
			return reviewRequired("review_mismatch")
		case rv.UsedAt != nil:
			return reviewRequired("review_used")
		case !s.now().Before(rv.ExpiresAt):
			return reviewRequired("review_expired")
		case rv.RefundableMinor != rest:
			return reviewRequired("refundable_changed")
		case p.Confirmation != rv.ConfirmationPhrase:
			return reviewRequired("confirmation_mismatch")
		}
		if _, err := tx.RefundReview.UpdateOne(rv).SetUsedAt(s.now()).Save(ctx); err != nil {
			return err
		}
		c := tx.Refund.Create().SetPaymentID(pay.ID).SetNillableMemberID(pay.MemberID).SetReviewID(rv.ID).
			SetAmountMinor(minor).SetCurrency(pay.Currency).SetDestination(refund.Destination(p.Destination)).
			SetReason(p.Reason).SetClientReceiptComment(p.ClientReceiptComment).SetMethodReference(p.MethodReference).
			SetNotifyClient(p.NotifyClient).SetReceiptChannels(channels).SetNillableCreatedByUserID(st.userID)
		if p.RequestKey != "" {
			c.SetRequestKey(p.RequestKey)
		}
		if rf, err = c.Save(ctx); err != nil {
			return err
		}
		if _, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: "payment.refunded", Target: pay.ID.String(),
			Details: map[string]any{"refund_id": rf.ID.String(), "amount_minor": minor, "currency": pay.Currency,
				"destination": p.Destination, "reason": p.Reason}}); err != nil {
			return err
		}
		if p.Destination == DestinationExternal {
			rf, err = settle(ctx, tx, rf, pay, "", s.now())
			return err
		}
		attempt, err = tx.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeRefund).SetSubjectID(rf.ID).
			SetNumber(1).SetState(paymentattempt.StateInFlight).SetLiveSubjectID(rf.ID).Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	if attempt == nil {
		return rf, nil
	}
	return s.send(ctx, rf, attempt, account, intent)
}

// resume answers a repeated request: the refund it made, its Stripe call
// resent with the same key while its attempt is still this request's own
// (created or in flight), or UNKNOWN_WRITE_OUTCOME while reconcile settles
// it.
func (s *Service) resume(ctx context.Context, rf *ent.Refund) (*ent.Refund, error) {
	if rf.Status != refund.StatusPending || rf.Destination != refund.DestinationOriginalPaymentMethod {
		return rf, nil
	}
	at, err := s.client.PaymentAttempt.Query().Where(paymentattempt.SubjectID(rf.ID)).
		Order(ent.Desc(paymentattempt.FieldNumber)).First(ctx)
	if err != nil {
		return nil, fmt.Errorf("refunds: attempt: %w", err)
	}
	switch at.State {
	case paymentattempt.StateCreated, paymentattempt.StateInFlight:
	case paymentattempt.StateUnknown:
		return nil, unknownOutcome()
	default:
		return rf, nil
	}
	pay, err := s.client.Payment.Get(ctx, rf.PaymentID)
	if err != nil {
		return nil, err
	}
	vp, err := s.client.VenuePayments.Query().Only(ctx)
	if err != nil || vp.AccountID == nil || pay.ProcessorPaymentID == nil || s.port == nil {
		return nil, unknownOutcome()
	}
	return s.send(ctx, rf, at, *vp.AccountID, *pay.ProcessorPaymentID)
}

// send makes the Stripe refund of attempt and applies the answer.
func (s *Service) send(ctx context.Context, rf *ent.Refund, at *ent.PaymentAttempt, account, intent string) (*ent.Refund, error) {
	out, err := s.port.CreateRefund(ctx, stripeport.RefundParams{
		Account: account, IdempotencyKey: payments.IdempotencyKey(string(paymentattempt.PurposeRefund), at.ID.String(), "create"),
		PaymentIntent: intent, AmountMinor: rf.AmountMinor,
		Metadata: map[string]string{"attempt_id": at.ID.String(), "refund_id": rf.ID.String(),
			"payment_id": rf.PaymentID.String(), "organization_id": rf.OrganizationID.String()},
	})
	switch {
	case errors.Is(err, stripeport.ErrUnknownOutcome):
		if uerr := s.markUnknown(ctx, at); uerr != nil {
			return nil, uerr
		}
		return nil, unknownOutcome()
	case err != nil:
		s.log.ErrorContext(ctx, "refund refused", "attempt_id", at.ID, "error", err)
		if _, aerr := s.apply(ctx, at.ID, &stripeport.Refund{Status: "failed", FailureReason: "processor_refused"}); aerr != nil {
			return nil, aerr
		}
		return nil, refundFailed("processor_refused")
	}
	return s.apply(ctx, at.ID, out)
}

func (s *Service) markUnknown(ctx context.Context, at *ent.PaymentAttempt) error {
	return events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		n, err := tx.PaymentAttempt.Update().Where(paymentattempt.ID(at.ID),
			paymentattempt.StateIn(paymentattempt.StateCreated, paymentattempt.StateInFlight)).
			SetState(paymentattempt.StateUnknown).Save(ctx)
		if err != nil || n == 0 {
			return err
		}
		return payments.EnqueueReconcile(ctx, at)
	})
}

// attemptState maps a Stripe refund status to its attempt's state.
func attemptState(status string) paymentattempt.State {
	switch status {
	case "succeeded":
		return paymentattempt.StateSucceeded
	case "failed", "canceled":
		return paymentattempt.StateFailed
	case "requires_action":
		return paymentattempt.StateRequiresAction
	default: // pending
		return paymentattempt.StateProcessing
	}
}

func terminal(st paymentattempt.State) bool {
	return st == paymentattempt.StateSucceeded || st == paymentattempt.StateFailed || st == paymentattempt.StateCanceled
}

// apply records what Stripe says of an attempt's refund, monotonically: a
// settled refund never changes again; success settles it once (the
// payment's status from its succeeded refunds, refund.succeeded, the
// receipt); failure frees its amount (refund.failed). Lock order: the
// payment, then the refund.
func (s *Service) apply(ctx context.Context, attemptID uuid.UUID, r *stripeport.Refund) (*ent.Refund, error) {
	var out *ent.Refund
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		at, err := tx.PaymentAttempt.Get(ctx, attemptID)
		if err != nil {
			return err
		}
		rf, err := tx.Refund.Get(ctx, at.SubjectID)
		if err != nil {
			return err
		}
		pay, err := tx.Payment.Query().Where(payment.ID(rf.PaymentID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		if rf, err = tx.Refund.Query().Where(refund.ID(rf.ID)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		if at, err = tx.PaymentAttempt.Get(ctx, attemptID); err != nil {
			return err
		}
		out = rf
		next := attemptState(r.Status)
		if at.State != next && !terminal(at.State) {
			upd := tx.PaymentAttempt.UpdateOne(at).SetState(next)
			if r.ID != "" {
				upd.SetProcessorObjectID(r.ID)
			}
			if terminal(next) {
				upd.ClearLiveSubjectID()
			}
			if r.FailureReason != "" {
				upd.SetFailureCode(r.FailureReason)
			}
			if _, err := upd.Save(ctx); err != nil {
				return err
			}
		}
		if rf.ProcessorRefundID == nil && r.ID != "" {
			if rf, err = tx.Refund.UpdateOne(rf).SetProcessorRefundID(r.ID).Save(ctx); err != nil {
				return err
			}
			out = rf
		}
		if rf.Status != refund.StatusPending {
			return nil
		}
		switch next {
		case paymentattempt.StateSucceeded:
			out, err = settle(ctx, tx, rf, pay, r.ID, s.now())
			return err
		case paymentattempt.StateFailed:
			code := r.FailureReason
			if code == "" {
				code = "failed"
			}
			if out, err = tx.Refund.UpdateOne(rf).SetStatus(refund.StatusFailed).SetFailureCode(code).Save(ctx); err != nil {
				return err
			}
			_, err = events.Record(ctx, tx.Client(), events.RefundFailed, eventData(out, pay))
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func eventData(rf *ent.Refund, pay *ent.Payment) map[string]any {
	d := map[string]any{"refund_id": rf.ID.String(), "payment_id": pay.ID.String(), "amount_minor": rf.AmountMinor,
		"currency": rf.Currency, "status": string(rf.Status), "destination": string(rf.Destination), "origin": string(rf.Origin)}
	if rf.MemberID != nil {
		d["member_id"] = rf.MemberID.String()
	}
	if rf.FailureCode != nil {
		d["failure_code"] = *rf.FailureCode
	}
	return d
}

// settle marks a pending refund succeeded under the payment's lock: the
// payment's status follows its succeeded refunds, refund.succeeded is
// recorded, and the member's receipt queued when the refund asked for it.
func settle(ctx context.Context, tx *ent.Tx, rf *ent.Refund, pay *ent.Payment, processorID string, now time.Time) (*ent.Refund, error) {
	upd := tx.Refund.UpdateOne(rf).SetStatus(refund.StatusSucceeded).SetRefundedAt(now)
	if processorID != "" && rf.ProcessorRefundID == nil {
		upd.SetProcessorRefundID(processorID)
	}
	rf, err := upd.Save(ctx)
	if err != nil {
		return nil, err
	}
	if err := syncPaymentStatus(ctx, tx, pay); err != nil {
		return nil, err
	}
	if _, err := events.Record(ctx, tx.Client(), events.RefundSucceeded, eventData(rf, pay)); err != nil {
		return nil, err
	}
	if rf.NotifyClient {
		if err := queueReceipt(ctx, tx, rf); err != nil {
			return nil, err
		}
	}
	return rf, nil
}

// syncPaymentStatus sets the payment's status from its succeeded refunds:
// refunded when they cover it, partially refunded when some do.
func syncPaymentStatus(ctx context.Context, tx *ent.Tx, pay *ent.Payment) error {
	rs, err := tx.Refund.Query().Where(refund.PaymentID(pay.ID), refund.StatusEQ(refund.StatusSucceeded)).All(ctx)
	if err != nil {
		return err
	}
	var sum int64
	for _, r := range rs {
		sum += r.AmountMinor
	}
	st := pay.Status
	switch {
	case sum >= pay.AmountMinor:
		st = payment.StatusRefunded
	case sum > 0:
		st = payment.StatusPartiallyRefunded
	}
	if st == pay.Status {
		return nil
	}
	return tx.Payment.UpdateOne(pay).SetStatus(st).Exec(ctx)
}

// Refundability is what a payment of the viewer's venue has left to refund
// to the card that paid it.
type Refundability struct {
	// RestMinor is the payment's amount less its pending and succeeded
	// refunds.
	RestMinor int64
	Currency  string
	// Unavailable says why the payment cannot go back to the card now
	// (not_refundable, not_a_card_payment, payments_disabled,
	// connect_not_active); empty when it can.
	Unavailable string
}

// Refundable reads whether payment id can be refunded to its card now and
// how much it has left, with the caller's viewer (no permission check:
// callers that refund act through Refund, which checks).
func (s *Service) Refundable(ctx context.Context, paymentID uuid.UUID) (Refundability, error) {
	p, err := s.client.Payment.Get(ctx, paymentID)
	if ent.IsNotFound(err) {
		return Refundability{}, apperr.NotFound("payment")
	}
	if err != nil {
		return Refundability{}, fmt.Errorf("refunds: payment: %w", err)
	}
	sofar, err := refundedSoFar(ctx, s.client, p.ID)
	if err != nil {
		return Refundability{}, fmt.Errorf("refunds: refunded: %w", err)
	}
	out := Refundability{RestMinor: p.AmountMinor - sofar, Currency: p.Currency}
	if !isRefundable(p) {
		out.Unavailable = "not_refundable"
		return out, nil
	}
	if ok, why := s.cardRefundable(ctx, s.client, p); !ok {
		out.Unavailable = why
	}
	return out, nil
}

// MayRefund checks that the caller may refund payment id of the viewer's
// venue now (billing.refunds.full, or billing.refunds.same_day for a
// payment of today), as Refund would, without refunding: a caller that
// changes something else first and refunds after asks before.
func (s *Service) MayRefund(ctx context.Context, paymentID uuid.UUID) error {
	st, err := authorize(ctx)
	if err != nil {
		return err
	}
	p, err := s.client.Payment.Get(ctx, paymentID)
	if ent.IsNotFound(err) {
		return apperr.NotFound("payment")
	}
	if err != nil {
		return fmt.Errorf("refunds: payment: %w", err)
	}
	if !isRefundable(p) {
		return notRefundable(string(p.Status))
	}
	return s.checkSameDay(ctx, s.client, st, p)
}

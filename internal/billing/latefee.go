package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/latefee"
	"github.com/venueplatform/venue/ent/latefeepolicy"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/system"
)

// Late fees on renewals. A venue sets a late fee per currency (amount and
// grace days, late_fee_policies). A renewal invoice still unpaid grace days
// after its due date (venue-local days) gets one late_fees row, once, by the
// sweep (ApplyLateFees), and the member is told (tellLateFee). The fee is not a line of the processor's invoice
// (an open invoice cannot take new lines): it is charged to the same card
// right after the renewal is paid by the invoice retry (the member's pay
// link, the staff's recovery charge), as a payment attempt of purpose
// late_fee_charge whose subject is the fee row; a renewal Stripe's own retry
// pays has its fee charged the same way by the invoice event
// (latefee_auto.go). Staff may waive a pending
// fee (membership.late_fee_waived).

// Error codes and audit actions of late fees.
const (
	CodeNoPendingLateFee = "NO_PENDING_LATE_FEE"
	AuditLateFeeWaived   = "membership.late_fee_waived"
	AuditLateFeeApplied  = "membership.late_fee_applied"
	AuditLateFeePolicy   = "billing.late_fee_policy_changed"
	// LateFeePurpose is the payment attempt purpose of late fee charges.
	LateFeePurpose = paymentattempt.PurposeLateFeeCharge
)

// Late fee outcomes of a paid renewal (RetryResult.LateFee).
const (
	LateFeeNone    = "none"
	LateFeePaid    = "paid"
	LateFeePending = "pending"
)

func init() { payments.RegisterSubject(LateFeePurpose, lateFeeSubject{}) }

func noPendingLateFee() *apperr.Error {
	return refusal(http.StatusUnprocessableEntity, CodeNoPendingLateFee, "the membership has no pending late fee", nil)
}

// LateFeePolicies returns the viewer's venue's late fee policies by currency.
func (s *Service) LateFeePolicies(ctx context.Context) ([]*ent.LateFeePolicy, error) {
	return s.client.LateFeePolicy.Query().Order(ent.Asc(latefeepolicy.FieldCurrency)).All(ctx)
}

// SetLateFeePolicy sets the venue's late fee in currency (an ISO 4217 code):
// amountMinor above zero, graceDays 0 to 90. It applies to renewals that
// become late from now on; fees applied before keep their amounts.
func (s *Service) SetLateFeePolicy(ctx context.Context, currency string, amountMinor int64, graceDays int) (*ent.LateFeePolicy, error) {
	currency = strings.ToUpper(currency)
	if amountMinor <= 0 || graceDays < 0 || graceDays > 90 {
		return nil, apperr.Validation("amount_minor", "amount_minor must be above zero and grace_days 0 to 90")
	}
	var out *ent.LateFeePolicy
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.LateFeePolicy.Query().Where(latefeepolicy.Currency(currency)).ForUpdate().Only(ctx)
		switch {
		case ent.IsNotFound(err):
			out, err = tx.LateFeePolicy.Create().SetCurrency(currency).SetAmountMinor(amountMinor).SetGraceDays(graceDays).Save(ctx)
		case err == nil:
			out, err = tx.LateFeePolicy.UpdateOne(cur).SetAmountMinor(amountMinor).SetGraceDays(graceDays).Save(ctx)
		}
		if err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditLateFeePolicy, Target: "late_fee_policy:" + currency,
			Details: map[string]any{"currency": currency, "amount_minor": amountMinor, "grace_days": graceDays}})
		return err
	})
	if ent.IsConstraintError(err) {
		return nil, paymentPending() // a concurrent first write of the same currency
	}
	return out, err
}

// DeleteLateFeePolicy removes the venue's late fee in currency (404 when
// there is none); fees applied before stay.
func (s *Service) DeleteLateFeePolicy(ctx context.Context, currency string) error {
	currency = strings.ToUpper(currency)
	return events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		n, err := tx.LateFeePolicy.Delete().Where(latefeepolicy.Currency(currency)).Exec(ctx)
		if err != nil {
			return err
		}
		if n == 0 {
			return apperr.NotFound("late fee policy")
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditLateFeePolicy, Target: "late_fee_policy:" + currency,
			Details: map[string]any{"currency": currency, "removed": true}})
		return err
	})
}

// ApplyLateFees gives every renewal invoice of every venue that is unpaid
// past its venue's grace days its late fee, once, as of now; it returns how
// many fees it applied.
func (s *Service) ApplyLateFees(ctx context.Context, now time.Time) (int, error) {
	// System call site: the sweep runs for every venue and holds no viewer;
	// it reads the venues' policies, then acts in each venue.
	pols, err := s.client.LateFeePolicy.Query().All(system.Allow(ctx, "billing.late_fee_sweep"))
	if err != nil {
		return 0, fmt.Errorf("billing: late fee policies: %w", err)
	}
	n := 0
	for _, pol := range pols {
		k, err := s.applyPolicy(inVenue(ctx, pol.OrganizationID), pol, now)
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// applyPolicy applies one venue's policy (ctx acts in the venue).
func (s *Service) applyPolicy(ctx context.Context, pol *ent.LateFeePolicy, now time.Time) (int, error) {
	org, err := s.client.Organization.Query().Where(organization.ID(pol.OrganizationID)).Only(ctx)
	if err != nil {
		return 0, err
	}
	loc, err := time.LoadLocation(org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	y, m, d := now.In(loc).Date()
	// Late: the due date plus the grace days is before today.
	cutoff := time.Date(y, m, d, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -pol.GraceDays)
	invs, err := s.client.Invoice.Query().Where(invoice.StatusIn(unpaid...), invoice.SubscriptionIDNotNil(),
		invoice.CurrencyEqualFold(pol.Currency), invoice.DueDateLT(cutoff)).
		Order(ent.Asc(invoice.FieldDueDate), ent.Asc(invoice.FieldID)).Limit(1000).All(ctx)
	if err != nil || len(invs) == 0 {
		return 0, err
	}
	ids := make([]uuid.UUID, len(invs))
	for i, in := range invs {
		ids[i] = in.ID
	}
	have, err := s.client.LateFee.Query().Where(latefee.InvoiceIDIn(ids...)).Select(latefee.FieldInvoiceID).Strings(ctx)
	if err != nil {
		return 0, err
	}
	done := map[string]bool{}
	for _, id := range have {
		done[id] = true
	}
	n := 0
	for _, in := range invs {
		if done[in.ID.String()] {
			continue
		}
		ok, err := s.applyLateFee(ctx, pol, in.ID, now)
		if err != nil {
			return n, err
		}
		if ok {
			n++
		}
	}
	return n, nil
}

// applyLateFee adds the late fee to one invoice under its subscription's
// lock, if it is still unpaid and has none.
func (s *Service) applyLateFee(ctx context.Context, pol *ent.LateFeePolicy, invoiceID uuid.UUID, now time.Time) (bool, error) {
	applied := false
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		in, err := tx.Invoice.Get(ctx, invoiceID)
		if err != nil {
			return err
		}
		if _, err := tx.Subscription.Query().Where(subscription.ID(*in.SubscriptionID)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		if in, err = tx.Invoice.Get(ctx, invoiceID); err != nil || !isUnpaid(in.Status) {
			return err
		}
		if ok, err := tx.LateFee.Query().Where(latefee.InvoiceID(in.ID)).Exist(ctx); err != nil || ok {
			return err
		}
		fee, err := tx.LateFee.Create().SetInvoiceID(in.ID).SetMemberID(in.MemberID).SetNillablePassID(in.PassID).
			SetAmountMinor(pol.AmountMinor).SetCurrency(in.Currency).SetAppliedAt(now).Save(ctx)
		if err != nil {
			return err
		}
		applied = true
		target := "invoice:" + in.ID.String()
		if in.PassID != nil {
			target = "pass:" + in.PassID.String()
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditLateFeeApplied, Target: target,
			Details: map[string]any{"late_fee_id": fee.ID.String(), "invoice_id": in.ID.String(), "invoice_number": in.Number,
				"member_id": in.MemberID.String(), "amount_minor": fee.AmountMinor, "currency": fee.Currency,
				"grace_days": pol.GraceDays}})
		if err != nil {
			return err
		}
		if err := recordLateFeeEvent(ctx, tx, events.MembershipLateFeeApplied, fee, map[string]any{
			"invoice_number": in.Number, "applied_at": eventTime(fee.AppliedAt)}); err != nil {
			return err
		}
		return tellLateFee(ctx, tx, in, fee) // latefee_notify.go
	})
	return applied, err
}

// PendingLateFee is the oldest pending late fee of a pass (nil when none).
func (s *Service) PendingLateFee(ctx context.Context, passID uuid.UUID) (*ent.LateFee, error) {
	fee, err := s.client.LateFee.Query().Where(latefee.PassID(passID), latefee.StatusEQ(latefee.StatusPending)).
		Order(ent.Asc(latefee.FieldAppliedAt), ent.Asc(latefee.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return fee, err
}

// PendingLateFeesOf returns the pending late fees of invoices by invoice id.
func (s *Service) PendingLateFeesOf(ctx context.Context, invoiceIDs []uuid.UUID) (map[uuid.UUID]*ent.LateFee, error) {
	out := map[uuid.UUID]*ent.LateFee{}
	if len(invoiceIDs) == 0 {
		return out, nil
	}
	rows, err := s.client.LateFee.Query().Where(latefee.InvoiceIDIn(invoiceIDs...), latefee.StatusEQ(latefee.StatusPending)).All(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.InvoiceID] = r
	}
	return out, nil
}

// WaiveLateFee waives the oldest pending late fee of a pass: 422
// NO_PENDING_LATE_FEE when there is none, 409 PAYMENT_PENDING while a charge
// of it is in progress. The audit entry membership.late_fee_waived records
// the fee and the reason; the member is not contacted.
func (s *Service) WaiveLateFee(ctx context.Context, passID uuid.UUID, reason string) (*ent.LateFee, error) {
	if _, _, _, err := s.recoveryTarget(ctx, passID); err != nil {
		return nil, err // 404 for an unknown or another venue's pass
	}
	fee, err := s.PendingLateFee(ctx, passID)
	if err != nil {
		return nil, err
	}
	if fee == nil {
		return nil, noPendingLateFee()
	}
	var out *ent.LateFee
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.LateFee.Query().Where(latefee.ID(fee.ID)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		if cur.Status != latefee.StatusPending {
			return noPendingLateFee()
		}
		if live, err := tx.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(cur.ID)).Exist(ctx); err != nil {
			return err
		} else if live {
			return paymentPending()
		}
		upd := tx.LateFee.UpdateOne(cur).SetStatus(latefee.StatusWaived).SetWaivedAt(s.now())
		if reason != "" {
			upd.SetWaiveReason(reason)
		}
		if out, err = upd.Save(ctx); err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditLateFeeWaived, Target: "pass:" + passID.String(),
			Details: map[string]any{"late_fee_id": cur.ID.String(), "invoice_id": cur.InvoiceID.String(),
				"member_id": cur.MemberID.String(), "amount_minor": cur.AmountMinor, "currency": cur.Currency, "reason": reason}})
		if err != nil {
			return err
		}
		return recordLateFeeEvent(ctx, tx, events.MembershipLateFeeWaived, out, map[string]any{
			"waived_at": eventTime(*out.WaivedAt)})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// chargeLateFee charges the pending late fee of a paid renewal invoice to
// card (the card that paid the renewal), off session. It answers the fee's
// outcome: none (no pending fee), paid, or pending (declined, waiting on the
// member's bank or not known yet: the fee stays pending, the recovery read
// shows it and the next recovery charge takes it).
func (s *Service) chargeLateFee(ctx context.Context, invoiceID uuid.UUID, customer, card string) string {
	fee, err := s.client.LateFee.Query().Where(latefee.InvoiceID(invoiceID), latefee.StatusEQ(latefee.StatusPending)).Only(ctx)
	if err != nil {
		return LateFeeNone
	}
	res, err := s.pay.ChargeSubject(ctx, payments.ChargeParams{Purpose: LateFeePurpose, SubjectID: fee.ID,
		PaymentMethodID: card, CustomerID: customer, OffSession: true})
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) && ae.Code == payments.CodeAlreadyPaid {
			return LateFeePaid
		}
		s.pay.Logger().WarnContext(ctx, "late fee charge not paid", "late_fee_id", fee.ID, "error", err)
		return LateFeePending
	}
	if res.Status == payments.StatusPaid {
		return LateFeePaid
	}
	if res.Status == "requires_action" {
		if at, err := s.client.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(fee.ID)).Only(ctx); err == nil {
			_ = s.pay.CancelIntent(ctx, at.ID) // off session: nobody is there to authenticate
		}
	}
	return LateFeePending
}

// lateFeeCard is the card and customer a pending late fee of a paid
// renewal is charged to: the named card, else the subscription's, else the
// member's default.
func (s *Service) lateFeeCard(ctx context.Context, sub *ent.Subscription, named string) (string, error) {
	if named != "" {
		return named, nil
	}
	if c := deref(sub.PaymentMethodID); c != "" {
		return c, nil
	}
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return "", err
	}
	pc, err := s.pay.Customer(ctx, vp, sub.MemberID, false)
	if err != nil || pc == nil || pc.DefaultPaymentMethodID == nil {
		return "", noPaymentMethod()
	}
	return *pc.DefaultPaymentMethodID, nil
}

// ChargePendingLateFee charges a pass's pending late fee whose renewal is
// already paid (its charge was declined after the renewal went through):
// 422 NO_PENDING_LATE_FEE when there is none.
func (s *Service) ChargePendingLateFee(ctx context.Context, passID uuid.UUID, card string) (*ent.LateFee, string, error) {
	fee, err := s.PendingLateFee(ctx, passID)
	if err != nil {
		return nil, "", err
	}
	if fee == nil {
		return nil, "", noPendingLateFee()
	}
	sub, err := s.client.Subscription.Query().Where(subscription.PassID(passID)).Only(ctx)
	if err != nil {
		return nil, "", noPendingLateFee()
	}
	if _, err := s.pay.Chargeable(ctx); err != nil {
		return nil, "", err
	}
	if card, err = s.lateFeeCard(ctx, sub, card); err != nil {
		return nil, "", err
	}
	st := s.chargeLateFee(ctx, fee.InvoiceID, sub.CustomerID, card)
	if st == LateFeePending {
		return nil, "", refusal(http.StatusUnprocessableEntity, CodeRenewalChargeFailed, "the late fee's charge was not paid", "update_card").
			With("late_fee_id", fee.ID.String())
	}
	fee, err = s.client.LateFee.Get(ctx, fee.ID)
	return fee, st, err
}

// lateFeeSubject is a late fee as a payments subject.
type lateFeeSubject struct{}

func (lateFeeSubject) Lock(ctx context.Context, tx *ent.Tx, id uuid.UUID) (payments.SubjectCharge, error) {
	fee, err := tx.LateFee.Query().Where(latefee.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return payments.SubjectCharge{}, err
	}
	return payments.SubjectCharge{AmountMinor: fee.AmountMinor, Currency: fee.Currency, Description: "Late fee",
		MemberID: fee.MemberID, Paid: fee.Status != latefee.StatusPending}, nil
}

// Settle marks the fee paid and writes its payment row (kind fee, method
// card), once, under the fee's lock, with the member's receipt when the
// staff settle that charged asked for it.
func (lateFeeSubject) Settle(ctx context.Context, tx *ent.Tx, id uuid.UUID, intentID string, now time.Time) error {
	fee, err := tx.LateFee.Get(ctx, id)
	if err != nil || fee.Status != latefee.StatusPending {
		return err
	}
	pay, err := tx.Payment.Create().SetMemberID(fee.MemberID).SetNillablePassID(fee.PassID).
		SetAmountMinor(fee.AmountMinor).SetCurrency(fee.Currency).SetStatus(payment.StatusSucceeded).
		SetKind(payment.KindFee).SetMethod(payment.MethodCard).SetPaidAt(now).SetProcessorPaymentID(intentID).Save(ctx)
	if err != nil {
		return err
	}
	paid, err := tx.LateFee.UpdateOne(fee).SetStatus(latefee.StatusPaid).SetPaidAt(now).SetPaymentID(pay.ID).Save(ctx)
	if err != nil {
		return err
	}
	_, err = events.Record(ctx, tx.Client(), events.PaymentSucceeded, map[string]any{
		"payment_id": pay.ID.String(), "invoice_id": fee.InvoiceID.String(), "late_fee_id": fee.ID.String(),
		"member_id": fee.MemberID.String(), "payment_intent_id": intentID, "amount_minor": fee.AmountMinor,
		"currency": fee.Currency,
	})
	if err != nil {
		return err
	}
	if err := recordLateFeeEvent(ctx, tx, events.MembershipLateFeePaid, paid, map[string]any{
		"payment_id": pay.ID.String(), "payment_intent_id": intentID, "paid_at": eventTime(now)}); err != nil {
		return err
	}
	return tellIfAsked(ctx, tx, paid, intentID) // latefee_settle_notify.go
}

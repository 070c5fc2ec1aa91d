package billing

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/paymentoverride"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/stripeport"
	"github.com/venueplatform/venue/internal/viewer"
)

// Payment overrides: staff set what one or more upcoming billing periods of
// a membership cost (0 comps them) instead of the subscription's price. A
// period is named by its start date in the venue's time zone. An override is
// scheduled (editable) until its period's invoice is issued, then locked:
// applied when that invoice charged the override, missed when it was issued
// before the override reached Stripe. The override of the next period is a
// pending Stripe invoice item on the subscription for the difference to the
// price, which Stripe adds to that period's invoice (a zero invoice is paid
// by Stripe at once, charging nothing); the override of a later period gets
// its item once the period before it has been invoiced (SyncOverrides, run
// after every invoice event and every change of an override).

// Errors, permission and limits of the payment overrides.
const (
	CodeInvalidRange      = "INVALID_RANGE"
	CodeOverrideConflict  = "OVERRIDE_CONFLICT"
	CodeOverrideApplied   = "OVERRIDE_APPLIED"
	CodeNoUpcomingBilling = "NO_UPCOMING_BILLING"
	// MaxOverridePeriods is how far ahead overrides reach (and the read's
	// largest periods); MaxOverrideBulk is the bulk's largest batch.
	MaxOverridePeriods = 36
	MaxOverrideBulk    = 6

	AuditOverrideCreated  = "membership.payment_override_created"
	AuditOverrideUpdated  = "membership.payment_override_updated"
	AuditOverrideDeleted  = "membership.payment_override_deleted"
	AuditOverridesBulkSet = "membership.payment_overrides_bulk"
)

// matchSlack is how far a Stripe invoice's period start may lie from the
// period start we computed and still be that period.
const matchSlack = 12 * time.Hour

func invalidRange(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusBadRequest, Code: CodeInvalidRange,
		Message: "the periods named are not upcoming billing periods of this membership"}).With("reason", reason)
}

func overrideConflict(dates []string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodeOverrideConflict,
		Message: "a period named already has an override; change that one instead"}).With("periods", dates)
}

func overrideApplied() *apperr.Error {
	return &apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeOverrideApplied,
		Message: "the period of this override has been invoiced; the override is locked"}
}

func noUpcomingBilling(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeNoUpcomingBilling,
		Message: "this pass has no upcoming renewal to override"}).With("reason", reason)
}

// Period is one upcoming billing period of a membership.
type Period struct {
	Index      int
	Start, End time.Time
	// Date is the start's date in the venue's time zone: the period's name.
	Date string
	// BaseAmount is the subscription's price; Amount what the period will
	// cost (the override's amount when there is one).
	BaseAmount, Amount int64
	Override           *ent.PaymentOverride
}

// Overrides is a membership's upcoming periods and its overrides.
type Overrides struct {
	Subscription *ent.Subscription
	Location     *time.Location
	Periods      []Period
	// All are the membership's overrides, upcoming and locked, by period.
	All []*ent.PaymentOverride
}

// billed finds the subscription of a pass of the viewer's venue that still
// renews, and the start of its next period: NOT_FOUND, NO_UPCOMING_BILLING.
func (s *Service) billed(ctx context.Context, c *ent.Client, passID uuid.UUID) (*ent.Subscription, time.Time, *time.Location, error) {
	if ok, err := c.Pass.Query().Where(pass.ID(passID)).Exist(ctx); err != nil {
		return nil, time.Time{}, nil, err
	} else if !ok {
		return nil, time.Time{}, nil, passNotFound()
	}
	sub, err := c.Subscription.Query().Where(subscription.PassID(passID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, time.Time{}, nil, noUpcomingBilling("not_recurring")
	}
	if err != nil {
		return nil, time.Time{}, nil, err
	}
	if sub.ProcessorSubscriptionID == nil || sub.CanceledAt != nil {
		return nil, time.Time{}, nil, noUpcomingBilling("no_subscription")
	}
	next, err := s.nextStart(ctx, c, sub)
	if err != nil {
		return nil, time.Time{}, nil, err
	}
	if next.IsZero() {
		return nil, time.Time{}, nil, noUpcomingBilling("no_next_charge")
	}
	loc := time.UTC
	if org, err := c.Organization.Query().Where(organization.ID(sub.OrganizationID)).Only(ctx); err == nil {
		if l, err := time.LoadLocation(org.Timezone); err == nil {
			loc = l
		}
	}
	return sub, next, loc, nil
}

// nextStart is when the next period of a subscription starts: the later of
// the next charge Stripe told us and the end of the last period invoiced.
func (s *Service) nextStart(ctx context.Context, c *ent.Client, sub *ent.Subscription) (time.Time, error) {
	var next time.Time
	if sub.NextChargeAt != nil {
		next = *sub.NextChargeAt
	}
	last, err := c.Invoice.Query().Where(invoice.SubscriptionID(sub.ID), invoice.PeriodEndNotNil()).
		Order(ent.Desc(invoice.FieldPeriodEnd)).First(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return time.Time{}, err
	}
	if last != nil && last.PeriodEnd.After(next) {
		next = *last.PeriodEnd
	}
	return next.UTC(), nil
}

// periods lists n periods of sub from next.
func periods(sub *ent.Subscription, next time.Time, loc *time.Location, n int) []Period {
	out := make([]Period, 0, n)
	start := next
	for i := 1; i <= n; i++ {
		end := addInterval(start, string(sub.Interval), sub.IntervalCount)
		out = append(out, Period{Index: i, Start: start, End: end, Date: start.In(loc).Format(time.DateOnly),
			BaseAmount: sub.AmountMinor, Amount: sub.AmountMinor})
		start = end
	}
	return out
}

func addInterval(t time.Time, interval string, n int) time.Time {
	switch interval {
	case "day":
		return t.AddDate(0, 0, n)
	case "week":
		return t.AddDate(0, 0, 7*n)
	case "year":
		return t.AddDate(n, 0, 0)
	}
	return t.AddDate(0, n, 0)
}

func samePeriod(a, b time.Time) bool {
	d := a.Sub(b)
	return d < matchSlack && d > -matchSlack
}

// ListOverrides reads the next n (1 to 36) billing periods of a pass of the
// viewer's venue with their amounts and overrides.
func (s *Service) ListOverrides(ctx context.Context, passID uuid.UUID, n int) (*Overrides, error) {
	if n < 1 || n > MaxOverridePeriods {
		return nil, apperr.Validation("periods", "periods must be 1 to 36")
	}
	sub, next, loc, err := s.billed(ctx, s.client, passID)
	if err != nil {
		return nil, err
	}
	all, err := s.client.PaymentOverride.Query().Where(paymentoverride.SubscriptionID(sub.ID)).
		Order(ent.Asc(paymentoverride.FieldPeriodStart)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := &Overrides{Subscription: sub, Location: loc, Periods: periods(sub, next, loc, n), All: all}
	for i := range out.Periods {
		for _, o := range all {
			if samePeriod(o.PeriodStart, out.Periods[i].Start) {
				out.Periods[i].Override = o
				if o.Status == paymentoverride.StatusScheduled {
					out.Periods[i].Amount = o.AmountMinor
				}
			}
		}
	}
	return out, nil
}

// OverrideChoice names periods: Dates (mode periods, each a period's start
// date) or From to To (mode range, both dates inclusive: every period
// starting in it).
type OverrideChoice struct {
	Mode     string // periods, range
	Dates    []time.Time
	From, To time.Time
}

// choose resolves a choice to upcoming periods: INVALID_RANGE when a date
// names no upcoming period (a past date, a date between periods, beyond 36
// periods), a range is reversed or covers none.
func choose(all []Period, c OverrideChoice, limit int) ([]Period, error) {
	byDate := map[string]Period{}
	for _, p := range all {
		byDate[p.Date] = p
	}
	var out []Period
	switch c.Mode {
	case "periods":
		if len(c.Dates) == 0 {
			return nil, invalidRange("no_periods")
		}
		seen := map[string]bool{}
		for _, d := range c.Dates {
			key := d.Format(time.DateOnly)
			p, ok := byDate[key]
			if !ok {
				return nil, invalidRange("not_an_upcoming_period").With("period", key)
			}
			if !seen[key] {
				seen[key] = true
				out = append(out, p)
			}
		}
	case "range":
		if c.From.IsZero() || c.To.IsZero() || c.To.Before(c.From) {
			return nil, invalidRange("reversed_range")
		}
		from, to := c.From.Format(time.DateOnly), c.To.Format(time.DateOnly)
		for _, p := range all {
			if p.Date >= from && p.Date <= to {
				out = append(out, p)
			}
		}
		if len(out) == 0 {
			return nil, invalidRange("no_period_in_range")
		}
	default:
		return nil, invalidRange("mode")
	}
	if len(out) > limit {
		return nil, invalidRange("too_many_periods").With("max", limit)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Start.Before(out[j].Start) })
	return out, nil
}

// CreateOverrides sets the amount of the chosen upcoming periods of a pass
// (0 comps them): OVERRIDE_CONFLICT when one has an override already.
func (s *Service) CreateOverrides(ctx context.Context, passID uuid.UUID, c OverrideChoice, amount int64, reason string) ([]*ent.PaymentOverride, error) {
	if amount < 0 {
		return nil, apperr.Validation("amount_minor", "amount_minor must be an integer of 0 or more")
	}
	var (
		rows  []*ent.PaymentOverride
		subID uuid.UUID
	)
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		sub, chosen, existing, err := s.lockChosen(ctx, tx, passID, c, MaxOverridePeriods)
		if err != nil {
			return err
		}
		subID = sub.ID
		var taken []string
		for _, p := range chosen {
			if existing[p.Date] != nil {
				taken = append(taken, p.Date)
			}
		}
		if len(taken) > 0 {
			return overrideConflict(taken)
		}
		for _, p := range chosen {
			o, err := tx.PaymentOverride.Create().SetSubscriptionID(sub.ID).SetPassID(passID).
				SetPeriodStart(p.Start).SetPeriodEnd(p.End).SetAmountMinor(amount).SetReason(reason).
				SetNillableCreatedBy(actorID(ctx)).Save(ctx)
			if err != nil {
				return err
			}
			rows = append(rows, o)
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditOverrideCreated, Target: "pass:" + passID.String(),
			Details: overrideDetails(rows, amount, sub.AmountMinor, sub.Currency, reason)})
		return err
	})
	if err != nil {
		return nil, err
	}
	return s.afterChange(ctx, subID, rows)
}

// lockChosen locks the pass's subscription and resolves the choice among its
// next limit periods, with the overrides they have by date.
func (s *Service) lockChosen(ctx context.Context, tx *ent.Tx, passID uuid.UUID, c OverrideChoice, limit int) (*ent.Subscription, []Period, map[string]*ent.PaymentOverride, error) {
	sub, next, loc, err := s.billed(ctx, tx.Client(), passID)
	if err != nil {
		return nil, nil, nil, err
	}
	if sub, err = tx.Subscription.Query().Where(subscription.ID(sub.ID)).ForUpdate().Only(ctx); err != nil {
		return nil, nil, nil, err
	}
	all := periods(sub, next, loc, MaxOverridePeriods)
	// A period whose charge is due now or past is being invoiced: not upcoming.
	for len(all) > 0 && !all[0].Start.After(s.now()) {
		all = all[1:]
	}
	chosen, err := choose(all, c, limit)
	if err != nil {
		return nil, nil, nil, err
	}
	rows, err := tx.PaymentOverride.Query().Where(paymentoverride.SubscriptionID(sub.ID)).All(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	existing := map[string]*ent.PaymentOverride{}
	for _, p := range chosen {
		for _, o := range rows {
			if samePeriod(o.PeriodStart, p.Start) {
				existing[p.Date] = o
			}
		}
	}
	return sub, chosen, existing, nil
}

// afterChange brings the next period's invoice item at Stripe in line and
// rereads rows. A Stripe failure leaves the override saved; the next change
// or invoice event tries again (rows then read processor_item_id unset).
func (s *Service) afterChange(ctx context.Context, subID uuid.UUID, rows []*ent.PaymentOverride) ([]*ent.PaymentOverride, error) {
	_ = s.SyncOverrides(ctx, subID)
	out := make([]*ent.PaymentOverride, 0, len(rows))
	for _, r := range rows {
		cur, err := s.client.PaymentOverride.Get(ctx, r.ID)
		if ent.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, cur)
	}
	return out, nil
}

func actorID(ctx context.Context) *uuid.UUID {
	if u, ok := viewer.FromContext(ctx).(viewer.User); ok {
		return &u.UserID
	}
	return nil
}

func overrideDetails(rows []*ent.PaymentOverride, amount, base int64, currency, reason string) map[string]any {
	ids := make([]string, 0, len(rows))
	dates := make([]string, 0, len(rows))
	for _, r := range rows {
		ids = append(ids, r.ID.String())
		dates = append(dates, r.PeriodStart.UTC().Format(time.RFC3339))
	}
	return map[string]any{"override_ids": ids, "period_starts": dates, "amount_minor": amount,
		"base_amount_minor": base, "currency": currency, "reason": reason}
}

// override reads an override of a pass of the viewer's venue for a change:
// NOT_FOUND (another pass's, another venue's), OVERRIDE_APPLIED.
func (s *Service) override(ctx context.Context, tx *ent.Tx, passID, id uuid.UUID) (*ent.PaymentOverride, *ent.Subscription, error) {
	o, err := tx.PaymentOverride.Query().Where(paymentoverride.ID(id), paymentoverride.PassID(passID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, apperr.NotFound("payment override")
	}
	if err != nil {
		return nil, nil, err
	}
	sub, err := tx.Subscription.Query().Where(subscription.ID(o.SubscriptionID)).ForUpdate().Only(ctx)
	if err != nil {
		return nil, nil, err
	}
	if o, err = tx.PaymentOverride.Get(ctx, id); err != nil {
		return nil, nil, err
	}
	if o.Status != paymentoverride.StatusScheduled || !o.PeriodStart.After(s.now()) {
		return nil, nil, overrideApplied()
	}
	return o, sub, nil
}

// UpdateOverride changes a scheduled override's amount and/or reason.
func (s *Service) UpdateOverride(ctx context.Context, passID, id uuid.UUID, amount *int64, reason *string) (*ent.PaymentOverride, error) {
	if amount != nil && *amount < 0 {
		return nil, apperr.Validation("amount_minor", "amount_minor must be an integer of 0 or more")
	}
	var row *ent.PaymentOverride
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		o, sub, err := s.override(ctx, tx, passID, id)
		if err != nil {
			return err
		}
		before := o.AmountMinor
		upd := tx.PaymentOverride.UpdateOne(o)
		if amount != nil {
			upd.SetAmountMinor(*amount)
		}
		if reason != nil {
			upd.SetReason(*reason)
		}
		if row, err = upd.Save(ctx); err != nil {
			return err
		}
		d := overrideDetails([]*ent.PaymentOverride{row}, row.AmountMinor, sub.AmountMinor, sub.Currency, row.Reason)
		d["previous_amount_minor"] = before
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditOverrideUpdated, Target: "pass:" + passID.String(), Details: d})
		return err
	})
	if err != nil {
		return nil, err
	}
	rows, err := s.afterChange(ctx, row.SubscriptionID, []*ent.PaymentOverride{row})
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	return rows[0], nil
}

// DeleteOverride removes a scheduled override: its period costs the price
// again. Its Stripe invoice item, if any, goes first; one Stripe already
// put on an invoice is OVERRIDE_APPLIED.
func (s *Service) DeleteOverride(ctx context.Context, passID, id uuid.UUID) error {
	var o *ent.PaymentOverride
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		var err error
		o, _, err = s.override(ctx, tx, passID, id)
		return err
	})
	if err != nil {
		return err
	}
	return s.removeOverrides(ctx, passID, []*ent.PaymentOverride{o}, AuditOverrideDeleted)
}

// removeOverrides deletes scheduled overrides, their invoice items at Stripe
// first, and records entry.
func (s *Service) removeOverrides(ctx context.Context, passID uuid.UUID, rows []*ent.PaymentOverride, action string) error {
	for _, o := range rows {
		if o.ProcessorItemID == nil {
			continue
		}
		vp, err := s.pay.Chargeable(ctx)
		if err != nil {
			return err
		}
		if err := s.port.DeleteInvoiceItem(ctx, *vp.AccountID, *o.ProcessorItemID); err != nil {
			if errors.Is(err, stripeport.ErrRefused) {
				return overrideApplied() // Stripe drafted the invoice with it
			}
			return stripeError()
		}
		if err := s.client.PaymentOverride.UpdateOneID(o.ID).ClearProcessorItemID().ClearProcessorItemAmountMinor().Exec(ctx); err != nil {
			return err
		}
	}
	var subID uuid.UUID
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		var base int64
		var currency string
		for _, r := range rows {
			o, sub, err := s.override(ctx, tx, passID, r.ID)
			if err != nil {
				return err
			}
			subID, base, currency = sub.ID, sub.AmountMinor, sub.Currency
			if err := tx.PaymentOverride.DeleteOne(o).Exec(ctx); err != nil {
				return err
			}
		}
		if len(rows) == 0 {
			return nil
		}
		d := overrideDetails(rows, rows[0].AmountMinor, base, currency, rows[0].Reason)
		_, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: action, Target: "pass:" + passID.String(), Details: d})
		return err
	})
	if err != nil {
		return err
	}
	if subID != uuid.Nil {
		_ = s.SyncOverrides(ctx, subID)
	}
	return nil
}

// BulkOverrides sets (action set: amount for each, replacing scheduled
// overrides) or restores (action restore: removes their overrides) at most
// six upcoming periods at once; a locked override among them is
// OVERRIDE_APPLIED and changes nothing. It returns the overrides after.
func (s *Service) BulkOverrides(ctx context.Context, passID uuid.UUID, action string, c OverrideChoice, amount int64, reason string) ([]*ent.PaymentOverride, error) {
	if action == "set" && amount < 0 {
		return nil, apperr.Validation("amount_minor", "amount_minor must be an integer of 0 or more")
	}
	var (
		rows, gone []*ent.PaymentOverride
		subID      uuid.UUID
	)
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		sub, chosen, existing, err := s.lockChosen(ctx, tx, passID, c, MaxOverrideBulk)
		if err != nil {
			return err
		}
		subID = sub.ID
		for _, p := range chosen {
			if o := existing[p.Date]; o != nil && o.Status != paymentoverride.StatusScheduled {
				return overrideApplied()
			}
		}
		if action == "restore" {
			for _, p := range chosen {
				if o := existing[p.Date]; o != nil {
					gone = append(gone, o)
				}
			}
			return nil
		}
		for _, p := range chosen {
			var o *ent.PaymentOverride
			if cur := existing[p.Date]; cur != nil {
				o, err = tx.PaymentOverride.UpdateOne(cur).SetAmountMinor(amount).SetReason(reason).Save(ctx)
			} else {
				o, err = tx.PaymentOverride.Create().SetSubscriptionID(sub.ID).SetPassID(passID).
					SetPeriodStart(p.Start).SetPeriodEnd(p.End).SetAmountMinor(amount).SetReason(reason).
					SetNillableCreatedBy(actorID(ctx)).Save(ctx)
			}
			if err != nil {
				return err
			}
			rows = append(rows, o)
		}
		d := overrideDetails(rows, amount, sub.AmountMinor, sub.Currency, reason)
		d["action"] = action
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditOverridesBulkSet, Target: "pass:" + passID.String(), Details: d})
		return err
	})
	if err != nil {
		return nil, err
	}
	if action == "restore" {
		return nil, s.removeOverrides(ctx, passID, gone, AuditOverridesBulkSet)
	}
	return s.afterChange(ctx, subID, rows)
}

// SyncOverrides makes Stripe's pending invoice items of a subscription
// match its scheduled overrides: the override of the next period is one
// item of the difference to the price (none when there is no difference);
// any other item of an override is removed. Each item is created under a
// payment attempt of purpose invoice_item (subject: the override) whose
// key every retry reuses, so Stripe makes one item however often this runs.
func (s *Service) SyncOverrides(ctx context.Context, subID uuid.UUID) error {
	type step struct {
		o       *ent.PaymentOverride
		delta   int64
		attempt *ent.PaymentAttempt
	}
	var (
		sub              *ent.Subscription
		creates, deletes []step
	)
	// Most memberships have no override: no lock, no transaction.
	if n, err := s.client.PaymentOverride.Query().Where(paymentoverride.SubscriptionID(subID),
		paymentoverride.StatusEQ(paymentoverride.StatusScheduled)).Count(ctx); err != nil || n == 0 {
		return err
	}
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		var err error
		if sub, err = tx.Subscription.Query().Where(subscription.ID(subID)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		if sub.ProcessorSubscriptionID == nil || sub.CanceledAt != nil {
			return nil
		}
		rows, err := tx.PaymentOverride.Query().Where(paymentoverride.SubscriptionID(subID),
			paymentoverride.StatusEQ(paymentoverride.StatusScheduled)).All(ctx)
		if err != nil || len(rows) == 0 {
			return err
		}
		next, err := s.nextStart(ctx, tx.Client(), sub)
		if err != nil {
			return err
		}
		for _, o := range rows {
			delta := o.AmountMinor - sub.AmountMinor
			want := samePeriod(o.PeriodStart, next) && delta != 0
			has := o.ProcessorItemID != nil
			if has && (!want || o.ProcessorItemAmountMinor == nil || *o.ProcessorItemAmountMinor != delta) {
				deletes = append(deletes, step{o: o})
				has = false
			}
			if want && !has {
				at, err := itemAttempt(ctx, tx, o.ID)
				if err != nil {
					return err
				}
				creates = append(creates, step{o: o, delta: delta, attempt: at})
			}
		}
		return nil
	})
	if err != nil || (len(creates) == 0 && len(deletes) == 0) {
		return err
	}
	vp, err := s.pay.Chargeable(ctx)
	if err != nil {
		return err
	}
	for _, d := range deletes {
		if err := s.port.DeleteInvoiceItem(ctx, *vp.AccountID, *d.o.ProcessorItemID); err != nil && !errors.Is(err, stripeport.ErrRefused) {
			return fmt.Errorf("billing: delete invoice item: %w", err)
		}
		if err := s.client.PaymentOverride.UpdateOneID(d.o.ID).Where(paymentoverride.ProcessorItemID(*d.o.ProcessorItemID)).
			ClearProcessorItemID().ClearProcessorItemAmountMinor().Exec(ctx); err != nil && !ent.IsNotFound(err) {
			return err
		}
	}
	for _, c := range creates {
		id, err := s.port.CreateInvoiceItem(ctx, stripeport.InvoiceItemParams{
			Account: *vp.AccountID, IdempotencyKey: payments.IdempotencyKey(string(c.attempt.Purpose), c.attempt.ID.String(), fmt.Sprintf("create:%d", c.delta)),
			Customer: sub.CustomerID, Subscription: *sub.ProcessorSubscriptionID, AmountMinor: c.delta, Currency: sub.Currency,
			Description: "Payment override " + c.o.PeriodStart.UTC().Format(time.DateOnly),
			Metadata: map[string]string{"organization_id": sub.OrganizationID.String(), "subscription_id": sub.ID.String(),
				"override_id": c.o.ID.String(), "attempt_id": c.attempt.ID.String()},
		})
		if err != nil {
			if !errors.Is(err, stripeport.ErrUnknownOutcome) {
				_ = s.client.PaymentAttempt.UpdateOneID(c.attempt.ID).SetState(paymentattempt.StateFailed).
					SetFailureCode("processor_refused").ClearLiveSubjectID().Exec(ctx)
			}
			return fmt.Errorf("billing: create invoice item: %w", err)
		}
		err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
			if err := tx.PaymentOverride.UpdateOneID(c.o.ID).SetProcessorItemID(id).SetProcessorItemAmountMinor(c.delta).Exec(ctx); err != nil && !ent.IsNotFound(err) {
				return err
			}
			return tx.PaymentAttempt.UpdateOneID(c.attempt.ID).SetState(paymentattempt.StateSucceeded).
				SetProcessorObjectID(id).ClearLiveSubjectID().Exec(ctx)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// itemAttempt is the live invoice_item attempt of an override, reused while
// its outcome is open (in flight or unknown), else a new one.
func itemAttempt(ctx context.Context, tx *ent.Tx, overrideID uuid.UUID) (*ent.PaymentAttempt, error) {
	at, err := tx.PaymentAttempt.Query().Where(paymentattempt.LiveSubjectID(overrideID)).Only(ctx)
	if err == nil || !ent.IsNotFound(err) {
		return at, err
	}
	n, err := tx.PaymentAttempt.Query().Where(paymentattempt.SubjectID(overrideID)).Count(ctx)
	if err != nil {
		return nil, err
	}
	return tx.PaymentAttempt.Create().SetPurpose(paymentattempt.PurposeInvoiceItem).SetSubjectID(overrideID).
		SetNumber(n + 1).SetState(paymentattempt.StateInFlight).SetLiveSubjectID(overrideID).Save(ctx)
}

// lockOverrides runs in the transaction that records a new invoice of sub:
// the scheduled overrides of its period (and of any earlier one) are locked,
// applied when the invoice's total is the override's amount, else missed.
func lockOverrides(ctx context.Context, tx *ent.Tx, sub *ent.Subscription, row *ent.Invoice) error {
	if row.PeriodStart == nil {
		return nil
	}
	rows, err := tx.PaymentOverride.Query().Where(paymentoverride.SubscriptionID(sub.ID),
		paymentoverride.StatusEQ(paymentoverride.StatusScheduled),
		paymentoverride.PeriodStartLT(row.PeriodStart.Add(matchSlack))).All(ctx)
	if err != nil {
		return err
	}
	for _, o := range rows {
		st := paymentoverride.StatusMissed
		if samePeriod(o.PeriodStart, *row.PeriodStart) && row.TotalMinor == o.AmountMinor {
			st = paymentoverride.StatusApplied
		}
		if err := tx.PaymentOverride.UpdateOne(o).SetStatus(st).SetInvoiceID(row.ID).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func init() {
	// An invoice_item attempt whose outcome went unknown stays for the next
	// SyncOverrides to reuse with the same key (Stripe then answers the item
	// it made, or makes it once): nothing to read here.
	payments.RegisterReconciler(paymentattempt.PurposeInvoiceItem, func(context.Context, *ent.Client, stripeport.Port, *ent.PaymentAttempt) error {
		return nil
	})
}

// OverrideView is an override as staff read it: its period's dates in the
// venue's time zone, its currency and whether Stripe holds its adjustment.
type OverrideView struct {
	Row             *ent.PaymentOverride
	Start, End      string
	Currency        string
	ProcessorSynced bool
}

// Views describes overrides of one subscription.
func (s *Service) Views(ctx context.Context, rows []*ent.PaymentOverride) ([]OverrideView, error) {
	out := make([]OverrideView, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	sub, err := s.client.Subscription.Get(ctx, rows[0].SubscriptionID)
	if err != nil {
		return nil, err
	}
	next, err := s.nextStart(ctx, s.client, sub)
	if err != nil {
		return nil, err
	}
	loc := time.UTC
	if org, err := s.client.Organization.Query().Where(organization.ID(sub.OrganizationID)).Only(ctx); err == nil {
		if l, err := time.LoadLocation(org.Timezone); err == nil {
			loc = l
		}
	}
	for _, o := range rows {
		delta := o.AmountMinor - sub.AmountMinor
		synced := o.Status != paymentoverride.StatusScheduled || !samePeriod(o.PeriodStart, next) ||
			(delta == 0 && o.ProcessorItemID == nil) ||
			(o.ProcessorItemAmountMinor != nil && *o.ProcessorItemAmountMinor == delta)
		out = append(out, OverrideView{Row: o, Start: o.PeriodStart.In(loc).Format(time.DateOnly),
			End: o.PeriodEnd.In(loc).Format(time.DateOnly), Currency: sub.Currency, ProcessorSynced: synced})
	}
	return out, nil
}

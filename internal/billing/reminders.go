package billing

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/notificationdelivery"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/system"
)

// The recurring-payment reminder policy: on each of the policy's days before
// a renewal's charge (venue-local days) the member is e-mailed through the
// notification outbox, once per renewal and day. Staff preview a policy (the
// renewals it would remind and when, and a preview_hash over exactly that)
// and apply it with the hash; a hash that no longer matches is 409
// PREVIEW_STALE and nothing changes.

// Error codes, permissions, audit action and notification kind of the
// reminder policy.
const (
	CodePreviewStale       = "PREVIEW_STALE"
	PermSettingsMembership = "settings.membership"
	AuditReminderPolicy    = "billing.reminder_policy_applied"
	KindRenewalReminder    = "billing.renewal_reminder"
	// reminderHorizon is how far ahead a preview looks (the longest lead).
	reminderHorizon = 31
)

// AuthorizeReminders admits settings.membership or passes.manage.
func AuthorizeReminders(ctx context.Context) error {
	if err := Authorize(ctx, PermSettingsMembership); err == nil {
		return nil
	}
	err := Authorize(ctx, PermPassesManage)
	if ae, ok := err.(*apperr.Error); ok && ae.Status == http.StatusForbidden {
		return ae.With("required_permissions", []string{PermSettingsMembership, PermPassesManage})
	}
	return err
}

// UpcomingReminder is one renewal a policy reminds, with the days it would.
type UpcomingReminder struct {
	SubscriptionID uuid.UUID `json:"subscription_id"`
	PassID         uuid.UUID `json:"pass_id"`
	MemberID       uuid.UUID `json:"member_id"`
	ChargeDate     string    `json:"charge_date"`
	AmountMinor    int64     `json:"amount_minor"`
	Currency       string    `json:"currency"`
	RemindOn       []string  `json:"remind_on"`
}

// ReminderPreview is what applying a policy would do.
type ReminderPreview struct {
	DaysBefore []int
	Upcoming   []UpcomingReminder
	Hash       string
}

// ReminderPolicy returns the venue's policy (nil when none).
func (s *Service) ReminderPolicy(ctx context.Context) (*ent.RenewalReminderPolicy, error) {
	p, err := s.client.RenewalReminderPolicy.Query().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil
	}
	return p, err
}

func normalizeDays(days []int) ([]int, error) {
	out := slices.Clone(days)
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) != len(days) || len(out) > 5 {
		return nil, apperr.Validation("days_before", "days_before holds up to 5 distinct days")
	}
	for _, d := range out {
		if d < 1 || d > 30 {
			return nil, apperr.Validation("days_before", "each day is 1 to 30")
		}
	}
	return out, nil
}

// PreviewReminders says which renewals of the viewer's venue the policy
// days would remind in the next 31 days and on which venue-local dates
// (the reminders still to come), with a hash over exactly that.
func (s *Service) PreviewReminders(ctx context.Context, days []int) (*ReminderPreview, error) {
	days, err := normalizeDays(days)
	if err != nil {
		return nil, err
	}
	today, loc, err := s.venueToday(ctx)
	if err != nil {
		return nil, err
	}
	subs, err := s.client.Subscription.Query().Where(subscription.CanceledAtIsNil(), subscription.NextChargeAtNotNil(),
		subscription.NextChargeAtLT(today.AddDate(0, 0, reminderHorizon+1))).
		Order(ent.Asc(subscription.FieldNextChargeAt), ent.Asc(subscription.FieldID)).Limit(1000).All(ctx)
	if err != nil {
		return nil, err
	}
	out := &ReminderPreview{DaysBefore: days, Upcoming: []UpcomingReminder{}}
	for _, sub := range subs {
		charge := localDay(*sub.NextChargeAt, loc)
		u := UpcomingReminder{SubscriptionID: sub.ID, PassID: sub.PassID, MemberID: sub.MemberID,
			ChargeDate: charge.Format(time.DateOnly), AmountMinor: sub.AmountMinor, Currency: sub.Currency}
		for i := len(days) - 1; i >= 0; i-- {
			on := charge.AddDate(0, 0, -days[i])
			if !on.Before(today) {
				u.RemindOn = append(u.RemindOn, on.Format(time.DateOnly))
			}
		}
		if len(u.RemindOn) > 0 {
			out.Upcoming = append(out.Upcoming, u)
		}
	}
	raw, err := json.Marshal(struct {
		Days     []int              `json:"days_before"`
		Upcoming []UpcomingReminder `json:"upcoming"`
	}{days, out.Upcoming})
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	out.Hash = hex.EncodeToString(sum[:])
	return out, nil
}

// ApplyReminders makes days the venue's policy if hash is the preview's
// hash now (else 409 PREVIEW_STALE, with the current hash); audit
// billing.reminder_policy_applied.
func (s *Service) ApplyReminders(ctx context.Context, days []int, hash string) (*ent.RenewalReminderPolicy, *ReminderPreview, error) {
	pv, err := s.PreviewReminders(ctx, days)
	if err != nil {
		return nil, nil, err
	}
	if pv.Hash != hash {
		return nil, nil, (&apperr.Error{Status: http.StatusConflict, Code: CodePreviewStale,
			Message: "what the policy would do changed since the preview; preview it again"}).With("preview_hash", pv.Hash)
	}
	var out *ent.RenewalReminderPolicy
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.RenewalReminderPolicy.Query().ForUpdate().Only(ctx)
		switch {
		case ent.IsNotFound(err):
			out, err = tx.RenewalReminderPolicy.Create().SetDaysBefore(pv.DaysBefore).SetPreviewHash(hash).Save(ctx)
		case err == nil:
			out, err = tx.RenewalReminderPolicy.UpdateOne(cur).SetDaysBefore(pv.DaysBefore).SetPreviewHash(hash).Save(ctx)
		}
		if err != nil {
			return err
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: AuditReminderPolicy, Target: "reminder_policy",
			Details: map[string]any{"days_before": pv.DaysBefore, "preview_hash": hash, "upcoming": len(pv.Upcoming)}})
		return err
	})
	if ent.IsConstraintError(err) {
		return nil, nil, paymentPending()
	}
	if err != nil {
		return nil, nil, err
	}
	return out, pv, nil
}

// SendRenewalReminders queues, for every venue with a policy, the renewal
// reminders due on the venue-local day of now, once per renewal and day
// (the delivery's correlation id); it returns how many it queued.
func (s *Service) SendRenewalReminders(ctx context.Context, now time.Time) (int, error) {
	// System call site: the sweep runs for every venue and holds no viewer;
	// it reads the policies and their venues, then acts in each venue.
	pols, err := s.client.RenewalReminderPolicy.Query().All(system.Allow(ctx, "billing.reminder_sweep"))
	if err != nil {
		return 0, fmt.Errorf("billing: reminder policies: %w", err)
	}
	n := 0
	for _, pol := range pols {
		k, err := s.remindVenue(inVenue(ctx, pol.OrganizationID), pol, now)
		n += k
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

func (s *Service) remindVenue(ctx context.Context, pol *ent.RenewalReminderPolicy, now time.Time) (int, error) {
	org, err := s.client.Organization.Query().Where(organization.ID(pol.OrganizationID)).Only(ctx)
	if err != nil {
		return 0, err
	}
	loc, err := time.LoadLocation(org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	today := localDay(now, loc)
	n := 0
	for _, d := range pol.DaysBefore {
		charge := today.AddDate(0, 0, d)
		from := time.Date(charge.Year(), charge.Month(), charge.Day(), 0, 0, 0, 0, loc)
		subs, err := s.client.Subscription.Query().Where(subscription.CanceledAtIsNil(),
			subscription.NextChargeAtGTE(from), subscription.NextChargeAtLT(from.AddDate(0, 0, 1))).Limit(1000).All(ctx)
		if err != nil {
			return n, err
		}
		for _, sub := range subs {
			ok, err := s.remind(ctx, sub, charge, d)
			if err != nil {
				return n, err
			}
			if ok {
				n++
			}
		}
	}
	return n, nil
}

// remind queues one reminder unless it was queued before.
func (s *Service) remind(ctx context.Context, sub *ent.Subscription, charge time.Time, days int) (bool, error) {
	corr := fmt.Sprintf("renewal_reminder:%s:%s:%d", sub.ID, charge.Format(time.DateOnly), days)
	queued := false
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if _, err := tx.Subscription.Query().Where(subscription.ID(sub.ID)).ForUpdate().Only(ctx); err != nil {
			return err
		}
		done, err := tx.NotificationDelivery.Query().Where(notificationdelivery.Kind(KindRenewalReminder),
			notificationdelivery.CorrelationID(corr)).Exist(ctx)
		if err != nil || done {
			return err
		}
		res, err := notify.EnqueueForMembers(ctx, tx.Client(), []uuid.UUID{sub.MemberID}, notify.Email, notify.Message{
			Kind: KindRenewalReminder, Subject: "Your membership renews on " + charge.Format(time.DateOnly),
			Body: fmt.Sprintf("Your membership renews on %s: %s will be charged to your saved card.",
				charge.Format(time.DateOnly), money.Format(sub.AmountMinor, sub.Currency)),
			Data:          map[string]any{"subscription_id": sub.ID.String(), "pass_id": sub.PassID.String(), "charge_date": charge.Format(time.DateOnly)},
			CorrelationID: corr,
		})
		queued = err == nil && res.Queued > 0
		return err
	})
	return queued, err
}

package billing

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/ratelock"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

// Rate locks over schedule phases, and their revert.
//
// A membership whose subscription a schedule manages (binding months, an
// intro price, a flexible change or a Move to Flexible) has its price in
// the schedule's phases, which replace the subscription's price at each
// phase's start. A rate lock there sets every future phase to the locked
// price (the price-change path sends the phases instead of the price,
// planPhases with the lock); when the lock is removed or expires the phases
// get their own prices back. A change Stripe refuses, at the request or at
// the reconcile, is put back by revertPrice, which undoes the lock rows the
// change wrote (found by the attempt ids their audit entries name).

// revertRateLocks undoes, in tx, the rate lock rows written by the price
// change of attempt at: a lock it set goes (the lock it replaced holds
// again), a lock it ended holds again.
func revertRateLocks(ctx context.Context, tx *ent.Tx, sub *ent.Subscription, at uuid.UUID) error {
	rows, err := tx.AuditLog.Query().Where(auditlog.Target("pass:"+sub.PassID.String()),
		auditlog.ActionIn(AuditRateLockSet, AuditRateLockRemoved, AuditRateLockExpired)).
		Order(ent.Desc(auditlog.FieldCreatedAt)).Limit(50).All(ctx)
	if err != nil {
		return err
	}
	for _, r := range rows {
		if !slices.Contains(attemptIDs(r.Details["attempt_ids"]), at.String()) {
			continue
		}
		id, err := uuid.Parse(str(r.Details["rate_lock_id"]))
		if err != nil {
			continue
		}
		if r.Action == AuditRateLockSet {
			if err := tx.RateLock.DeleteOneID(id).Exec(ctx); err != nil && !ent.IsNotFound(err) {
				return err
			}
			if prev, err := uuid.Parse(str(r.Details["replaced_rate_lock_id"])); err == nil {
				applied, _ := r.Details["replaced_applied"].(bool)
				if err := tx.RateLock.UpdateOneID(prev).SetStatus(ratelock.StatusActive).SetApplied(applied).
					ClearEndedAt().Exec(ctx); err != nil && !ent.IsNotFound(err) {
					return err
				}
			}
			continue
		}
		applied, _ := r.Details["applied"].(bool)
		if err := tx.RateLock.UpdateOneID(id).SetStatus(ratelock.StatusActive).SetApplied(applied).
			ClearEndedAt().Exec(ctx); err != nil && !ent.IsNotFound(err) {
			return err
		}
	}
	return nil
}

func attemptIDs(v any) []string {
	switch ids := v.(type) {
	case []string:
		return ids
	case []any:
		out := make([]string, 0, len(ids))
		for _, x := range ids {
			out = append(out, str(x))
		}
		return out
	}
	return nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// stagePhases makes st a change of the phases of the schedule that manages
// its subscription: every phase at st.to (a lock, a loyalty or staff
// price), or, for own, the phases' own prices (st.to becomes what the next
// renewal charges).
func (s *Service) stagePhases(ctx context.Context, st *stagedPrice) error {
	p, err := s.client.Pass.Get(ctx, st.sub.PassID)
	if err != nil {
		return err
	}
	var lock *int64
	if !st.own {
		to := st.to
		lock = &to
	}
	plan, err := s.planPhases(ctx, s.client, p, st.sub, lock)
	if err != nil {
		return stripeError()
	}
	st.to, st.phases = plan.next, &plan.params
	return nil
}

// phaseJSON is one phase as a price change's intent records it.
type phaseJSON struct {
	AmountMinor int64  `json:"amount_minor"`
	End         string `json:"end,omitempty"`
}

// phasesIntent is what the intent's audit entry records of phases (nil
// without), so the reconcile can send the same phases again.
func phasesIntent(p *stripeport.PhasesParams) map[string]any {
	if p == nil {
		return nil
	}
	out := make([]phaseJSON, 0, len(p.Phases))
	for _, ph := range p.Phases {
		j := phaseJSON{AmountMinor: ph.AmountMinor}
		if !ph.End.IsZero() {
			j.End = ph.End.UTC().Format(time.RFC3339)
		}
		out = append(out, j)
	}
	m := map[string]any{"schedule": p.Schedule, "phases": out}
	if !p.TrialEnd.IsZero() {
		m["trial_end"] = p.TrialEnd.UTC().Format(time.RFC3339)
	}
	return m
}

// phasesOfIntent reads phasesIntent back (nil without phases).
func phasesOfIntent(v any) *stripeport.PhasesParams {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	raw, err := json.Marshal(m["phases"])
	if err != nil {
		return nil
	}
	var phases []phaseJSON
	if json.Unmarshal(raw, &phases) != nil || len(phases) == 0 {
		return nil
	}
	out := &stripeport.PhasesParams{Schedule: str(m["schedule"])}
	for _, ph := range phases {
		x := stripeport.Phase{AmountMinor: ph.AmountMinor}
		if ph.End != "" {
			x.End, _ = time.Parse(time.RFC3339, ph.End)
		}
		out.Phases = append(out.Phases, x)
	}
	if te, ok := m["trial_end"].(string); ok {
		out.TrialEnd, _ = time.Parse(time.RFC3339, te)
	}
	return out
}

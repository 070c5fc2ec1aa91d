package server

import (
	"context"
	"time"

	"github.com/venueplatform/venue/internal/billing"
	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/idempotency"
)

// Late fees on renewals: the writes require an Idempotency-Key
// (spec/parts/admin_late_fees.yaml).
func init() {
	for _, op := range []string{"setAdminLateFeePolicy", "deleteAdminLateFeePolicy", "waiveAdminLateFee"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}

// runLateFeeSweep gives renewal invoices unpaid past their venue's grace
// days their late fee, every five minutes until ctx ends.
func runLateFeeSweep(ctx context.Context, d Deps, c config.Config) {
	svc := billing.New(paymentsService(d, c))
	go every(ctx, d.Log, 5*time.Minute, "late fees", func(ctx context.Context) (int, error) {
		return svc.ApplyLateFees(ctx, time.Now())
	})
	go every(ctx, d.Log, 5*time.Minute, "renewal reminders", func(ctx context.Context) (int, error) {
		return svc.SendRenewalReminders(ctx, time.Now()) // reminders.go
	})
}

// Removing a dead membership setup: a required key that is a UUID (else the
// contract's 400 IDEMPOTENCY_KEY_INVALID); a retry replays.
func init() {
	idempotencyPolicies["removeAdminMembershipSetup"] = idempotency.Required(idempotency.UUID).WithInvalidCode(idempotency.CodeKeyInvalid)
}

// The reminder policy's apply requires a key (spec/parts/admin_reminders.yaml).
func init() {
	idempotencyPolicies["applyAdminReminderPolicy"] = idempotency.Required(idempotency.Max200)
}

// Settling a declined late fee charges the card: a required key
// (spec/parts/late_fee_settle.yaml). A lost answer (409
// UNKNOWN_WRITE_OUTCOME) is not stored: the same key settles again, which
// looks the charge's outcome up at Stripe and never charges twice.
func init() {
	idempotencyPolicies["settleAdminLateFee"] = idempotency.Required(idempotency.Max200).WithRerunUnknown()
}

package server

import (
	"time"

	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/limits"
)

// invoiceRetryPerUser is the contract's limit of POST /me/invoices/{id}/retry
// and its confirm: 5 per minute, per signed-in user, in one bucket.
var invoiceRetryPerUser = limits.Policy{Name: "invoice-retry", Limit: 5, Window: time.Minute}

// The member's invoice retry honours an optional Idempotency-Key; the staff
// billing desk's writes require one (spec/parts/invoices.yaml,
// spec/parts/admin_billing.yaml).
func init() {
	idempotencyPolicies["retryMyInvoice"] = idempotency.Optional(idempotency.Max200)
	for _, op := range []string{"retryAdminInvoice", "settleAdminInvoiceExternally", "compAdminInvoice"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
	operationLimits["retryMyInvoice"] = limits.Rule{PerKey: &invoiceRetryPerUser}
	operationLimits["confirmMyInvoiceRetry"] = limits.Rule{PerKey: &invoiceRetryPerUser}
}

func init() {
	for _, op := range []string{"suspendAdminPass", "unsuspendAdminPass"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}

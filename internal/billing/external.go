package billing

import (
	"context"
	"errors"
	"net/http"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoice"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/subscription"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/payments"
)

// Externally billed memberships: the member pays each cycle outside the
// service (a bank transfer, an invoice by post). Staff move a membership to
// external collection (Stripe's send_invoice: each renewal is invoiced and
// left open, never charged by card, no retries, no decline) and back to
// card (charge_automatically); then they record each cycle's settlement,
// which marks the open invoice paid out of band at Stripe and in our rows
// (the payment row of kind renewal with its method, the invoice paid, the
// pass rolled on, the audit entry payment.settled_externally, the
// payment.succeeded webhook).

// Error codes and audit actions of external billing.
const (
	CodeNotExternallyBilled = "NOT_EXTERNALLY_BILLED"
	CodeStripeNotConfigured = "STRIPE_NOT_CONFIGURED"
	CodeOperationFailed     = "OPERATION_FAILED"
	AuditCollectionChanged  = "membership.billing_collection_changed"
	// ExternalDaysUntilDue is the payment term Stripe gives an externally
	// billed membership's invoice.
	ExternalDaysUntilDue = 14
)

func notExternallyBilled() *apperr.Error {
	return refusal(http.StatusUnprocessableEntity, CodeNotExternallyBilled,
		"the membership is billed by card; only an externally billed membership's cycle is settled here", nil)
}

func noSubscription() *apperr.Error {
	return refusal(http.StatusUnprocessableEntity, CodeNoSubscription, "the membership has no live subscription", nil)
}

func operationFailed(attempt uuid.UUID) *apperr.Error {
	return refusal(http.StatusBadGateway, CodeOperationFailed,
		"the payment processor recorded the settlement but it could not be saved here; it is being reconciled", "refresh").
		With("attempt_id", attempt.String())
}

// stripeConfigured returns the venue's connected account, or 422
// STRIPE_NOT_CONFIGURED (details.reason: payments_disabled when the service
// has no Stripe key, connect_not_active when the venue's account does not
// take charges).
func (s *Service) stripeConfigured(ctx context.Context) (*ent.VenuePayments, error) {
	vp, err := s.pay.Chargeable(ctx)
	var ae *apperr.Error
	if errors.As(err, &ae) && ae.Code == payments.CodeUnavailable {
		out := refusal(http.StatusUnprocessableEntity, CodeStripeNotConfigured, "the venue's payment processor is not configured", nil)
		if r, ok := ae.Details["reason"]; ok {
			out = out.With("reason", r)
		}
		return nil, out
	}
	return vp, err
}

// externalTarget reads a pass of the viewer's venue (404) and its live
// subscription (422 NO_SUBSCRIPTION).
func (s *Service) externalTarget(ctx context.Context, passID uuid.UUID) (*ent.Subscription, error) {
	n, err := s.client.Pass.Query().Where(pass.ID(passID)).Count(ctx)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, passNotFound()
	}
	sub, err := s.client.Subscription.Query().Where(subscription.PassID(passID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, noSubscription()
	}
	if err != nil {
		return nil, err
	}
	if sub.ProcessorSubscriptionID == nil || sub.CanceledAt != nil {
		return nil, noSubscription()
	}
	return sub, nil
}

// SettleCycleExternally records that the member of an externally billed
// membership paid the current cycle outside the service. Checks in order:
// 404 (pass), NO_SUBSCRIPTION, NOT_EXTERNALLY_BILLED, STRIPE_NOT_CONFIGURED,
// NO_OPEN_INVOICE (no unpaid invoice of the subscription at Stripe); the
// oldest unpaid invoice is settled in full: Stripe's invoice paid out of
// band under the invoice's attempt (refused: 502 SETTLEMENT_FAILED, nothing
// changed), then our rows (failed: 502 OPERATION_FAILED, the attempt left
// for the reconcile and Stripe's invoice.paid finishes our rows). The
// member is not contacted.
func (s *Service) SettleCycleExternally(ctx context.Context, passID uuid.UUID, method, note string) (*ent.Invoice, error) {
	switch method {
	case "cash", "bank_transfer", "other":
	default:
		return nil, apperr.Validation("method", "method must be cash, bank_transfer or other")
	}
	sub, err := s.externalTarget(ctx, passID)
	if err != nil {
		return nil, err
	}
	if sub.Collection != subscription.CollectionExternal {
		return nil, notExternallyBilled()
	}
	if _, err := s.stripeConfigured(ctx); err != nil {
		return nil, err
	}
	row, err := s.client.Invoice.Query().Where(invoice.SubscriptionID(sub.ID), invoice.StatusIn(unpaid...),
		invoice.ProcessorInvoiceIDNotNil()).
		Order(ent.Asc(invoice.FieldDueDate), ent.Asc(invoice.FieldIssuedAt), ent.Asc(invoice.FieldID)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, noOpenInvoice()
	}
	if err != nil {
		return nil, err
	}
	at := s.now()
	return s.settleOutOfBand(ctx, row, settlement{kind: invoice.SettlementExternal, at: at, silent: true, method: method, opFailed: true},
		audit.Entry{Action: AuditSettledExternally, Target: "pass:" + passID.String(), Details: map[string]any{
			"invoice_id": row.ID.String(), "invoice_number": row.Number, "method": method, "amount_minor": Balance(row),
			"currency": row.Currency, "note": note, "collection": string(subscription.CollectionExternal)}})
}

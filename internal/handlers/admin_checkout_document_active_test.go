package handlers_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
)

// TestAdminCheckoutDocumentActive: a deactivated waiver no longer gates
// the purchase and cannot be signed (409 DOCUMENT_INACTIVE); reactivated,
// it gates again at its version, and a signature of that version counts.
// Callers without the permission, unknown documents and a body without
// active are refused and change nothing; the same state twice records once.
func TestAdminCheckoutDocumentActive(t *testing.T) {
	e := newPayEnv(t, false, false)
	staff := e.staffClient(t, "desk@pay.example", payments.PermCheckoutMembership)
	res, err := staff.CreateAdminCheckoutDocument(e.ctx, &api.AdminCheckoutDocumentCreate{Kind: api.AdminCheckoutDocumentCreateKindWaiver,
		Title: "Waiver", Body: "At my own risk.", PassTypeIds: []uuid.UUID{e.ten.ID}}, api.CreateAdminCheckoutDocumentParams{IdempotencyKey: "d-1"})
	require.NoError(t, err)
	doc := res.Data
	set := func(c *api.Client, id uuid.UUID, active bool, key string) (*api.AdminCheckoutDocumentResponse, error) {
		return c.SetAdminCheckoutDocumentActive(e.ctx, &api.AdminCheckoutDocumentActive{Active: active},
			api.SetAdminCheckoutDocumentActiveParams{ID: id, IdempotencyKey: key})
	}
	audits := func(action string) int {
		return e.studio.client.AuditLog.Query().Where(auditlog.Action(action)).CountX(e.op)
	}

	// Refusals change nothing.
	_, err = set(e.member, doc.ID, false, "a-0")
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = set(e.staffClient(t, "nobody@pay.example"), doc.ID, false, "a-0")
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = set(staff, uuid.New(), false, "a-1")
	hookErr(t, err, 404, "NOT_FOUND")
	_, err = staff.SetAdminCheckoutDocumentActive(e.ctx, &api.AdminCheckoutDocumentActive{Active: false},
		api.SetAdminCheckoutDocumentActiveParams{ID: doc.ID})
	require.Error(t, err, "the Idempotency-Key is required")
	require.True(t, e.studio.client.CheckoutDocument.GetX(e.op, doc.ID).Active)
	require.Zero(t, audits("checkout_document.deactivated"))
	_, err = e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "buy-a-0")
	requireErr(t, err, http.StatusUnprocessableEntity, payments.CodeSignatureRequired)

	// Deactivated: not required, not signable; a retry replays.
	off, err := set(staff, doc.ID, false, "a-2")
	require.NoError(t, err)
	require.False(t, off.Data.Active)
	require.Equal(t, doc.VersionID, off.Data.VersionID)
	again, err := set(staff, doc.ID, false, "a-2")
	require.NoError(t, err)
	require.False(t, again.Data.Active)
	_, err = set(staff, doc.ID, false, "a-3")
	require.NoError(t, err, "the state it is in")
	require.Equal(t, 1, audits("checkout_document.deactivated"))
	_, err = e.sign(e.member, api.SignArtifactRequestArtifactKindWaiver, doc.ID, doc.VersionID)
	es := requireErr(t, err, http.StatusConflict, payments.CodeDocumentInactive)
	require.JSONEq(t, `"refresh"`, string(es.Response.Error.Details.AdditionalProps["next_step"]))
	require.Zero(t, e.count(t, "artifact_signatures"), "a refused signature writes nothing")

	// Reactivated at the same version: required again; signing it counts.
	on, err := set(staff, doc.ID, true, "a-4")
	require.NoError(t, err)
	require.True(t, on.Data.Active)
	require.Equal(t, doc.VersionID, on.Data.VersionID)
	require.Equal(t, 1, audits("checkout_document.reactivated"))
	_, err = e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "buy-a-1")
	requireErr(t, err, http.StatusUnprocessableEntity, payments.CodeSignatureRequired)
	_, err = e.sign(e.member, api.SignArtifactRequestArtifactKindWaiver, doc.ID, doc.VersionID)
	require.NoError(t, err)

	// Deactivated again: the purchase goes through without it.
	_, err = set(staff, doc.ID, false, "a-5")
	require.NoError(t, err)
	bought, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "buy-a-2")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, bought.Data.PaymentStatus)
}

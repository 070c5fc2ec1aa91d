package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/artifactsignature"
	"github.com/venueplatform/venue/ent/checkoutdocument"
	"github.com/venueplatform/venue/ent/pass"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
)

func (e *payEnv) sign(c *api.Client, kind api.SignArtifactRequestArtifactKind, doc, version uuid.UUID) (*api.SignArtifactResponse, error) {
	return c.SignCheckoutArtifact(e.ctx, &api.SignArtifactRequest{ArtifactKind: kind, DocumentID: doc, VersionID: version,
		SignatureData: api.NewOptString("Åse Ødegård"), PassTypeSlug: api.NewOptString("ten")},
		api.SignCheckoutArtifactParams{XOrganizationID: e.venue.ID})
}

// TestSignArtifactGatesPurchase: a waiver that applies to every purchase
// refuses the purchase until signed at its current version; a stale version
// is 409 STALE; signing is idempotent per member, document and version; a
// document of another venue or of another kind is refused; a new version
// needs a new signature.
func TestSignArtifactGatesPurchase(t *testing.T) {
	e := newPayEnv(t, false, false)
	c := e.studio.client
	old, cur := uuid.New(), uuid.New()
	waiver := c.CheckoutDocument.Create().SetKind(checkoutdocument.KindWaiver).SetTitle("Waiver").SetVersionID(cur).SaveX(e.op)
	c.CheckoutDocument.Create().SetKind(checkoutdocument.KindContract).SetTitle("Other pass only").SetVersionID(uuid.New()).
		SetPassTypeIds([]string{uuid.NewString()}).SaveX(e.op)

	_, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "art-1")
	es := requireErr(t, err, http.StatusUnprocessableEntity, payments.CodeSignatureRequired)
	require.Contains(t, string(es.Response.Error.Details.AdditionalProps["missing"]), waiver.ID.String())
	require.NotContains(t, string(es.Response.Error.Details.AdditionalProps["missing"]), "contract", "a document of another pass type")
	require.Zero(t, c.Pass.Query().Where(pass.PassTypeID(e.ten.ID)).CountX(e.op))
	require.Empty(t, e.fake.Intents(), "nothing reached Stripe")

	_, err = e.sign(e.member, api.SignArtifactRequestArtifactKindWaiver, waiver.ID, old)
	es = requireErr(t, err, http.StatusConflict, payments.CodeStale)
	require.JSONEq(t, `"`+cur.String()+`"`, string(es.Response.Error.Details.AdditionalProps["current_version_id"]))
	_, err = e.sign(e.member, api.SignArtifactRequestArtifactKindTos, waiver.ID, cur)
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = e.sign(e.member, api.SignArtifactRequestArtifactKindWaiver, uuid.New(), cur)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	other := newStudio(t, "other-art")
	foreign := other.client.CheckoutDocument.Create().SetKind(checkoutdocument.KindWaiver).SetTitle("W").SetVersionID(cur).SaveX(other.op)
	_, err = e.sign(e.member, api.SignArtifactRequestArtifactKindWaiver, foreign.ID, cur)
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")

	s1, err := e.sign(e.member, api.SignArtifactRequestArtifactKindWaiver, waiver.ID, cur)
	require.NoError(t, err)
	require.False(t, s1.Data.AlreadySigned)
	s2, err := e.sign(e.member, api.SignArtifactRequestArtifactKindWaiver, waiver.ID, cur)
	require.NoError(t, err)
	require.True(t, s2.Data.AlreadySigned)
	require.Equal(t, s1.Data.SignatureID, s2.Data.SignatureID)
	require.Equal(t, 1, c.ArtifactSignature.Query().Where(artifactsignature.DocumentID(waiver.ID)).CountX(e.op))

	res, err := e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "art-2")
	require.NoError(t, err)
	require.Equal(t, api.CheckoutPurchasePaymentStatusSucceeded, res.Data.PaymentStatus)

	// A new text: the next purchase needs the new version signed.
	c.CheckoutDocument.UpdateOne(waiver).SetVersionID(uuid.New()).ExecX(e.op)
	_, err = e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "art-3")
	requireErr(t, err, http.StatusUnprocessableEntity, payments.CodeSignatureRequired)
}

// TestSignArtifactMinorNeedsConsent: a member under 18 by the recorded date
// of birth is refused with PARENTAL_CONSENT_REQUIRED and nothing is signed;
// on the 18th birthday the member signs.
func TestSignArtifactMinorNeedsConsent(t *testing.T) {
	e := newPayEnv(t, false, false)
	c := e.studio.client
	doc := c.CheckoutDocument.Create().SetKind(checkoutdocument.KindTos).SetTitle("Terms").SetVersionID(uuid.New()).SaveX(e.op)
	born := time.Now().UTC().AddDate(-18, 0, 1) // 18 tomorrow
	payments.RegisterBirthDates(func(context.Context, *ent.Client, uuid.UUID) (*time.Time, error) { return &born, nil })
	t.Cleanup(func() { payments.RegisterBirthDates(nil) })
	_, err := e.sign(e.member, api.SignArtifactRequestArtifactKindTos, doc.ID, doc.VersionID)
	es := requireErr(t, err, http.StatusConflict, payments.CodeParentalConsent)
	require.Equal(t, "parental_consent_required", es.Response.Error.Details.Reason.Value)
	require.Zero(t, c.ArtifactSignature.Query().CountX(e.op))
	born = time.Now().UTC().AddDate(-18, 0, 0) // 18 today
	_, err = e.sign(e.member, api.SignArtifactRequestArtifactKindTos, doc.ID, doc.VersionID)
	require.NoError(t, err)
}

package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/passtype"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/payments"
)

// TestAdminCheckoutDocuments: staff publish a waiver for the ten-clip card,
// which then gates its purchase; a new version makes the earlier signature
// stale; another venue's pass type and an unknown document are 404; callers
// without the permission are refused and nothing changes.
func TestAdminCheckoutDocuments(t *testing.T) {
	e := newPayEnv(t, false, false)
	staff := e.staffClient(t, "desk@pay.example", payments.PermCheckoutPasses)
	create := func(c *api.Client, req api.AdminCheckoutDocumentCreate, key string) (*api.AdminCheckoutDocumentResponse, error) {
		return c.CreateAdminCheckoutDocument(e.ctx, &req, api.CreateAdminCheckoutDocumentParams{IdempotencyKey: key})
	}
	req := api.AdminCheckoutDocumentCreate{Kind: api.AdminCheckoutDocumentCreateKindWaiver, Title: "Ansvarsfraskrivelse",
		Body: "Jeg træner på eget ansvar.", PassTypeIds: []uuid.UUID{e.ten.ID}}

	_, err := create(e.member, req, "d-0")
	hookErr(t, err, 403, "ACCESS_DENIED")
	_, err = create(e.staffClient(t, "nobody@pay.example"), req, "d-0")
	hookErr(t, err, 403, "ACCESS_DENIED")
	otherOp, _ := e.otherVenue(t, "docs-other")
	foreign := e.studio.client.PassType.Create().SetName("Theirs").SetSlug("theirs").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(100).SetCurrency("DKK").SaveX(otherOp)
	bad := req
	bad.PassTypeIds = []uuid.UUID{foreign.ID}
	_, err = create(staff, bad, "d-1")
	hookErr(t, err, 404, "NOT_FOUND")
	bad = req
	bad.Title = "   "
	_, err = create(staff, bad, "d-2")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	require.Zero(t, e.count(t, "checkout_documents"))

	res, err := create(staff, req, "d-3")
	require.NoError(t, err)
	doc := res.Data
	require.Equal(t, []uuid.UUID{e.ten.ID}, doc.PassTypeIds)
	again, err := create(staff, req, "d-3")
	require.NoError(t, err)
	require.Equal(t, doc.ID, again.Data.ID, "the same key replays")
	list, err := staff.ListAdminCheckoutDocuments(e.ctx)
	require.NoError(t, err)
	require.Len(t, list.Data, 1)
	require.Equal(t, 1, e.studio.client.AuditLog.Query().Where(auditlog.Action("checkout_document.created")).CountX(e.op))

	// The purchase now needs it signed.
	_, err = e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "buy-doc-1")
	requireErr(t, err, http.StatusUnprocessableEntity, payments.CodeSignatureRequired)
	_, err = e.sign(e.member, api.SignArtifactRequestArtifactKindWaiver, doc.ID, doc.VersionID)
	require.NoError(t, err)

	// A new version: the old signature is stale.
	ver, err := staff.CreateAdminCheckoutDocumentVersion(e.ctx, &api.AdminCheckoutDocumentVersion{Body: "Ny tekst."},
		api.CreateAdminCheckoutDocumentVersionParams{ID: doc.ID, IdempotencyKey: "v-1"})
	require.NoError(t, err)
	require.NotEqual(t, doc.VersionID, ver.Data.VersionID)
	require.Equal(t, "Ansvarsfraskrivelse", ver.Data.Title)
	require.Equal(t, "Ny tekst.", ver.Data.Body)
	_, err = e.buy(e.member, e.quote(t, e.member), "pm_card_visa", "buy-doc-2")
	requireErr(t, err, http.StatusUnprocessableEntity, payments.CodeSignatureRequired)
	_, err = e.member.SignCheckoutArtifact(e.ctx, &api.SignArtifactRequest{ArtifactKind: api.SignArtifactRequestArtifactKindWaiver,
		DocumentID: doc.ID, VersionID: uuid.New(), SignatureData: api.NewOptString("x")}, api.SignCheckoutArtifactParams{XOrganizationID: e.venue.ID})
	requireErr(t, err, http.StatusConflict, payments.CodeStale)

	_, err = staff.CreateAdminCheckoutDocumentVersion(e.ctx, &api.AdminCheckoutDocumentVersion{Body: "x"},
		api.CreateAdminCheckoutDocumentVersionParams{ID: uuid.New(), IdempotencyKey: "v-2"})
	hookErr(t, err, 404, "NOT_FOUND")
}

// TestAdminBindingTiersAndBirthDate: tiers set by staff are what checkout
// preview sells; a one-off pass or a repeated month is 400, another
// venue's pass type 404. A recorded birth date under 18 makes signing need
// a parent's consent; a future date is 400 and another venue's member 404.
func TestAdminBindingTiersAndBirthDate(t *testing.T) {
	e := newPayEnv(t, false, false)
	staff := e.staffClient(t, "desk@pay.example", payments.PermCheckoutMembership)
	unlimited := e.studio.client.PassType.Query().Where(passtype.Slug("unlimited")).OnlyX(e.op)
	set := func(id uuid.UUID, key string, tiers ...api.AdminBindingTier) (*api.AdminBindingTiersResponse, error) {
		return staff.SetAdminPassTypeBindingTiers(e.ctx, &api.AdminBindingTiers{Tiers: tiers},
			api.SetAdminPassTypeBindingTiersParams{ID: id, IdempotencyKey: key})
	}
	res, err := set(unlimited.ID, "t-1", api.AdminBindingTier{Months: 12, PriceMinor: 49900}, api.AdminBindingTier{Months: 6, PriceMinor: 54900})
	require.NoError(t, err)
	require.Equal(t, []api.AdminBindingTier{{Months: 6, PriceMinor: 54900}, {Months: 12, PriceMinor: 49900}}, res.Data.Tiers)
	pv, err := e.member.GetCheckoutPreview(e.ctx, api.GetCheckoutPreviewParams{XOrganizationID: e.venue.ID, PassTypeSlug: "unlimited",
		BindingMonths: api.NewOptInt(12)})
	require.NoError(t, err)
	require.Equal(t, int64(49900), pv.Data.ChargedTodayMinor)

	_, err = set(e.ten.ID, "t-2", api.AdminBindingTier{Months: 12, PriceMinor: 1})
	hookErr(t, err, 400, "VALIDATION_ERROR")
	_, err = set(unlimited.ID, "t-3", api.AdminBindingTier{Months: 3, PriceMinor: 1}, api.AdminBindingTier{Months: 3, PriceMinor: 2})
	hookErr(t, err, 400, "VALIDATION_ERROR")
	otherOp, _ := e.otherVenue(t, "tiers-other")
	foreign := e.studio.client.PassType.Create().SetName("Theirs").SetSlug("theirs").SetCategory(passtype.CategoryMembership).
		SetPriceMinor(100).SetCurrency("DKK").SetIsRecurring(true).SaveX(otherOp)
	_, err = set(foreign.ID, "t-4", api.AdminBindingTier{Months: 3, PriceMinor: 1})
	hookErr(t, err, 404, "NOT_FOUND")
	require.Len(t, e.studio.client.PassType.GetX(e.op, unlimited.ID).BindingTiers, 2, "refusals changed nothing")
	cleared, err := set(unlimited.ID, "t-5")
	require.NoError(t, err)
	require.Empty(t, cleared.Data.Tiers)

	// The birth date.
	mid := e.memberID(t, "buyer@pay.example")
	birth := func(id uuid.UUID, d api.NilDate, key string) (*api.AdminMemberBirthDateResponse, error) {
		return staff.SetAdminMemberBirthDate(e.ctx, &api.AdminMemberBirthDate{BirthDate: d},
			api.SetAdminMemberBirthDateParams{ID: id, IdempotencyKey: key})
	}
	_, err = birth(mid, api.NewNilDate(time.Now().AddDate(0, 0, 2)), "b-1")
	hookErr(t, err, 400, "VALIDATION_ERROR")
	en, err := members.Enroll(otherOp, e.studio.client, members.EnrollParams{Email: "far@away.example", FirstName: "F"})
	require.NoError(t, err)
	_, err = birth(en.Member.ID, api.NewNilDate(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)), "b-2")
	hookErr(t, err, 404, "NOT_FOUND")
	_, err = e.member.SetAdminMemberBirthDate(e.ctx, &api.AdminMemberBirthDate{BirthDate: api.NewNilDate(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))},
		api.SetAdminMemberBirthDateParams{ID: mid, IdempotencyKey: "b-3"})
	hookErr(t, err, 403, "ACCESS_DENIED")
	require.Nil(t, e.studio.client.Member.GetX(e.op, mid).BirthDate)

	minor := time.Now().AddDate(-15, 0, 0)
	b, err := birth(mid, api.NewNilDate(minor), "b-4")
	require.NoError(t, err)
	require.Equal(t, minor.Format(time.DateOnly), b.Data.BirthDate.Value.Format(time.DateOnly))
	doc, err := staff.CreateAdminCheckoutDocument(e.ctx, &api.AdminCheckoutDocumentCreate{Kind: api.AdminCheckoutDocumentCreateKindTos,
		Title: "Terms", Body: "Terms."}, api.CreateAdminCheckoutDocumentParams{IdempotencyKey: "d-1"})
	require.NoError(t, err)
	_, err = e.sign(e.member, api.SignArtifactRequestArtifactKindTos, doc.Data.ID, doc.Data.VersionID)
	requireErr(t, err, http.StatusConflict, payments.CodeParentalConsent)
	b, err = birth(mid, api.NilDate{Null: true}, "b-5")
	require.NoError(t, err)
	require.True(t, b.Data.BirthDate.IsNull())
	_, err = e.sign(e.member, api.SignArtifactRequestArtifactKindTos, doc.Data.ID, doc.Data.VersionID)
	require.NoError(t, err, "cleared: no member is taken for a minor")
}

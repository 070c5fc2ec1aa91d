package rule_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/venue"
	"github.com/venueplatform/venue/internal/viewer"
)

// world is one venue with one row of every venue-owned type.
type world struct {
	org uuid.UUID
	ctx context.Context // the venue's operator viewer
	ids map[string]uuid.UUID
}

var t0 = time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC)

// newWorld creates a venue through the production entry points and fills it
// as its own operator.
func newWorld(t *testing.T, client *ent.Client, slug string) *world {
	t.Helper()
	ctx := context.Background()
	v, err := venue.Create(ctx, client, venue.CreateParams{Name: slug, Slug: slug, APIEnabled: true})
	require.NoError(t, err)
	oc := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "test"})
	w := &world{org: v.ID, ctx: oc, ids: map[string]uuid.UUID{"FeatureProvisioning": v.Features.ID}}

	brand := client.Brand.Create().SetName("Brand").SetSlug("brand").SaveX(oc)
	loc := client.Location.Create().SetName("Loc").SaveX(oc)
	room := client.Room.Create().SetName("Room").SetCapacity(10).SetLocationID(loc.ID).SaveX(oc)
	ct := client.ClassType.Create().SetName("Flow").SetBrandID(brand.ID).SaveX(oc)
	ins := client.Instructor.Create().SetFirstName("Mette").SaveX(oc)
	class := client.ClassInstance.Create().SetClassTypeID(ct.ID).SetInstructorID(ins.ID).
		SetLocationID(loc.ID).SetRoomID(room.ID).SetStartTime(t0).SetEndTime(t0.Add(time.Hour)).
		SetCapacity(10).SaveX(oc)
	en, err := members.Enroll(oc, client, members.EnrollParams{Email: slug + "@example.com", FirstName: "Astrid", Role: "staff"})
	require.NoError(t, err)
	pt := client.PassType.Create().SetName("Ten").SetSlug("ten").SetCategory(passtype.CategoryClipCard).
		SetPriceMinor(120000).SetCurrency("DKK").AddAllowedBrandIDs(brand.ID).AddAllowedClassTypeIDs(ct.ID).SaveX(oc)
	pass := client.Pass.Create().SetMemberID(en.Member.ID).SetPassTypeID(pt.ID).SetValidFrom(t0).SaveX(oc)
	bk := client.Booking.Create().SetMemberID(en.Member.ID).SetClassInstanceID(class.ID).SetPassID(pass.ID).SaveX(oc)
	pay := client.Payment.Create().SetMemberID(en.Member.ID).SetPassID(pass.ID).SetAmountMinor(120000).SetCurrency("DKK").SaveX(oc)
	alert := client.Alert.Create().SetTitle("Card reader offline").SaveX(oc)
	key, err := apikey.Create(oc, client, apikey.CreateParams{Name: "key", Scopes: []string{"read:schedule"}})
	require.NoError(t, err)
	entry := client.AuditLog.Create().SetActor("test").SetActorKind(auditlog.ActorKindOperator).
		SetAction("test.created").SetOutcome(auditlog.OutcomeSuccess).SaveX(oc)
	sale := client.FlashSale.Create().SetName("Intro").SetCommercialRule(model.CommercialRule{Version: 2}).
		SetProductFamily(flashsale.ProductFamilyRecurring).SetStartsAt(t0).SetEndsAt(t0.Add(48 * time.Hour)).
		SetPlacements([]string{"public_link"}).SetPresentation(model.Presentation{Style: "clean"}).
		AddApplicablePassTypeIDs(pt.ID).SaveX(oc)

	event := client.Event.Create().SetType("member.created").SetPayload(map[string]any{"member_id": en.Member.ID.String()}).SaveX(oc)
	hours := client.OpeningHours.Create().SetLocationID(loc.ID).SetWeekday(1).SetOpensAt("06:00").SetClosesAt("21:00").SaveX(oc)
	amenity := client.Amenity.Create().SetName("Showers").SetLocationID(loc.ID).SaveX(oc)
	photo := client.Photo.Create().SetURL("https://example.com/p.jpg").SetLocationID(loc.ID).SaveX(oc)
	addon := client.AddonProduct.Create().SetName("Mat rental").SetPriceMinor(2000).SetCurrency("DKK").SaveX(oc)
	gift := client.GiftCard.Create().SetCode("GIFT-" + slug).SetInitialAmountMinor(50000).
		SetRemainingAmountMinor(50000).SetCurrency("DKK").SaveX(oc)

	for typ, id := range map[string]uuid.UUID{
		"OpeningHours": hours.ID, "Amenity": amenity.ID, "Photo": photo.ID, "AddonProduct": addon.ID, "GiftCard": gift.ID,
		"Brand": brand.ID, "Location": loc.ID, "Room": room.ID, "ClassType": ct.ID, "Instructor": ins.ID,
		"ClassInstance": class.ID, "Member": en.Member.ID, "PassType": pt.ID, "Pass": pass.ID,
		"Booking": bk.ID, "Payment": pay.ID, "Alert": alert.ID, "APIKey": key.Key.ID,
		"AuditLog": entry.ID, "Event": event.ID, "FlashSale": sale.ID, "User": en.User.ID,
	} {
		w.ids[typ] = id
	}
	for _, extra := range worldExtras {
		for typ, id := range extra(t, oc, client, w) {
			w.ids[typ] = id
		}
	}
	return w
}

// worldExtras add the rows of types whose tenancy cases live in their own files
// (cases_<area>_test.go, registered from init); each returns the ids it made by type.
var worldExtras []func(t *testing.T, ctx context.Context, client *ent.Client, w *world) map[string]uuid.UUID

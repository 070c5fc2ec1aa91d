package rule_test

import (
	"context"
	"reflect"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/auditlog"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/viewer"
)

// venueCase exercises one venue-owned type. create makes a new row in the
// viewer's venue: with org non-nil it names that venue explicitly, and it
// references the rows of refs. attach points an edge of row id at the rows of
// refs (nil when the type has no edge besides its venue).
type venueCase struct {
	get        func(ctx context.Context, c *ent.Client, id uuid.UUID) error
	update     func(ctx context.Context, c *ent.Client, id uuid.UUID) error
	delete     func(ctx context.Context, c *ent.Client, id uuid.UUID) error
	create     func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error)
	attach     func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error
	appendOnly bool
}

// inVenue names org's venue on a create builder when org is non-nil.
func inVenue[B interface{ SetOrganizationID(uuid.UUID) B }](b B, org *world) B {
	if org == nil {
		return b
	}
	return b.SetOrganizationID(org.org)
}

// saved returns the ID of an entity just saved.
func saved[T any](v *T, err error) (uuid.UUID, error) {
	if err != nil {
		return uuid.Nil, err
	}
	return reflect.ValueOf(v).Elem().FieldByName("ID").Interface().(uuid.UUID), nil
}

func ignore[T any](_ T, err error) error { return err }

var cases = map[string]venueCase{
	"Brand": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Brand.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Brand.UpdateOneID(id).SetName("x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return c.Brand.DeleteOneID(id).Exec(ctx) },
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Brand.Create().SetName("New").SetSlug("new-"+uuid.NewString()[:8]), org).AddPassTypeIDs(refs.ids["PassType"]).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Brand.UpdateOneID(id).AddClassTypeIDs(refs.ids["ClassType"]).Exec(ctx)
		},
	},
	"Location": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Location.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Location.UpdateOneID(id).SetName("x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Location.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Location.Create().SetName("New"), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Location.UpdateOneID(id).AddClassInstanceIDs(refs.ids["ClassInstance"]).Exec(ctx)
		},
	},
	"Room": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Room.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Room.UpdateOneID(id).SetCapacity(12).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return c.Room.DeleteOneID(id).Exec(ctx) },
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Room.Create().SetName("New").SetCapacity(5).SetLocationID(refs.ids["Location"]), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Room.UpdateOneID(id).SetLocationID(refs.ids["Location"]).Exec(ctx)
		},
	},
	"ClassType": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.ClassType.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ClassType.UpdateOneID(id).SetName("x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ClassType.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.ClassType.Create().SetName("New").SetBrandID(refs.ids["Brand"]), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.ClassType.UpdateOneID(id).SetBrandID(refs.ids["Brand"]).Exec(ctx)
		},
	},
	"Instructor": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Instructor.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Instructor.UpdateOneID(id).SetBio("x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Instructor.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Instructor.Create().SetFirstName("New"), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Instructor.UpdateOneID(id).AddClassInstanceIDs(refs.ids["ClassInstance"]).Exec(ctx)
		},
	},
	"ClassInstance": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.ClassInstance.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ClassInstance.UpdateOneID(id).SetCapacity(11).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.ClassInstance.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.ClassInstance.Create().SetClassTypeID(refs.ids["ClassType"]).
				SetInstructorID(refs.ids["Instructor"]).SetRoomID(refs.ids["Room"]).SetLocationID(refs.ids["Location"]).
				SetStartTime(t0).SetEndTime(t0.Add(time.Hour)).SetCapacity(8), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.ClassInstance.UpdateOneID(id).SetRoomID(refs.ids["Room"]).Exec(ctx)
		},
	},
	"Member": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Member.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Member.UpdateOneID(id).SetPermissions([]string{}).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Member.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			// People join a venue through enrolment (a system site that
			// creates the global user); a direct create may relate only a
			// user the venue can already see.
			if own, _ := viewer.VenueFromContext(ctx); own == refs.org && (org == nil || org.org == own) {
				en, err := members.Enroll(ctx, c, members.EnrollParams{Email: uuid.NewString() + "@example.com"})
				if err != nil {
					return uuid.Nil, err
				}
				return en.Member.ID, nil
			}
			return saved(inVenue(c.Member.Create().SetUserID(refs.ids["User"]), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Member.UpdateOneID(id).AddBookingIDs(refs.ids["Booking"]).Exec(ctx)
		},
	},
	"PassType": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.PassType.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PassType.UpdateOneID(id).SetName("x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.PassType.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.PassType.Create().SetName("New").SetSlug("new-"+uuid.NewString()[:8]).
				SetCategory(passtype.CategoryDropIn).SetPriceMinor(15000).SetCurrency("DKK").
				AddAllowedBrandIDs(refs.ids["Brand"]), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.PassType.UpdateOneID(id).AddAllowedClassTypeIDs(refs.ids["ClassType"]).Exec(ctx)
		},
	},
	"Pass": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Pass.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Pass.UpdateOneID(id).SetClipsRemaining(3).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return c.Pass.DeleteOneID(id).Exec(ctx) },
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Pass.Create().SetMemberID(refs.ids["Member"]).SetPassTypeID(refs.ids["PassType"]).
				SetValidFrom(t0), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Pass.UpdateOneID(id).SetPassTypeID(refs.ids["PassType"]).Exec(ctx)
		},
	},
	"Booking": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Booking.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Booking.UpdateOneID(id).SetCheckedInAt(t0).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Booking.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Booking.Create().SetMemberID(refs.ids["Member"]).SetClassInstanceID(refs.ids["ClassInstance"]).
				SetPassID(refs.ids["Pass"]), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Booking.UpdateOneID(id).SetClassInstanceID(refs.ids["ClassInstance"]).Exec(ctx)
		},
	},
	"Payment": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Payment.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Payment.UpdateOneID(id).SetPaidAt(t0).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Payment.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Payment.Create().SetMemberID(refs.ids["Member"]).SetPassID(refs.ids["Pass"]).
				SetAmountMinor(100).SetCurrency("DKK"), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Payment.UpdateOneID(id).SetPassID(refs.ids["Pass"]).Exec(ctx)
		},
	},
	"Alert": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Alert.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Alert.UpdateOneID(id).SetResolved(true).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return c.Alert.DeleteOneID(id).Exec(ctx) },
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Alert.Create().SetTitle("New"), org).Save(ctx))
		},
	},
	"APIKey": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.APIKey.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.APIKey.UpdateOneID(id).SetName("x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.APIKey.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.APIKey.Create().SetName("New").SetPrefix(uuid.NewString()[:10]).SetSecretHash([]byte{1}).
				SetScopes([]string{"read:schedule"}), org).Save(ctx))
		},
	},
	"Event": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Event.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Event.UpdateOneID(id).SetDeliveredAt(t0).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return c.Event.DeleteOneID(id).Exec(ctx) },
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Event.Create().SetType("member.created").SetPayload(map[string]any{"n": 1}), org).Save(ctx))
		},
	},
	"AuditLog": {
		appendOnly: true,
		get:        func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.AuditLog.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.AuditLog.UpdateOneID(id).SetTarget("x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.AuditLog.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.AuditLog.Create().SetActor("t").SetActorKind(auditlog.ActorKindOperator).SetAction("x").
				SetOutcome(auditlog.OutcomeSuccess), org).Save(ctx))
		},
	},
	"FeatureProvisioning": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.FeatureProvisioning.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.FeatureProvisioning.UpdateOneID(id).SetAPIEnabled(false).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.FeatureProvisioning.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			// One row per venue: make room for the new one first.
			if _, err := c.FeatureProvisioning.Delete().Exec(ctx); err != nil {
				return uuid.Nil, err
			}
			return saved(inVenue(c.FeatureProvisioning.Create().SetAPIEnabled(true), org).Save(ctx))
		},
	},
	"FlashSale": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.FlashSale.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.FlashSale.UpdateOneID(id).SetName("x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.FlashSale.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.FlashSale.Create().SetName("New").SetCommercialRule(model.CommercialRule{Version: 2}).
				SetProductFamily(flashsale.ProductFamilyRecurring).SetStartsAt(t0).SetEndsAt(t0.Add(time.Hour)).
				SetPlacements([]string{"pricing_page"}).SetPresentation(model.Presentation{Style: "venue"}).
				AddApplicablePassTypeIDs(refs.ids["PassType"]), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.FlashSale.UpdateOneID(id).AddApplicablePassTypeIDs(refs.ids["PassType"]).Exec(ctx)
		},
	},
	"OpeningHours": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.OpeningHours.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.OpeningHours.UpdateOneID(id).SetClosesAt("22:00").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.OpeningHours.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.OpeningHours.Create().SetWeekday(2).SetOpensAt("07:00").SetClosesAt("20:00").SetLocationID(refs.ids["Location"]), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.OpeningHours.UpdateOneID(id).SetLocationID(refs.ids["Location"]).Exec(ctx)
		},
	},
	"Amenity": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Amenity.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Amenity.UpdateOneID(id).SetName("x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Amenity.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Amenity.Create().SetName("Sauna").SetLocationID(refs.ids["Location"]), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Amenity.UpdateOneID(id).SetLocationID(refs.ids["Location"]).Exec(ctx)
		},
	},
	"Photo": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.Photo.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.Photo.UpdateOneID(id).SetCaption("x").Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return c.Photo.DeleteOneID(id).Exec(ctx) },
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.Photo.Create().SetURL("https://example.com/n.jpg").SetBrandID(refs.ids["Brand"]), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.Photo.UpdateOneID(id).SetLocationID(refs.ids["Location"]).Exec(ctx)
		},
	},
	"AddonProduct": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return ignore(c.AddonProduct.Get(ctx, id))
		},
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.AddonProduct.UpdateOneID(id).SetPriceMinor(2500).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.AddonProduct.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.AddonProduct.Create().SetName("Towel").SetPriceMinor(1000).SetCurrency("DKK"), org).Save(ctx))
		},
	},
	"GiftCard": {
		get: func(ctx context.Context, c *ent.Client, id uuid.UUID) error { return ignore(c.GiftCard.Get(ctx, id)) },
		update: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.GiftCard.UpdateOneID(id).SetRemainingAmountMinor(100).Exec(ctx)
		},
		delete: func(ctx context.Context, c *ent.Client, id uuid.UUID) error {
			return c.GiftCard.DeleteOneID(id).Exec(ctx)
		},
		create: func(ctx context.Context, c *ent.Client, org, refs *world) (uuid.UUID, error) {
			return saved(inVenue(c.GiftCard.Create().SetCode("G-"+uuid.NewString()[:8]).SetInitialAmountMinor(100).
				SetRemainingAmountMinor(100).SetCurrency("DKK").SetPassTypeID(refs.ids["PassType"]), org).Save(ctx))
		},
		attach: func(ctx context.Context, c *ent.Client, id uuid.UUID, refs *world) error {
			return c.GiftCard.UpdateOneID(id).SetPassTypeID(refs.ids["PassType"]).Exec(ctx)
		},
	},
}

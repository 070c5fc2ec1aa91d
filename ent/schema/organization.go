package schema

import (
	"entgo.io/ent"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
)

// Organization is a venue: the tenant every venue-owned row belongs to.
type Organization struct{ ent.Schema }

// Mixin of the Organization.
func (Organization) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the Organization.
func (Organization) Fields() []ent.Field {
	return []ent.Field{
		field.String("name").NotEmpty().MaxLen(200),
		field.String("slug").NotEmpty().MaxLen(100).Unique().Match(slugPattern),
		field.Enum("plan").Values("starter", "pro", "enterprise").Default("pro"),
		field.String("currency").MinLen(3).MaxLen(3).Default("DKK"),
		field.String("timezone").NotEmpty().Default("Europe/Copenhagen"),
		field.String("address").Optional(),
		field.String("city").Optional(),
		field.String("country").Optional().MaxLen(2),
		field.Float("lat").Optional().Nillable().Min(-90).Max(90),
		field.Float("lng").Optional().Nillable().Min(-180).Max(180),
		field.Int("vat_exempt_age_threshold").Optional().Nillable().NonNegative(),
		field.Bool("listed").Default(true),
		field.String("description").Optional(),
		field.String("website").Optional(),
		field.String("email").Optional(),
		field.String("phone").Optional(),
		field.String("logo_url").Optional(),
		field.Enum("world").Values("classes", "treatments", "salon").Default("classes").
			Comment("The discovery world the venue is listed in."),
	}
}

// Indexes of the Organization: the directory's geo search narrows by a
// bounding box on (lat, lng).
func (Organization) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("lat", "lng"), index.Fields("world", "listed"),
		// The directory's text search (catalogue.SearchVenues: ILIKE on
		// name, slug and city) reads the matching venues only.
		index.Fields("name").Annotations(trigram).StorageKey("organization_name_trgm"),
		index.Fields("slug").Annotations(trigram).StorageKey("organization_slug_trgm"),
		index.Fields("city").Annotations(trigram).StorageKey("organization_city_trgm"),
	}
}

// FeatureProvisioning holds a venue's feature flags: API access
// (feature_provisioning.api_enabled) and the modules the venue runs.
type FeatureProvisioning struct{ ent.Schema }

// Mixin of the FeatureProvisioning.
func (FeatureProvisioning) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}, VenueMixin{}} }

// Fields of the FeatureProvisioning.
func (FeatureProvisioning) Fields() []ent.Field {
	return []ent.Field{
		field.Bool("api_enabled").Default(false),
		field.JSON("modules", map[string]bool{}).Optional().
			Annotations(jsonObject("Module flags by module name.")),
	}
}

// Indexes of the FeatureProvisioning: one row per venue.
func (FeatureProvisioning) Indexes() []ent.Index {
	return []ent.Index{index.Fields("organization_id").Unique().StorageKey("featureprovisioning_organization_unique")}
}

// PlatformSetting is a platform-wide switch such as the emergency kill switch.
// It belongs to no venue and only system call sites change it.
type PlatformSetting struct{ ent.Schema }

// Mixin of the PlatformSetting.
func (PlatformSetting) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the PlatformSetting.
func (PlatformSetting) Fields() []ent.Field {
	return []ent.Field{
		field.String("key").NotEmpty().Unique(),
		field.Bool("enabled").Default(false),
		field.String("changed_by").Optional(),
	}
}

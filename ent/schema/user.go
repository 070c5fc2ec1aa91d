package schema

import (
	"entgo.io/contrib/entoas"
	"entgo.io/ent"
	"entgo.io/ent/dialect/entsql"
	"entgo.io/ent/schema/edge"
	"entgo.io/ent/schema/field"
	"entgo.io/ent/schema/index"
	"github.com/google/uuid"
)

// uuidType is the Go type of every id.
var uuidType = uuid.UUID{}

// trigram makes an index a GIN trigram index, for ILIKE '%term%' search that
// stays fast at a million rows.
var trigram = entsql.IndexAnnotation{Type: "GIN", OpClass: "gin_trgm_ops"}

// User is a person with one global account; a venue sees a user only through
// the Member relationship.
type User struct{ ent.Schema }

// Mixin of the User.
func (User) Mixin() []ent.Mixin { return []ent.Mixin{BaseMixin{}} }

// Fields of the User.
func (User) Fields() []ent.Field {
	return []ent.Field{
		field.String("email").NotEmpty().MaxLen(320).Unique(),
		field.String("first_name").Default("").MaxLen(100),
		field.String("last_name").Default("").MaxLen(100),
		field.String("phone").Optional(),
		field.String("password_hash").Optional().Sensitive(),
		field.Enum("account_state").Values("active", "password_never_used", "imported_unclaimed").Default("active"),
		field.String("country").Optional().MaxLen(2),
		field.String("city").Optional(),
		field.Bool("marketing_consent").Default(false),
	}
}

// Edges of the User.
func (User) Edges() []ent.Edge {
	return []ent.Edge{
		edge.To("members", Member.Type),
		edge.To("sessions", Session.Type),
		edge.To("auth_codes", AuthCode.Type),
	}
}

// Indexes of the User: trigram indexes for member search by name and email.
func (User) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("email").Annotations(trigram).StorageKey("user_email_trgm"),
		index.Fields("first_name").Annotations(trigram),
		index.Fields("last_name").Annotations(trigram),
	}
}

// Member is the user–venue relationship: a member, staff or owner of one venue.
type Member struct{ ent.Schema }

// Mixin of the Member.
func (Member) Mixin() []ent.Mixin {
	return []ent.Mixin{BaseMixin{}, VenueMixin{}, ImportRefMixin{}}
}

// Fields of the Member.
func (Member) Fields() []ent.Field {
	return []ent.Field{
		field.UUID("user_id", uuidType).Immutable(),
		field.Enum("role").Values("member", "staff", "owner").Default("member"),
		field.Enum("status").Values("active", "inactive", "blocked").Default("active"),
		field.String("client_display_id").Optional().Nillable().MaxLen(64),
		field.Strings("permissions").Optional(),
		field.Time("joined_at").Optional(),
		field.Time("birth_date").Optional().Nillable().SchemaType(dateType).
			Comment("The member's date of birth as the venue recorded it; decides the VAT age exemption of a sale."),
		// The search columns are written by the database (the trigger of
		// migration member_search_trigger) from the member's user and client
		// display id, on every insert and on every change of either, so every
		// writer (ent, the importer, COPY) keeps them in step. Names are
		// normalised (venue_search_norm: accents folded, lower case, white
		// space collapsed): search_first is "first last", search_last "last
		// first"; search_email the email, search_client the client display id
		// (both normalised), search_phone the phone's digits reversed, so a
		// prefix of it is the end of the number.
		field.String("search_first").Optional().Immutable().Annotations(entoas.Skip(true)),
		field.String("search_last").Optional().Immutable().Annotations(entoas.Skip(true)),
		field.String("search_email").Optional().Immutable().Annotations(entoas.Skip(true)),
		field.String("search_phone").Optional().Immutable().Annotations(entoas.Skip(true)),
		field.String("search_client").Optional().Immutable().Annotations(entoas.Skip(true)),
	}
}

// Edges of the Member.
func (Member) Edges() []ent.Edge {
	return []ent.Edge{
		edge.From("user", User.Type).Ref("members").Field("user_id").Unique().Required().Immutable(),
		edge.To("passes", Pass.Type),
		edge.To("bookings", Booking.Type),
		edge.To("payments", Payment.Type),
	}
}

// Indexes of the Member.
func (Member) Indexes() []ent.Index {
	return []ent.Index{
		index.Fields("organization_id", "user_id").Unique(),
		index.Fields("organization_id", "client_display_id").Unique(),
		index.Fields("client_display_id").Annotations(trigram),
		// Member search (package members): prefixes of each search column in
		// byte order within a venue, so a page of matches is a page of index
		// entries.
		index.Fields("organization_id", "search_first", "id").
			Annotations(entsql.OpClassColumn("search_first", "text_pattern_ops")).StorageKey("member_search_first"),
		index.Fields("organization_id", "search_last", "id").
			Annotations(entsql.OpClassColumn("search_last", "text_pattern_ops")).StorageKey("member_search_last"),
		index.Fields("organization_id", "search_email", "id").
			Annotations(entsql.OpClassColumn("search_email", "text_pattern_ops")).StorageKey("member_search_email"),
		index.Fields("organization_id", "search_phone", "id").
			Annotations(entsql.OpClassColumn("search_phone", "text_pattern_ops")).StorageKey("member_search_phone"),
		index.Fields("organization_id", "search_client", "id").
			Annotations(entsql.OpClassColumn("search_client", "text_pattern_ops")).StorageKey("member_search_client"),
		index.Fields("user_id"),
	}
}

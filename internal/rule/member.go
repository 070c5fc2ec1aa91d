package rule

import (
	"context"
	"reflect"
	"slices"
	"strings"

	"entgo.io/ent"
	"entgo.io/ent/entql"
	"github.com/google/uuid"

	gen "github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/privacy"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// memberField is the owner column of a member-owned entity.
const memberField = "member_id"

// MemberOwnedTypes are the venue-owned entities whose rows belong to one
// member and that a member viewer (a user acting in the venue as its member,
// viewer.User.MemberID) sees and changes only for itself. Staff, API keys
// and operators are judged by the venue rules as before.
//
// A member's booking flow still has to reach other members' bookings at a
// few steps, each a named site bound to the class the caller locked in the
// viewer's venue. Three are members sites (system.CrossMembers), which lift
// only this member wall for Booking and leave the venue rules in force: the
// rank of a new waitlist place (booking.waitlist_rank), the move-up of the
// places behind one that was left (booking.waitlist_gap) and a buddy
// invitation's check that the invitee holds no booking of the class
// (booking.buddy_invitee). Promotion after a cancel, which charges the
// promoted members' passes whoever cancelled, is the bypass site
// booking.waitlist_promotion. A class's booked and waitlist counts are kept on
// the class row by a database trigger, so no member reads other members'
// bookings to learn whether a class is full.
var MemberOwnedTypes = []string{"Pass", "Payment", "NotificationDelivery", "Booking", "Checkout", "PaymentCustomer", "Tip", "GiftCardOrder", "MemberCredit", "Appointment", "Visit", "Refund", "Subscription", "Invoice", "GuestInvite", "ArtifactSignature", "Feedback", "DeskCharge", "LateFee", "PromoRedemption", "PassShare", "RateLock", "LoyaltyPrice"}

// FilterOwnMember limits queries, updates and deletes of a member-owned
// entity by a member viewer to the rows of that member; every other viewer
// and entity is left to the next rules, and so is a type a members site of
// the context lists (system.CrossMembers). A members site never lifts the
// create rule (DenyOtherMembersCreate).
func FilterOwnMember() privacy.QueryMutationRule {
	type memberFilter interface{ WhereMemberID(entql.ValueP) }
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		id, ok := actingMember(ctx)
		typ := filterType(f)
		if !ok || !slices.Contains(MemberOwnedTypes, typ) {
			return privacy.Skip
		}
		if _, crosses := system.CrossesMembers(ctx, typ); crosses {
			return privacy.Skip
		}
		mf, ok := f.(memberFilter)
		if !ok {
			return privacy.Denyf("unexpected filter type %T", f)
		}
		mf.WhereMemberID(entql.ValueEQ(id))
		return privacy.Skip
	})
}

// DenyOtherMembersCreate refuses a member viewer's create of a member-owned
// row for another member, as not found (like a foreign reference).
func DenyOtherMembersCreate() privacy.MutationRule {
	return privacy.MutationRuleFunc(func(ctx context.Context, m ent.Mutation) error {
		id, ok := actingMember(ctx)
		if !ok || !m.Op().Is(ent.OpCreate) || !slices.Contains(MemberOwnedTypes, m.Type()) {
			return privacy.Skip
		}
		if owner, set := m.Field(memberField); !set || owner != id {
			return gen.NewNotFoundError("member")
		}
		return privacy.Skip
	})
}

func actingMember(ctx context.Context) (uuid.UUID, bool) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return uuid.Nil, false
	}
	return u.ActingMember()
}

// filterType names the entity type of an entql filter (PassFilter → Pass).
func filterType(f privacy.Filter) string {
	t := reflect.TypeOf(f)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.TrimSuffix(t.Name(), "Filter")
}

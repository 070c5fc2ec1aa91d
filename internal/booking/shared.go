package booking

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passshare"
	"github.com/venueplatform/venue/internal/system"
)

// ReasonShareCap is the refusal of a shared pass whose monthly cap of
// bookings is used up.
const ReasonShareCap = "share_cap_reached"

// Passes shared with a member (package billing's pass shares): the member
// books with another member's pass, whose clips the booking takes; a share's
// monthly cap bounds the recipient's bookings with it per venue-local
// calendar month of the class. A member's own passes are always chosen
// first; a shared pass only when none of them can book the class.

// sharedSite lifts the member wall for Pass only: the owner's pass of a
// share the caller holds, to check it, take or give back its clip and
// point the caller's booking at it.
const sharedSite = "booking.shared_pass"

// withSharedPasses is the context in which a member reaches the passes
// shared with it.
func withSharedPasses(ctx context.Context) context.Context {
	return system.CrossMembers(ctx, sharedSite)
}

// claimInvites turns the open invites of the member's own e-mail address into
// its shares: an invite is claimed by the first booking of the person it
// was sent to once they are a member (and when they join the venue).
func claimInvites(ctx context.Context, c *ent.Client, memberID uuid.UUID) error {
	m, err := c.Member.Query().Where(member.ID(memberID)).WithUser().Only(ctx)
	if err != nil || m.Edges.User == nil {
		return nil
	}
	return ClaimShareInvites(ctx, c, memberID, m.Edges.User.Email)
}

// ClaimShareInvites makes every open invite of email in the viewer's venue a
// share of memberID (a members site: the invites name no member yet).
func ClaimShareInvites(ctx context.Context, c *ent.Client, memberID uuid.UUID, email string) error {
	if email == "" {
		return nil
	}
	ctx = system.CrossMembers(ctx, "booking.share_claim")
	err := c.PassShare.Update().Where(passshare.StatusEQ(passshare.StatusInvited), passshare.Email(email),
		passshare.MemberIDIsNil(), passshare.OwnerMemberIDNEQ(memberID)).
		SetStatus(passshare.StatusActive).SetMemberID(memberID).SetClaimedAt(time.Now()).Exec(ctx)
	if err != nil {
		return fmt.Errorf("booking: claim share invites: %w", err)
	}
	return nil
}

// sharedPasses returns the passes shared with member (only: the one named)
// that can still book in the class's month, loaded like memberPasses, and
// whether a share was left out for its used-up cap.
func sharedPasses(ctx context.Context, c *ent.Client, memberID uuid.UUID, only *uuid.UUID, ci classInfo, loc *time.Location) ([]*ent.Pass, bool, error) {
	if err := claimInvites(ctx, c, memberID); err != nil {
		return nil, false, err
	}
	q := c.PassShare.Query().Where(passshare.MemberID(memberID), passshare.StatusEQ(passshare.StatusActive))
	if only != nil {
		q.Where(passshare.PassID(*only))
	}
	shares, err := q.All(ctx)
	if err != nil || len(shares) == 0 {
		return nil, false, err
	}
	y, mo, _ := ci.class.StartTime.In(loc).Date()
	from := time.Date(y, mo, 1, 0, 0, 0, 0, loc)
	to := from.AddDate(0, 1, 0)
	capped := false
	var ids []uuid.UUID
	for _, s := range shares {
		if s.MonthlyCap != nil {
			n, err := c.Booking.Query().Where(entbooking.MemberID(memberID), entbooking.PassID(s.PassID),
				entbooking.StatusNotIn(entbooking.StatusCancelled),
				entbooking.HasClassInstanceWith(classinstance.StartTimeGTE(from), classinstance.StartTimeLT(to))).Count(ctx)
			if err != nil {
				return nil, false, fmt.Errorf("booking: share cap: %w", err)
			}
			if n >= *s.MonthlyCap {
				capped = true
				continue
			}
		}
		ids = append(ids, s.PassID)
	}
	if len(ids) == 0 {
		return nil, capped, nil
	}
	ps, err := c.Pass.Query().Where(pass.IDIn(ids...), pass.MemberIDNEQ(memberID)).
		WithPassType(func(q *ent.PassTypeQuery) { q.WithAllowedBrands().WithAllowedClassTypes() }).
		Order(ent.Asc(pass.FieldCreatedAt), ent.Asc(pass.FieldID)).All(withSharedPasses(ctx))
	if err != nil {
		return nil, false, fmt.Errorf("booking: shared passes: %w", err)
	}
	return ps, capped, nil
}

// chooseShared is choosePass among the passes shared with the member, for a
// booking none of its own passes can make: the pass (nil when none is
// shared) or the most specific refusal.
func chooseShared(ctx context.Context, c *ent.Client, memberID uuid.UUID, only *uuid.UUID, ci classInfo, loc *time.Location) (*ent.Pass, error) {
	ps, capped, err := sharedPasses(ctx, c, memberID, only, ci, loc)
	if err != nil {
		return nil, withCause(errRestrictionUnverify, err)
	}
	if len(ps) == 0 {
		if capped {
			return nil, passNotUsable(ReasonShareCap)
		}
		return nil, nil
	}
	return choosePass(ps, ci, only != nil)
}

package viewer

import (
	"context"
	"slices"
	"time"

	"github.com/google/uuid"
)

// User is a signed-in person: a member, staff or owner, acting through a
// session's bearer token. Org is the session's active organization, set only
// when the user chose a workspace they work in (staff or owner); a member
// relationship is not selectable, so a plain member acts in no venue and the
// venue wall keeps them out of every venue's private rows.
type User struct {
	UserID    uuid.UUID
	SessionID uuid.UUID
	// Org is the active organization, or uuid.Nil.
	Org uuid.UUID
	// Role is the user's role in Org (staff or owner), "" without one.
	Role string
	// Permissions are the staff permissions in Org.
	Permissions []string
	// MemberID is set when the user acts in Org as its member (a client,
	// not staff): the ent policies then hold the member-owned entities to
	// the rows of this member.
	MemberID uuid.UUID
	// MFA is true once the session passed a second factor; StepUpAt is when.
	MFA      bool
	StepUpAt time.Time
}

// Venue implements Viewer.
func (u User) Venue() (uuid.UUID, bool) { return u.Org, u.Org != uuid.Nil }

// ReadOnly implements Viewer: a user writes, within what the policies allow.
func (User) ReadOnly() bool { return false }

// Actor implements Viewer.
func (u User) Actor() string { return "user:" + u.UserID.String() }

// HasPermission reports whether the user holds permission in the active
// organization. Owners hold every permission.
func (u User) HasPermission(permission string) bool {
	return u.Org != uuid.Nil && (u.Role == "owner" || slices.Contains(u.Permissions, permission))
}

// DefaultStepUpAge is how recent a second-factor check must be for an
// operation that requires step-up and names no age of its own.
const DefaultStepUpAge = 10 * time.Minute

// SteppedUp reports whether the session passed its second factor within
// maxAge (0: DefaultStepUpAge) of now. It is a fact of the session the face
// verified, so domain checks read it here instead of asking the face.
func (u User) SteppedUp(now time.Time, maxAge time.Duration) bool {
	if maxAge <= 0 {
		maxAge = DefaultStepUpAge
	}
	return u.MFA && !u.StepUpAt.IsZero() && now.Sub(u.StepUpAt) <= maxAge
}

// ActingMember returns the member the user acts as in Org, if any.
func (u User) ActingMember() (uuid.UUID, bool) {
	return u.MemberID, u.Org != uuid.Nil && u.MemberID != uuid.Nil
}

// UserFromContext returns the user viewer of ctx, if the caller is one.
func UserFromContext(ctx context.Context) (User, bool) {
	u, ok := FromContext(ctx).(User)
	return u, ok
}

package members

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/user"
)

// ErrNotStaff means the person is not staff or owner of the viewer's venue.
var ErrNotStaff = errors.New("members: not a staff member of this venue")

// ChangePermissions grants add and revokes remove on the staff member with
// email in the viewer's venue, and returns the member with its permissions
// in registry order. Permissions must come from scope.ParsePermissions.
func ChangePermissions(ctx context.Context, client *ent.Client, email string, add, remove []string) (*ent.Member, error) {
	norm, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	m, err := client.Member.Query().
		Where(member.HasUserWith(user.EmailEQ(norm)), member.RoleIn(member.RoleStaff, member.RoleOwner)).
		Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrNotStaff
	}
	if err != nil {
		return nil, fmt.Errorf("find staff member: %w", err)
	}
	perms := slices.Clone(m.Permissions)
	for _, p := range add {
		if !slices.Contains(perms, p) {
			perms = append(perms, p)
		}
	}
	perms = slices.DeleteFunc(perms, func(p string) bool { return slices.Contains(remove, p) })
	slices.Sort(perms)
	return m.Update().SetPermissions(perms).Save(ctx)
}

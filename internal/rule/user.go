package rule

import (
	"context"

	"entgo.io/ent/entql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent/privacy"
	"github.com/venueplatform/venue/internal/viewer"
)

// FilterSelf lets a user viewer outside any workspace see and change their
// own account row only, and decides (Allow) for them; other viewers (and a
// user acting in a workspace, who is a member of it) are left to the next
// rules.
func FilterSelf() privacy.QueryMutationRule {
	type idFilter interface{ WhereID(entql.ValueP) }
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		u, ok := viewer.UserFromContext(ctx)
		if !ok || u.Org != uuid.Nil {
			return privacy.Skip
		}
		idf, ok := f.(idFilter)
		if !ok {
			return privacy.Denyf("unexpected filter type %T", f)
		}
		idf.WhereID(entql.ValueEQ(u.UserID))
		return privacy.Allow
	})
}

// FilterOwnRows limits a user-owned global entity (sessions, refresh tokens,
// codes) to the rows of the user viewer; every other viewer is denied. The
// authentication flows that act before a user viewer exists use named
// system sites.
func FilterOwnRows() privacy.QueryMutationRule {
	type userFilter interface{ WhereUserID(entql.ValueP) }
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		u, ok := viewer.UserFromContext(ctx)
		if !ok {
			return privacy.Denyf("not a user viewer")
		}
		uf, ok := f.(userFilter)
		if !ok {
			return privacy.Denyf("unexpected filter type %T", f)
		}
		uf.WhereUserID(entql.ValueEQ(u.UserID))
		return privacy.Skip
	})
}

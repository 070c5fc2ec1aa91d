package rule

import (
	"context"
	"fmt"

	"entgo.io/ent"
	"entgo.io/ent/entql"
	"github.com/google/uuid"

	gen "github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/predicate"
	"github.com/venueplatform/venue/ent/privacy"
	"github.com/venueplatform/venue/internal/viewer"
)

// Write operations that a filter applies to (creates cannot be filtered).
const filterableOps = ent.OpUpdate | ent.OpUpdateOne | ent.OpDelete | ent.OpDeleteOne

// DenyIfNoViewer denies queries and mutations without a viewer in the context.
func DenyIfNoViewer() privacy.QueryMutationRule {
	return privacy.ContextQueryMutationRule(func(ctx context.Context) error {
		if viewer.FromContext(ctx) == nil {
			return privacy.Denyf("no viewer in context")
		}
		return privacy.Skip
	})
}

// DenyIfReadOnly denies mutations by viewers that may only read.
func DenyIfReadOnly() privacy.MutationRule {
	return privacy.MutationRuleFunc(func(ctx context.Context, _ ent.Mutation) error {
		if v := viewer.FromContext(ctx); v != nil && v.ReadOnly() {
			return privacy.Denyf("viewer is read-only")
		}
		return privacy.Skip
	})
}

// FilterVenue limits queries, updates and deletes of a venue-owned entity to
// the viewer's venue. A viewer without a venue is denied.
func FilterVenue() privacy.QueryMutationRule {
	type venueFilter interface {
		WhereOrganizationID(entql.ValueP)
	}
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		org, ok := viewer.VenueFromContext(ctx)
		if !ok {
			return privacy.Denyf("viewer has no venue")
		}
		vf, ok := f.(venueFilter)
		if !ok {
			return privacy.Denyf("unexpected filter type %T", f)
		}
		vf.WhereOrganizationID(entql.ValueEQ(org))
		return privacy.Skip
	})
}

// FilterOwnVenue limits queries and updates of organizations to the viewer's
// own venue.
func FilterOwnVenue() privacy.QueryMutationRule {
	type idFilter interface{ WhereID(entql.ValueP) }
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		org, ok := viewer.VenueFromContext(ctx)
		if !ok {
			return privacy.Denyf("viewer has no venue")
		}
		idf, ok := f.(idFilter)
		if !ok {
			return privacy.Denyf("unexpected filter type %T", f)
		}
		idf.WhereID(entql.ValueEQ(org))
		return privacy.Skip
	})
}

// FilterUsersOfVenue limits users to those with a relationship (Member) in the
// viewer's venue: a venue never sees another venue's people.
func FilterUsersOfVenue() privacy.QueryMutationRule {
	type memberFilter interface {
		WhereHasMembersWith(...predicate.Member)
	}
	return privacy.FilterFunc(func(ctx context.Context, f privacy.Filter) error {
		org, ok := viewer.VenueFromContext(ctx)
		if !ok {
			return privacy.Denyf("viewer has no venue")
		}
		mf, ok := f.(memberFilter)
		if !ok {
			return privacy.Denyf("unexpected filter type %T", f)
		}
		mf.WhereHasMembersWith(member.OrganizationID(org))
		return privacy.Skip
	})
}

// OnWrites applies rule to updates and deletes only.
func OnWrites(rule privacy.MutationRule) privacy.MutationRule {
	return privacy.OnMutationOperation(rule, filterableOps)
}

// AllowIfVenueViewer allows the mutation when the viewer acts in a venue.
func AllowIfVenueViewer() privacy.MutationRule {
	return privacy.MutationRuleFunc(func(ctx context.Context, _ ent.Mutation) error {
		if _, ok := viewer.VenueFromContext(ctx); ok {
			return privacy.Allow
		}
		return privacy.Skip
	})
}

// DenyForeignReferences refuses a create or update that points an edge at a
// row the viewer cannot see: privacy filters do not apply to the rows a
// mutation references, so venue A could otherwise book a seat in venue B's
// class. The refusal is a not-found error, exactly like an unknown id.
func DenyForeignReferences() privacy.MutationRule {
	type clientMutation interface{ Client() *gen.Client }
	return privacy.MutationRuleFunc(func(ctx context.Context, m ent.Mutation) error {
		cm, ok := m.(clientMutation)
		if !ok {
			return privacy.Denyf("unexpected mutation type %T", m)
		}
		for _, edge := range m.AddedEdges() {
			target, ok := gen.EdgeTarget(m.Type(), edge)
			if !ok {
				return privacy.Denyf("unknown edge %s.%s", m.Type(), edge)
			}
			ids, err := distinctIDs(m.AddedIDs(edge))
			if err != nil {
				return privacy.Denyf("%s.%s: %v", m.Type(), edge, err)
			}
			if len(ids) == 0 {
				continue
			}
			n, err := cm.Client().CountVisible(ctx, target, ids)
			if err != nil {
				return fmt.Errorf("check %s.%s: %w", m.Type(), edge, err)
			}
			if n != len(ids) {
				return gen.NewNotFoundError(snake(target))
			}
		}
		return privacy.Skip
	})
}

func distinctIDs(values []ent.Value) ([]uuid.UUID, error) {
	seen := make(map[uuid.UUID]bool, len(values))
	ids := make([]uuid.UUID, 0, len(values))
	for _, v := range values {
		id, ok := v.(uuid.UUID)
		if !ok {
			return nil, fmt.Errorf("id of type %T", v)
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, nil
}

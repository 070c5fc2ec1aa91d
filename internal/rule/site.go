package rule

import (
	"context"
	"reflect"
	"strings"

	"entgo.io/ent"

	"github.com/venueplatform/venue/ent/privacy"
	"github.com/venueplatform/venue/internal/system"
)

// AllowSystemSite is the first rule of every entity's policy: a context from
// a bypass site (system.Allow) is allowed to query and change exactly the
// entity types the site lists in the registry. Any other type is left to the
// rules after it, which judge the viewer as usual (and deny a context without
// one): a site widens what its caller may touch by its list and by nothing
// else, so code running on a site's context cannot reach further than the
// site said, yet keeps what its own viewer may do.
func AllowSystemSite() privacy.QueryMutationRule { return siteRule{} }

type siteRule struct{}

// EvalQuery implements privacy.QueryRule.
func (siteRule) EvalQuery(ctx context.Context, q ent.Query) error {
	return siteDecision(ctx, queryType(q))
}

// EvalMutation implements privacy.MutationRule.
func (siteRule) EvalMutation(ctx context.Context, m ent.Mutation) error {
	return siteDecision(ctx, m.Type())
}

func siteDecision(ctx context.Context, typ string) error {
	if _, ok := system.Permits(ctx, typ); ok {
		return privacy.Allow
	}
	return privacy.Skip
}

// queryType names the entity type of q (BookingQuery → Booking). It reads the
// query value rather than ent.QueryFromContext: an eager load (WithX) and the
// parent of an edge traversal (QueryX) evaluate their policies under the
// outer query's context, whose type is the outer entity's.
func queryType(q ent.Query) string {
	t := reflect.TypeOf(q)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.TrimSuffix(t.Name(), "Query")
}

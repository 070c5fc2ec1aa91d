package schema

import (
	"encoding/json"

	"entgo.io/contrib/entoas"
	"github.com/ogen-go/ogen"
)

// APIShape publishes an entity's read shape as a component of
// spec/ent.gen.json, which spec/api.yaml $refs where the REST API answers the
// entity as it is stored (internal/gen/entc renders it, and a mapper from the
// ent row to the API type in internal/gen/apient). Entities without it publish
// nothing, so no component goes unused. The entity's own fields leave the
// component with entoas.Skip; Omit names the inherited (mixin) fields it
// leaves out, since a mixin's annotations are shared by every entity.
type APIShape struct {
	// Component is the component's name where the API's differs from the
	// entity's.
	Component string `json:"component,omitempty"`
	// Omit names inherited fields the component leaves out.
	Omit []string `json:"omit,omitempty"`
}

// Name implements schema.Annotation.
func (APIShape) Name() string { return "APIShape" }

// internalColumns are the mixin columns that no entity shape on the wire
// carries: the venue is the caller's, and the timestamps are bookkeeping.
var internalColumns = []string{"created_at", "updated_at", "organization_id"}

// stringEnum publishes a string column that holds one of a closed set of
// values as an enum, where the column itself stays a plain string.
func stringEnum(values ...string) entoas.Annotation {
	vs := make([]json.RawMessage, len(values))
	for i, v := range values {
		vs[i], _ = json.Marshal(v)
	}
	return entoas.Schema(ogen.String().AsEnum(nil, vs...))
}

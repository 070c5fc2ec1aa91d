package migrations

import (
	"slices"

	atlas "ariga.io/atlas/sql/schema"
	entschema "entgo.io/ent/dialect/sql/schema"
)

// HandWrittenConstraints are the constraints the hand-written migrations add
// that ent cannot express (exclusion constraints, checks across columns).
// Diffing ent/schema against the database would drop them; KeepHandWritten
// leaves them alone.
var HandWrittenConstraints = []string{
	"appointments_provider_no_overlap",
	"appointments_room_no_overlap",
	"appointments_busy_span",
	"products_stock_non_negative",
	"staff_shifts_no_overlap",
	"staff_shifts_positive",
}

// KeepHandWritten is the diff hook of every comparison of ent/schema with the
// migrations (the migration writer, the tests): it removes the drops of
// HandWrittenConstraints from the changes.
func KeepHandWritten(next entschema.Differ) entschema.Differ {
	return entschema.DiffFunc(func(current, desired *atlas.Schema) ([]atlas.Change, error) {
		changes, err := next.Diff(current, desired)
		if err != nil {
			return nil, err
		}
		out := changes[:0]
		for _, c := range changes {
			if m, ok := c.(*atlas.ModifyTable); ok {
				m.Changes = slices.DeleteFunc(m.Changes, handWrittenDrop)
				if len(m.Changes) == 0 {
					continue
				}
			}
			out = append(out, c)
		}
		return out, nil
	})
}

func handWrittenDrop(c atlas.Change) bool {
	switch c := c.(type) {
	case *atlas.DropIndex:
		return slices.Contains(HandWrittenConstraints, c.I.Name)
	case *atlas.DropCheck:
		return slices.Contains(HandWrittenConstraints, c.C.Name)
	}
	return false
}

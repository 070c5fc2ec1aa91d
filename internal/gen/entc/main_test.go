package main

import (
	"encoding/json"
	"testing"

	"entgo.io/ent/entc/gen"
	"entgo.io/ent/schema/field"
	"github.com/stretchr/testify/require"
)

func testType(annotations gen.Annotations) *gen.Type {
	return &gen.Type{
		Name: "Thing",
		ID:   &gen.Field{Name: "id", Type: &field.TypeInfo{Type: field.TypeUUID, Ident: "uuid.UUID", PkgPath: "github.com/google/uuid"}},
		Fields: []*gen.Field{
			{Name: "name", Type: &field.TypeInfo{Type: field.TypeString}},
			{Name: "closed_at", Type: &field.TypeInfo{Type: field.TypeTime}, Optional: true, Nillable: true},
			{Name: "organization_id", Type: &field.TypeInfo{Type: field.TypeUUID, Ident: "uuid.UUID", PkgPath: "github.com/google/uuid"}},
		},
		Annotations: annotations,
	}
}

// An entity publishes nothing unless it opts in, so no component goes unused.
func TestPublishedNeedsAPIShape(t *testing.T) {
	c, err := published(testType(nil))
	require.NoError(t, err)
	require.Nil(t, c)
}

// The read shape: every field present (required), a nillable one as its
// schema or null, omitted inherited fields left out, the name overridable.
func TestReadShape(t *testing.T) {
	c, err := published(testType(gen.Annotations{apiShapeName: map[string]any{
		"component": "Gadget", "omit": []any{"organization_id"},
	}}))
	require.NoError(t, err)
	require.Equal(t, "Gadget", c.Name)
	s, err := readShape(c.Fields)
	require.NoError(t, err)
	got, err := json.Marshal(s)
	require.NoError(t, err)
	require.JSONEq(t, `{
		"type": "object",
		"properties": {
			"id": {"type": "string", "format": "uuid"},
			"name": {"type": "string"},
			"closed_at": {"oneOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]}
		},
		"required": ["id", "name", "closed_at"]
	}`, string(got))
}

// A typo in Omit fails generation instead of publishing the field.
func TestPublishedRejectsUnknownOmit(t *testing.T) {
	_, err := published(testType(gen.Annotations{apiShapeName: map[string]any{"omit": []any{"organisation_id"}}}))
	require.ErrorContains(t, err, `omits unknown field "organisation_id"`)
}

// The mapper converts to the Go type ogen gives the published schema.
func TestMapField(t *testing.T) {
	n := testType(nil)
	mf, err := mapField("Thing", n.Fields[1])
	require.NoError(t, err)
	require.Equal(t, mapperField{GoName: "ClosedAt", Expr: "(*e.ClosedAt).UTC()", NilType: "NilDateTime"}, mf)
	mf, err = mapField("Thing", n.ID)
	require.NoError(t, err)
	require.Equal(t, mapperField{GoName: "ID", Expr: "e.ID", NilType: "NilUUID"}, mf)
	_, err = mapField("Thing", &gen.Field{Name: "blob", Type: &field.TypeInfo{Type: field.TypeBytes}})
	require.ErrorContains(t, err, "no API mapping")
}

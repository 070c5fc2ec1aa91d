package main

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/gen/openapi"
)

// TestNoUnusedEntityComponents fails when spec/ent.gen.json publishes a
// component that the bundled document never references: an entity publishes
// its shape (ent/schema APIShape) only where the API answers it.
func TestNoUnusedEntityComponents(t *testing.T) {
	raw, err := os.ReadFile("../../../" + entPath)
	require.NoError(t, err)
	var ent struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(raw, &ent))
	require.NotEmpty(t, ent.Components.Schemas)

	var doc any
	require.NoError(t, json.Unmarshal(openapi.JSON, &doc))
	refs := map[string]bool{}
	collectRefs(doc, refs)
	var unused []string
	for name := range ent.Components.Schemas {
		if !refs[localRef+name] {
			unused = append(unused, name)
		}
	}
	slices.Sort(unused)
	require.Empty(t, unused, "components of %s the API does not use: drop their APIShape annotation", entPath)
}

func collectRefs(v any, into map[string]bool) {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			if s, ok := val.(string); ok && k == "$ref" && strings.HasPrefix(s, "#/") {
				into[s] = true
				continue
			}
			collectRefs(val, into)
		}
	case []any:
		for _, val := range t {
			collectRefs(val, into)
		}
	}
}

package mcp

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/mcptools"
	"github.com/venueplatform/venue/internal/scope"
)

// TestToolTableCoversDefinitions: every defined tool has an implementation
// and a compiled schema, with valid scopes.
func TestToolTableCoversDefinitions(t *testing.T) {
	tools := toolTable()
	s, err := loadSchemas()
	require.NoError(t, err)
	require.Len(t, tools, len(mcptools.Tools))
	for _, def := range mcptools.Tools {
		impl, ok := tools[def.Name]
		require.True(t, ok, def.Name)
		require.Equal(t, def.Name, impl.def.Name)
		require.NotNil(t, s.byName[def.Name], def.Name)
		require.NotEmpty(t, def.Scopes, def.Name)
		for _, sc := range def.Scopes {
			require.True(t, scope.Valid(sc), sc)
		}
	}
}

// TestCeilingsInSchemas: the published maxima are the enforced ceilings.
func TestCeilingsInSchemas(t *testing.T) {
	s, err := loadSchemas()
	require.NoError(t, err)
	var list struct {
		Tools []struct {
			Name        string `json:"name"`
			InputSchema struct {
				Properties map[string]struct {
					Maximum int `json:"maximum"`
				} `json:"properties"`
			} `json:"inputSchema"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(s.list, &list))
	max := map[string]int{}
	for _, tl := range list.Tools {
		max[tl.Name] = tl.InputSchema.Properties["limit"].Maximum
	}
	require.Equal(t, mcptools.SearchScheduleCeiling, max[mcptools.SearchScheduleName])
	require.Equal(t, mcptools.SearchMembersCeiling, max[mcptools.SearchMembersName])
}

func TestDigestIsCanonical(t *testing.T) {
	a := digest(json.RawMessage(`{"b": 1, "a": [1, 2]}`))
	b := digest(json.RawMessage(`{"a":[1,2],"b":1}`))
	require.Equal(t, a, b)
	require.NotEqual(t, a, digest(json.RawMessage(`{"a":[2,1],"b":1}`)))
}

package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/internal/gen/openapi"
)

// ownKeyRules are operations whose required key the domain checks and
// replays itself, with rules of their own.
var ownKeyRules = map[string]string{
	"createPosReturn": "8 to 160 ASCII characters, POS_RETURN_KEY_CONFLICT and POS_RETURN_STALE (internal/pos returns)",
}

// Every operation whose document requires an Idempotency-Key has a replay
// policy: without one, a retry with the same key would run the write again.
func TestRequiredKeysHaveAPolicy(t *testing.T) {
	var doc struct {
		Paths      map[string]map[string]json.RawMessage `json:"paths"`
		Components struct {
			Parameters map[string]struct {
				Name     string `json:"name"`
				In       string `json:"in"`
				Required bool   `json:"required"`
			} `json:"parameters"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(openapi.JSON, &doc))
	checked := 0
	for _, item := range doc.Paths {
		for _, raw := range item {
			var op struct {
				OperationID string `json:"operationId"`
				Parameters  []struct {
					Ref      string `json:"$ref"`
					Name     string `json:"name"`
					In       string `json:"in"`
					Required bool   `json:"required"`
				} `json:"parameters"`
			}
			if json.Unmarshal(raw, &op) != nil || op.OperationID == "" {
				continue
			}
			for _, p := range op.Parameters {
				name, in, req := p.Name, p.In, p.Required
				if p.Ref != "" {
					c := doc.Components.Parameters[p.Ref[strings.LastIndex(p.Ref, "/")+1:]]
					name, in, req = c.Name, c.In, c.Required
				}
				if in != "header" || !strings.EqualFold(name, "Idempotency-Key") || !req {
					continue
				}
				checked++
				if _, own := ownKeyRules[op.OperationID]; own {
					continue
				}
				pol, ok := idempotencyPolicies[op.OperationID]
				require.True(t, ok, "%s requires an Idempotency-Key but has no policy", op.OperationID)
				require.True(t, pol.Required, "%s requires an Idempotency-Key but its policy does not", op.OperationID)
			}
		}
	}
	require.Greater(t, checked, 50)
}

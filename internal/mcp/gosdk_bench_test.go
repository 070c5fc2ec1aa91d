//go:build mcpbench

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/venueplatform/venue/internal/gen/mcpschema/toolschema"
	"github.com/venueplatform/venue/internal/mcptools"
)

// NewGoSDKScheduleHandler is what an integrator would build instead with the
// official Go SDK: one stateless streamable HTTP handler answering JSON,
// exposing search_schedule with the published input schema (the SDK
// validates arguments against it and wraps the result as structuredContent
// and one text item). So that the benchmark compares the protocol layers and
// nothing else, its tool does the work ours does for the same call: the key,
// kill switch, plan, flag and rate-limit gates (exchange.admit), the same
// read and presentation (searchSchedule), and the same audit entry queued on
// h's writer.
func NewGoSDKScheduleHandler(h *Handler) http.Handler {
	schema := toolInputSchema(mcptools.SearchScheduleName)
	srv := sdk.NewServer(&sdk.Implementation{Name: "venue-go-sdk", Version: "bench"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: mcptools.SearchScheduleName, InputSchema: schema},
		func(ctx context.Context, req *sdk.CallToolRequest, in mcptools.SearchSchedule) (*sdk.CallToolResult, any, error) {
			start := h.now()
			x := &exchange{h: h, apiKey: req.Extra.Header.Get("X-API-Key")}
			vctx, c, rerr := x.admit(ctx)
			var out any
			if rerr == nil {
				var err error
				if out, err = searchSchedule(vctx, &env{client: h.client, caller: c, now: start}, in); err != nil {
					rerr, _ = fromDomain(err, "class_instance")
				}
			}
			if c != nil {
				_ = h.audit.Record(vctx, auditEntry(c.key, mcptools.SearchScheduleName, req.Params.Arguments, rerr, h.now().Sub(start)))
			}
			if rerr != nil {
				return nil, nil, errors.New(rerr.Message)
			}
			return nil, out, nil
		})
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
}

// toolInputSchema is the published input schema of a tool.
func toolInputSchema(name string) json.RawMessage {
	var doc struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(toolschema.ToolsJSON, &doc); err != nil {
		panic(err)
	}
	for _, t := range doc.Tools {
		if t.Name == name {
			return t.InputSchema
		}
	}
	panic("no tool " + name)
}

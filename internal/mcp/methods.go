package mcp

import (
	"context"
	"encoding/json"
	"runtime/debug"
)

// Protocol versions: the contract's, and the older one answered when asked.
const (
	ProtocolVersion       = "2025-03-26"
	legacyProtocolVersion = "2024-11-05"
)

// ServerName is the serverInfo name of initialize.
const ServerName = "venue"

const instructions = "Venue data of the venue your API key belongs to. Read the schedule, members, " +
	"passes, bookings, revenue and alerts as resources or through the read tools; create_flash_sale " +
	"creates one offer and sends nothing. Every call needs the X-API-Key header."

// handle answers one valid element; a panic in it becomes -32603 for that
// element alone.
func (x *exchange) handle(ctx context.Context, req *request, batch bool) (resp *response) {
	defer func() {
		if p := recover(); p != nil {
			x.h.log.ErrorContext(ctx, "mcp: panic", "method", req.Method, "panic", p, "stack", string(debug.Stack()))
			resp = nil
			if !req.notification() {
				resp = errorResponse(req.ID, errInternal())
			}
		}
	}()
	return x.dispatch(ctx, req, batch)
}

// dispatch answers one valid element: notifications get nothing; unknown
// methods -32601 at once; the rest pass the gates of admit first.
func (x *exchange) dispatch(ctx context.Context, req *request, batch bool) *response {
	if req.notification() {
		// notifications/initialized, notifications/cancelled and any other
		// notification need no work on a stateless endpoint.
		return nil
	}
	switch req.Method {
	case "initialize":
		if batch {
			return errorResponse(req.ID, &rpcError{Code: CodeInvalidRequest,
				Message: "Invalid Request: initialize is not allowed in a batch"})
		}
		return x.answer(ctx, req, x.initialize)
	case "ping":
		return x.answer(ctx, req, func(context.Context, *caller, json.RawMessage) (any, *rpcError) {
			return struct{}{}, nil
		})
	case "tools/list":
		return x.answer(ctx, req, func(context.Context, *caller, json.RawMessage) (any, *rpcError) {
			return x.h.schemas.list, nil
		})
	case "tools/call":
		return x.h.callTool(ctx, x, req)
	case "resources/list":
		return x.answer(ctx, req, func(context.Context, *caller, json.RawMessage) (any, *rpcError) {
			return resourceList(), nil
		})
	case "resources/templates/list":
		return x.answer(ctx, req, func(context.Context, *caller, json.RawMessage) (any, *rpcError) {
			return templateList(), nil
		})
	case "resources/read":
		return x.answer(ctx, req, x.h.readResource)
	default:
		return errorResponse(req.ID, errMethodNotFound(req.Method))
	}
}

// answer runs the gates and then fn.
func (x *exchange) answer(ctx context.Context, req *request, fn func(context.Context, *caller, json.RawMessage) (any, *rpcError)) *response {
	vctx, c, gerr := x.admit(ctx)
	if gerr != nil {
		return errorResponse(req.ID, gerr)
	}
	if gerr := gateParams(req.Params, false); gerr != nil {
		return errorResponse(req.ID, gerr)
	}
	result, err := fn(vctx, c, req.Params)
	if err != nil {
		return errorResponse(req.ID, err)
	}
	return resultResponse(req.ID, result)
}

// initialize echoes 2025-03-26 or 2024-11-05 when the client asks for one
// of them and answers 2025-03-26 otherwise.
func (x *exchange) initialize(_ context.Context, _ *caller, params json.RawMessage) (any, *rpcError) {
	var p struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if len(params) > 0 && params[0] == '{' {
		_ = json.Unmarshal(params, &p) // lenient: a malformed field gets the default
	}
	version := ProtocolVersion
	if p.ProtocolVersion == legacyProtocolVersion {
		version = legacyProtocolVersion
	}
	return map[string]any{
		"protocolVersion": version,
		"capabilities": map[string]any{
			"tools":     map[string]any{"listChanged": false},
			"resources": map[string]any{"subscribe": false, "listChanged": false},
		},
		"serverInfo":   map[string]any{"name": ServerName, "version": serverVersion()},
		"instructions": instructions,
	}, nil
}

// serverVersion is the module version of the running binary.
func serverVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

// objectParams decodes params into v: absent params count as {}, anything
// but an object is -32602.
func objectParams(params json.RawMessage, v any) *rpcError {
	if len(params) == 0 {
		return nil
	}
	if params[0] != '{' {
		return errInvalidParams("params must be an object")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return errInvalidParams("malformed params")
	}
	return nil
}

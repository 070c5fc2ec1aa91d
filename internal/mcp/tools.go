package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apikey"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/input"
	"github.com/venueplatform/venue/internal/mcptools"
	"github.com/venueplatform/venue/internal/scope"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// AuditAction is the action of the audit entry every tools/call writes.
const AuditAction = "mcp.tools/call"

// ReasonReissueKey is the -32002 reason of a write tool called with a key
// that does not record the staff member who issued it.
const ReasonReissueKey = "key_reissue_required"

// env is what a tool runs with.
type env struct {
	client *ent.Client // a transaction's client for write tools
	caller *caller
	now    time.Time
}

// tool binds a definition of package mcptools to its implementation.
type tool struct {
	def mcptools.Tool
	// resource names what -32005 reports as not found.
	resource string
	run      func(ctx context.Context, e *env, args json.RawMessage) (any, error)
}

// bind decodes validated arguments into the tool's input struct.
func bind[T any](f func(context.Context, *env, T) (any, error)) func(context.Context, *env, json.RawMessage) (any, error) {
	return func(ctx context.Context, e *env, args json.RawMessage) (any, error) {
		var in T
		if err := json.Unmarshal(args, &in); err != nil {
			return nil, errInvalidParams("arguments do not match the input schema", violation{Message: "malformed value"})
		}
		return f(ctx, e, in)
	}
}

// toolTable lists the implementations; a test checks it covers mcptools.Tools.
func toolTable() map[string]*tool {
	ts := []*tool{
		{resource: "class_instance", run: bind(searchSchedule)},
		{resource: "class_instance", run: bind(checkAvailability)},
		{resource: "member", run: bind(searchMembers)},
		{resource: "member", run: bind(memberDetails)},
		{resource: "payment", run: bind(revenueSummary)},
		{resource: "venue", run: bind(todayOverview)},
		{resource: "pass_type", run: bind(createFlashSale)},
		{resource: "brand", run: bind(salesSnapshot)},
		{resource: "location", run: bind(attendanceReport)},
		{resource: "brand", run: bind(brandAnalytics)},
	}
	out := make(map[string]*tool, len(ts))
	for i, t := range ts {
		t.def = mcptools.Tools[i]
		out[t.def.Name] = t
	}
	return out
}

// callParams are the params of tools/call.
type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// arguments returns the call's arguments; absent or null count as {}.
func (p callParams) arguments() json.RawMessage {
	if len(p.Arguments) == 0 || string(p.Arguments) == "null" {
		return json.RawMessage("{}")
	}
	return p.Arguments
}

// callTool is the audit chokepoint: every tools/call passes here and, once
// the key is known to belong to a venue, leaves exactly one audit entry,
// whatever its outcome. The checks run in the contract's order: gates,
// the input gate over the params (name and arguments are text), tool name,
// scope, arguments (schema and formats), then the tool (not found, result).
func (h *Handler) callTool(ctx context.Context, x *exchange, req *request) *response {
	start := h.now()
	var p callParams
	// The gate runs first; the params are still decoded, so that the
	// refused call's audit entry names the tool (made safe by input.Echo).
	perr := gateParams(req.Params, true)
	if oerr := objectParams(req.Params, &p); perr == nil {
		perr = oerr
	}
	args := p.arguments()
	vctx, c, rerr := x.admit(ctx)
	var result any
	if rerr == nil {
		result, rerr = h.runTool(vctx, c, p, args, perr, start)
	}
	h.auditCall(ctx, vctx, x, c, input.Echo(p.Name), args, rerr, start)
	if rerr != nil {
		return errorResponse(req.ID, rerr)
	}
	return toolResponse(req.ID, result)
}

func (h *Handler) runTool(ctx context.Context, c *caller, p callParams, args json.RawMessage, perr *rpcError, start time.Time) (any, *rpcError) {
	switch {
	case perr != nil:
		return nil, perr
	case p.Name == "":
		return nil, errInvalidParams("name is required")
	}
	t, ok := h.tools[p.Name]
	if !ok {
		return nil, (&rpcError{Code: CodeMethodNotFound, Message: "Unknown tool"}).with("tool", input.Echo(p.Name))
	}
	if missing := scope.Missing(c.key.Scopes, t.def.Scopes); len(missing) > 0 {
		return nil, errScopes(t.def.Scopes)
	}
	if !t.def.ReadOnly && c.key.CreatedBy == nil {
		return nil, (&rpcError{Code: CodeForbidden, Message: "Forbidden: reissue this API key to use write tools; " +
			"it does not record the staff member who issued it (venuectl apikey create --created-by EMAIL)"}).
			with("reason", ReasonReissueKey).with("required_scopes", t.def.Scopes)
	}
	if rerr := h.schemas.check(p.Name, args); rerr != nil {
		return nil, rerr
	}
	var (
		out any
		err error
	)
	if t.def.ReadOnly {
		out, err = t.run(ctx, &env{client: h.client, caller: c, now: start}, args)
	} else {
		out, err = h.runWrite(ctx, t, c, args, start)
	}
	if err != nil {
		rpcErr, internal := fromDomain(err, t.resource)
		if internal {
			h.log.ErrorContext(ctx, "mcp: tool failed", "tool", p.Name, "request_id", httpx.RequestID(ctx), "error", err)
		}
		return nil, rpcErr
	}
	return out, nil
}

// check checks the arguments of a known tool, which passed the input gate,
// against its input schema (formats asserted by the gate's rules): what
// needs no query.
func (ts *toolSchemas) check(name string, args json.RawMessage) *rpcError {
	if args[0] != '{' {
		return errInvalidParams("arguments must be an object")
	}
	if vs := ts.validate(name, args); len(vs) > 0 {
		return errInvalidParams("arguments do not match the input schema of "+name, vs...)
	}
	return nil
}

// runWrite runs a write tool in a transaction together with its success
// audit entry: the change and its record commit together or not at all.
func (h *Handler) runWrite(ctx context.Context, t *tool, c *caller, args json.RawMessage, start time.Time) (any, error) {
	tx, err := h.client.Tx(ctx)
	if err != nil {
		return nil, err
	}
	out, err := t.run(ctx, &env{client: tx.Client(), caller: c, now: start}, args)
	if err == nil {
		e := auditEntry(c.key, t.def.Name, args, nil, h.now().Sub(start))
		if d, ok := out.(interface{ auditDetails() map[string]any }); ok {
			for k, v := range d.auditDetails() {
				e.Details[k] = v
			}
		}
		if _, err = audit.Record(ctx, tx.Client(), e); err == nil {
			err = tx.Commit()
			if err == nil {
				return out, nil
			}
		}
	}
	_ = tx.Rollback()
	return nil, err
}

// auditCall writes the entry of a call that did not commit one itself; name
// is the tool's name as input.Echo makes it safe to store (a refused name
// may hold a NUL or be a megabyte long; a known one is unchanged). A
// call without a venue (-32001: no valid key) cannot be attributed and is
// only logged; a call refused by the kill switch, plan or flag (-32004) is
// recorded against the key's venue.
func (h *Handler) auditCall(ctx, vctx context.Context, x *exchange, c *caller, name string, args json.RawMessage, rerr *rpcError, start time.Time) {
	if rerr == nil {
		if t := h.tools[name]; t != nil && !t.def.ReadOnly {
			return // recorded in the write's transaction
		}
	}
	var key viewer.APIKey
	switch {
	case c != nil:
		key = c.key
	case rerr != nil && rerr.Code == CodeAccessDenied:
		k, err := apikey.Lookup(ctx, h.client, x.apiKey)
		if err != nil {
			return
		}
		key = apikey.Viewer(k)
	default:
		h.log.InfoContext(ctx, "mcp: unattributed tools/call", "tool", name, "request_id", httpx.RequestID(ctx))
		return
	}
	if _, ok := viewer.VenueFromContext(vctx); !ok {
		vctx = system.Identify(ctx, "mcp.audit_caller", key)
	}
	// Queued, not written here: the entry stands alone (no change commits
	// with it), and the writer batches the entries of many calls into one
	// statement; Close writes what is queued at shutdown.
	if err := h.audit.Record(vctx, auditEntry(key, name, args, rerr, h.now().Sub(start))); err != nil {
		h.log.ErrorContext(ctx, "mcp: audit", "tool", name, "request_id", httpx.RequestID(ctx), "error", err)
	}
}

// auditEntry describes one call: key, issuing staff identity, tool, a
// digest of the arguments, outcome and duration.
func auditEntry(key viewer.APIKey, name string, args json.RawMessage, rerr *rpcError, d time.Duration) audit.Entry {
	details := map[string]any{
		"tool":             name,
		"arguments_sha256": digest(args),
		"duration_us":      d.Microseconds(),
	}
	if key.CreatedByEmail != "" {
		details["created_by"] = key.CreatedByEmail
	}
	outcome := audit.OutcomeSuccess
	if rerr != nil {
		details["error_code"] = rerr.Code
		outcome = audit.OutcomeFailure
		switch rerr.Code {
		case CodeUnauthorized, CodeForbidden, CodeRateLimited, CodeAccessDenied:
			outcome = audit.OutcomeDenied
		}
	}
	return audit.Entry{
		Action:   AuditAction,
		Target:   name,
		Outcome:  outcome,
		UserID:   key.CreatedBy,
		Details:  details,
		Duration: d,
	}
}

// digest is the SHA-256 of the arguments in canonical form (keys sorted, no
// insignificant space), so equal arguments have equal digests however sent.
func digest(args json.RawMessage) string {
	canonical := []byte(args)
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) == nil {
		if b, err := json.Marshal(v); err == nil {
			canonical = b
		}
	}
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

// toolResponse is the answer to a tools/call: the value as
// structuredContent and as one text content item holding the same JSON,
// marshalled once. The answer is written here whole, byte for byte as
// encode would write the map {"content": [{"type": "text", "text": ...}],
// "isError": false, "structuredContent": ...} (keys sorted) as the result,
// into one buffer reused from answer to answer: the value's JSON appears
// twice, so the copies that marshalling the map would make, and a fresh
// buffer of twice the result's size, would be most of the answer's cost.
func toolResponse(id json.RawMessage, v any) *response {
	s := scratchBuffers.Get().(*scratch)
	defer s.put()
	raw := []byte("{}")
	if b, ok := s.marshal(v); ok && len(b) > 0 && b[0] == '{' {
		raw = b
	}
	if id == nil {
		id = nullID
	}
	// The text holds raw with a backslash before each quote and backslash:
	// sized for those, the answer is written into a buffer of the pool
	// (returned once it is sent) without growing it.
	p := answerBuffer(len(answerHead) + len(id) + len(resultHead) + 2*len(raw) + escapes(raw) + len(resultMid) + 2)
	b := *p
	b = append(b, answerHead...)
	b = append(b, id...)
	b = append(b, resultHead...)
	b = appendMarshalledAsString(b, raw)
	b = append(b, resultMid...)
	b = append(b, raw...)
	b = append(b, '}', '}')
	*p = b
	return &response{JSONRPC: "2.0", ID: id, encoded: b, pooled: p}
}

const (
	answerHead = `{"jsonrpc":"2.0","id":`
	resultHead = `,"result":{"content":[{"text":"`
	resultMid  = `","type":"text"}],"isError":false,"structuredContent":`
)

// scratch holds a tool's result in JSON while its answer is written.
type scratch struct{ b []byte }

var scratchBuffers = sync.Pool{New: func() any { return new(scratch) }}

// marshal writes v's JSON as json.Marshal does into s and returns it; ok is
// false when v cannot be marshalled. The schedule writes its own JSON
// (jsonAppender); other values go through encoding/json.
func (s *scratch) marshal(v any) ([]byte, bool) {
	if a, ok := v.(jsonAppender); ok {
		if b, ok := a.appendJSON(s.b[:0]); ok {
			s.b = b
			return b, true
		}
	}
	// An Encoder writes what json.Marshal returns (HTML characters escaped)
	// and a newline, into the reused bytes.
	buf := bytes.NewBuffer(s.b[:0])
	if err := json.NewEncoder(buf).Encode(v); err != nil {
		return nil, false
	}
	s.b = buf.Bytes()
	return bytes.TrimSuffix(s.b, []byte("\n")), true
}

// put returns s to the pool unless an unusually large result grew it, so
// the pool does not pin that much memory.
func (s *scratch) put() {
	if cap(s.b) > 1<<20 {
		return
	}
	scratchBuffers.Put(s)
}

// escapes counts the quotes and backslashes of raw: the bytes
// appendMarshalledAsString adds.
func escapes(raw []byte) int {
	return bytes.Count(raw, []byte{'"'}) + bytes.Count(raw, []byte{'\\'})
}

// appendMarshalledAsString appends raw, an output of json.Marshal, as the
// inside of a JSON string. Marshal leaves no control character, invalid
// UTF-8 or U+2028/U+2029 unescaped, so quotes and backslashes are all that
// encoding/json (without HTML escaping, as encode writes) would escape.
func appendMarshalledAsString(b, raw []byte) []byte {
	start := 0
	for i, c := range raw {
		if c == '"' || c == '\\' {
			b = append(b, raw[start:i]...)
			b = append(b, '\\', c)
			start = i + 1
		}
	}
	return append(b, raw[start:]...)
}

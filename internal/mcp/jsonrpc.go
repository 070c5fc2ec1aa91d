package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
)

// JSON-RPC error codes: the standard ones and the contract's (-32001 to
// -32005, which later MCP specifications use differently).
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	CodeUnauthorized   = -32001 // missing or bad X-API-Key
	CodeForbidden      = -32002 // the key lacks a required scope
	CodeRateLimited    = -32003
	CodeAccessDenied   = -32004 // kill switch, plan or API feature flag
	CodeNotFound       = -32005
)

// MaxBatch is the most elements one batch may hold; elements beyond it are
// answered -32600 each (with their own id) and not run.
const MaxBatch = 50

// MaxBodyBytes caps a request body (1 MiB).
const MaxBodyBytes = 1 << 20

// rpcError is a JSON-RPC error object; Data is always an object.
type rpcError struct {
	Code    int            `json:"code"`
	Message string         `json:"message"`
	Data    map[string]any `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return fmt.Sprintf("json-rpc %d: %s", e.Code, e.Message) }

// with returns a copy of e with one more data member.
func (e *rpcError) with(key string, value any) *rpcError {
	c := *e
	c.Data = make(map[string]any, len(e.Data)+1)
	for k, v := range e.Data {
		c.Data[k] = v
	}
	c.Data[key] = value
	return &c
}

// nullID is the id of an answer to a body that could not be read as a request.
var nullID = json.RawMessage("null")

// response is one JSON-RPC response object.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
	// encoded, when set, is the whole response already in wire form.
	encoded []byte
	// pooled, when set, holds encoded's memory for the next answer once
	// this one is written (release).
	pooled *[]byte
}

// answerBuffers hold answers written ahead (tools/call) until they are sent.
var answerBuffers = sync.Pool{New: func() any { return new([]byte) }}

// answerBuffer returns an empty buffer of at least n bytes for an answer
// written ahead; release gives it back.
func answerBuffer(n int) *[]byte {
	p := answerBuffers.Get().(*[]byte)
	if cap(*p) < n {
		*p = make([]byte, 0, n)
	}
	*p = (*p)[:0]
	return p
}

// release returns the memory of an answer written ahead to the pool, unless
// an unusually large answer grew it, so the pool does not pin that much.
// The answer must not be used afterwards.
func (r *response) release() {
	if r.pooled == nil {
		return
	}
	p := r.pooled
	r.pooled, r.encoded = nil, nil
	if cap(*p) <= 1<<20 {
		answerBuffers.Put(p)
	}
}

func resultResponse(id json.RawMessage, result any) *response {
	return &response{JSONRPC: "2.0", ID: id, Result: result}
}

func errorResponse(id json.RawMessage, err *rpcError) *response {
	if id == nil {
		id = nullID
	}
	return &response{JSONRPC: "2.0", ID: id, Error: err}
}

// request is one decoded element of a body.
type request struct {
	// ID is the raw id (a JSON number or string), nil when absent.
	ID     json.RawMessage
	Method string
	// Params is the raw params object, nil when absent.
	Params json.RawMessage
	// Invalid is set when the element is not a valid request; it is
	// answered with Invalid and ID (null when the id itself was unusable).
	Invalid *rpcError
}

// notification reports whether r is a valid request without an id.
func (r *request) notification() bool { return r.Invalid == nil && r.ID == nil }

// decode reads a body as one request or a batch. A body that is not JSON
// gives a parse error; an empty batch an invalid request; otherwise every
// element is decoded on its own, so one bad element spoils nothing else.
// Member names are matched exactly (JSON-RPC is case-sensitive).
func decode(body []byte) (reqs []request, batch bool, err *rpcError) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || !json.Valid(body) {
		return nil, false, &rpcError{Code: CodeParseError, Message: "Parse error: the body is not JSON"}
	}
	if body[0] != '[' {
		return []request{decodeOne(body)}, false, nil
	}
	var elems []json.RawMessage
	if uerr := json.Unmarshal(body, &elems); uerr != nil {
		return nil, false, &rpcError{Code: CodeParseError, Message: "Parse error: the body is not JSON"}
	}
	if len(elems) == 0 {
		return nil, true, &rpcError{Code: CodeInvalidRequest, Message: "Invalid Request: empty batch"}
	}
	reqs = make([]request, len(elems))
	for i, e := range elems {
		reqs[i] = decodeOne(e)
	}
	return reqs, true, nil
}

func invalid(id json.RawMessage, msg string) request {
	return request{ID: id, Invalid: &rpcError{Code: CodeInvalidRequest, Message: "Invalid Request: " + msg}}
}

func decodeOne(raw json.RawMessage) request {
	var m map[string]json.RawMessage
	if bytes.TrimSpace(raw)[0] != '{' || json.Unmarshal(raw, &m) != nil {
		return invalid(nil, "a request must be an object")
	}
	var id json.RawMessage
	if v, ok := m["id"]; ok {
		switch c := v[0]; {
		case c == '"', c == '-', c >= '0' && c <= '9':
			id = compact(v)
		default:
			return invalid(nil, "id must be a number or a string")
		}
	}
	if string(m["jsonrpc"]) != `"2.0"` {
		return invalid(id, `jsonrpc must be "2.0"`)
	}
	var method string
	if v, ok := m["method"]; !ok || json.Unmarshal(v, &method) != nil || method == "" {
		return invalid(id, "method must be a non-empty string")
	}
	req := request{ID: id, Method: method}
	if p, ok := m["params"]; ok {
		switch p[0] {
		case '{':
			req.Params = p
		case '[':
			// Structured, so a valid request; MCP's methods all take objects.
			req.Params = p
		case 'n':
			// "params": null, sent by some clients for methods without
			// params, is read as absent.
		default:
			return invalid(id, "params must be an object")
		}
	}
	return req
}

func compact(v json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return v
	}
	return b.Bytes()
}

// handleFunc answers one valid element; it returns nil for a notification.
type handleFunc func(ctx context.Context, req *request, batch bool) *response

// process is the transport: it decodes body, runs every element through
// handle in order and returns the HTTP status and body of the answer: 200
// with one response or an array of the requests' responses, or 202 with no
// body when nothing asked for an answer. Once the body is written, release
// lets its memory serve a later answer; the body must not be used after.
func process(ctx context.Context, body []byte, handle handleFunc) (status int, out []byte, release func()) {
	reqs, batch, derr := decode(body)
	if derr != nil {
		return http.StatusOK, encode(errorResponse(nullID, derr)), noRelease
	}
	resps := make([]*response, 0, len(reqs))
	for i := range reqs {
		req := &reqs[i]
		var resp *response
		switch {
		case req.Invalid != nil:
			resp = errorResponse(req.ID, req.Invalid)
		case batch && i >= MaxBatch:
			if req.notification() {
				continue
			}
			resp = errorResponse(req.ID, (&rpcError{Code: CodeInvalidRequest,
				Message: fmt.Sprintf("Invalid Request: a batch holds at most %d elements", MaxBatch)}).
				with("max_batch_size", MaxBatch))
		default:
			resp = handle(ctx, req, batch)
			if resp == nil && !req.notification() {
				resp = errorResponse(req.ID, errInternal())
			}
		}
		if resp != nil {
			resps = append(resps, resp)
		}
	}
	switch {
	case len(resps) == 0:
		return http.StatusAccepted, nil, noRelease
	case batch:
		parts := make([][]byte, len(resps))
		for i, r := range resps {
			parts[i] = encode(r)
		}
		out = append(append([]byte{'['}, bytes.Join(parts, []byte{','})...), ']')
		for _, r := range resps {
			r.release()
		}
		return http.StatusOK, out, noRelease
	default:
		return http.StatusOK, encode(resps[0]), resps[0].release
	}
}

func noRelease() {}

// encode marshals r without HTML escaping; a result that cannot be marshalled
// (a bug) becomes an internal error with the same id. A response written
// ahead (a tool's answer) is returned as it is.
func encode(r *response) []byte {
	if r.encoded != nil {
		return r.encoded
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		b.Reset()
		_ = enc.Encode(errorResponse(r.ID, errInternal()))
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

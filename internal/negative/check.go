package negative

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// MaxErrorBody bounds an error answer: it must not grow with the request.
const MaxErrorBody = 4 << 10

// Leaks are texts of libraries and of the runtime that must never reach a
// client: database drivers and errors, ent, encoding/json, time and strconv
// parse errors, panics and source file positions.
var Leaks = regexp.MustCompile(`\bpq:|ERROR:|SQLSTATE|pgx|\bent:|\bsql:|parsing time|cannot parse|invalid character|` +
	`\bjson:|runtime error|goroutine|strconv\.|\.go:\d`)

// Verdict is the judgement of one answer.
type Verdict struct {
	ServerError bool // a 5xx
	Envelope    bool // not a 4xx error envelope (nor an allowed 2xx), or unbounded
	Leak        bool // library or runtime text in the body
	// Transport is an answer net/http gave before the service saw the
	// request (no X-Request-Id): a plain 400, 413 or 431.
	Transport bool
	Detail    string
}

// OK reports whether the answer passes.
func (v Verdict) OK() bool { return !v.ServerError && !v.Envelope && !v.Leak }

// Judge checks res, the answer to c.
func Judge(c Case, res *Response) Verdict {
	var v Verdict
	body := string(res.Body)
	if m := Leaks.FindString(body); m != "" {
		v.Leak = true
		v.Detail = fmt.Sprintf("leaks %q: %s", m, clip(body))
	}
	if res.Status >= 500 {
		v.ServerError = true
		v.Detail = fmt.Sprintf("%d: %s", res.Status, clip(body))
		return v
	}
	if res.Header.Get("X-Request-Id") == "" {
		// net/http refused the request line or headers itself.
		switch res.Status {
		case 400, 413, 414, 431:
			v.Transport = true
			return v
		}
	}
	switch {
	case res.Status >= 200 && res.Status < 300:
		if !MayAccept(c.Class) {
			v.Envelope = true
			v.Detail = fmt.Sprintf("accepted with %d: %s", res.Status, clip(body))
		} else if strings.Contains(body, strings.Repeat("x", 1024)) {
			v.Envelope = true
			v.Detail = "the answer echoes the long value"
		}
		return v
	case res.Status >= 400 && res.Status < 500:
	default:
		v.Envelope = true
		v.Detail = fmt.Sprintf("status %d: %s", res.Status, clip(body))
		return v
	}
	if res.Size >= MaxErrorBody {
		v.Envelope = true
		v.Detail = fmt.Sprintf("%d: error body of %d bytes", res.Status, res.Size)
		return v
	}
	var env struct {
		Error *struct {
			Code    *string          `json:"code"`
			Message *string          `json:"message"`
			Details *json.RawMessage `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(res.Body, &env); err != nil || env.Error == nil || env.Error.Code == nil ||
		env.Error.Message == nil || env.Error.Details == nil {
		v.Envelope = true
		v.Detail = fmt.Sprintf("%d not an error envelope: %s", res.Status, clip(body))
	}
	return v
}

func clip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/venueplatform/venue/internal/catalogue"
	"github.com/venueplatform/venue/internal/frontdesk"
	"github.com/venueplatform/venue/internal/httpx"
	"github.com/venueplatform/venue/internal/input"
	"github.com/venueplatform/venue/internal/schedule"
	"github.com/venueplatform/venue/internal/scope"
)

// URIScheme starts every resource URI.
const URIScheme = "venue://"

// Ceilings of the schedule resources.
const (
	ScheduleDayCeiling   = 500
	ScheduleRangeCeiling = schedule.DefaultLimit
)

// resourceDef is one resource or resource template.
type resourceDef struct {
	kind        string // the URI's first segment
	name        string
	description string
	scopes      []string
	// param names the path parameter; empty for a fixed resource.
	param string
	read  func(ctx context.Context, e *env, param string) (any, error)
}

func (d *resourceDef) uri() string {
	if d.param == "" {
		return URIScheme + d.kind
	}
	return URIScheme + d.kind + "/{" + d.param + "}"
}

// resources are the contract's eight resources, in its order.
var resources = []*resourceDef{
	{kind: "schedule", name: "Daily schedule", param: "date", scopes: []string{scope.ReadSchedule},
		description: "Classes of one venue-local date (YYYY-MM-DD) with availability; at most 500.",
		read: func(ctx context.Context, e *env, p string) (any, error) {
			d, err := parseDate(p)
			if err != nil {
				return nil, err
			}
			return scheduleDays(ctx, e, d, d, "", "", ScheduleDayCeiling)
		}},
	{kind: "classes", name: "Classes by date range", param: "date_range", scopes: []string{scope.ReadSchedule},
		description: "Classes of an inclusive venue-local range YYYY-MM-DD..YYYY-MM-DD of at most 62 days; at most 1000.",
		read: func(ctx context.Context, e *env, p string) (any, error) {
			from, to, err := parseRange(p)
			if err != nil {
				return nil, err
			}
			return scheduleDays(ctx, e, from, to, "", "", ScheduleRangeCeiling)
		}},
	{kind: "members", name: "Member search", param: "query", scopes: []string{scope.ReadMembers},
		description: "Members matching a percent-encoded query on name, email or client display id; at most 25.",
		read: func(ctx context.Context, e *env, p string) (any, error) {
			if err := input.Text(p); err != nil {
				return nil, errInvalidParams("query", violation{Path: "/uri", Message: "query " + err.Reason})
			}
			if q := strings.TrimSpace(p); q == "" || len(p) > 100 {
				return nil, errInvalidParams("query", violation{Path: "/uri", Message: "query must hold 1 to 100 characters"})
			}
			return findMembers(ctx, e, p, 25)
		}},
	{kind: "member", name: "Member detail", param: "id", scopes: []string{scope.ReadMembers},
		description: "A member's profile, active passes and most recent bookings, by member id (UUID).",
		read: func(ctx context.Context, e *env, p string) (any, error) {
			id, err := input.UUID(p)
			if err != nil {
				return nil, errInvalidParams("id", violation{Path: "/uri", Message: "id " + err.Reason})
			}
			return memberDetail(ctx, e, id)
		}},
	{kind: "passes", name: "Active pass types", scopes: []string{scope.ReadPasses},
		description: "The venue's active pass types with prices.",
		read: func(ctx context.Context, e *env, _ string) (any, error) {
			pts, err := catalogue.PassTypes(ctx, e.client, catalogue.PassTypeFilter{IncludeUnlisted: true})
			if err != nil {
				return nil, err
			}
			out := make([]passTypeOut, len(pts))
			for i, p := range pts {
				out[i] = presentPassType(p)
			}
			return map[string]any{"count": len(out), "pass_types": out}, nil
		}},
	{kind: "bookings", name: "Bookings for a date", param: "date", scopes: []string{scope.ReadBookings},
		description: "Bookings (every status) in classes of one venue-local date (YYYY-MM-DD); at most 500.",
		read: func(ctx context.Context, e *env, p string) (any, error) {
			d, err := parseDate(p)
			if err != nil {
				return nil, err
			}
			start, end := schedule.DayRange(d, d, e.caller.loc)
			bs, more, err := frontdesk.Bookings(ctx, e.client, start, end)
			if err != nil {
				return nil, err
			}
			out := make([]bookingOut, len(bs))
			for i, b := range bs {
				out[i] = presentBooking(b, true)
			}
			return map[string]any{"date": p, "timezone": e.caller.loc.String(), "count": len(out), "truncated": more, "bookings": out}, nil
		}},
	{kind: "revenue", name: "Revenue summary", param: "period", scopes: []string{scope.ReadReports},
		description: "Succeeded payments totalled by currency; period is today, week, month or YYYY-MM-DD..YYYY-MM-DD (venue-local).",
		read: func(ctx context.Context, e *env, p string) (any, error) {
			return revenueOf(ctx, e, p, "/uri")
		}},
	{kind: "alerts", name: "Active alerts", scopes: []string{scope.ReadOperations},
		description: "Open (unresolved) operational alerts, newest first; at most 100.",
		read: func(ctx context.Context, e *env, _ string) (any, error) {
			as, more, err := frontdesk.OpenAlerts(ctx, e.client)
			if err != nil {
				return nil, err
			}
			out := make([]alertOut, len(as))
			for i, a := range as {
				out[i] = alertOut{ID: a.ID, Severity: string(a.Severity), Title: a.Title, Message: a.Message, CreatedAt: a.CreatedAt.UTC()}
			}
			return map[string]any{"count": len(out), "truncated": more, "alerts": out}, nil
		}},
}

// resourceList is the result of resources/list: the fixed resources.
func resourceList() map[string]any {
	list := []map[string]any{}
	for _, d := range resources {
		if d.param == "" {
			list = append(list, map[string]any{"uri": d.uri(), "name": d.name, "description": d.description, "mimeType": "application/json"})
		}
	}
	return map[string]any{"resources": list}
}

// templateList is the result of resources/templates/list.
func templateList() map[string]any {
	list := []map[string]any{}
	for _, d := range resources {
		if d.param != "" {
			list = append(list, map[string]any{"uriTemplate": d.uri(), "name": d.name, "description": d.description, "mimeType": "application/json"})
		}
	}
	return map[string]any{"resourceTemplates": list}
}

// readResource answers resources/read: a URI that names no resource is
// -32005; then scope (-32002), the path parameter (-32602) and the read
// itself (-32005 for an unknown or foreign id).
func (h *Handler) readResource(ctx context.Context, c *caller, params json.RawMessage) (any, *rpcError) {
	var p struct {
		URI string `json:"uri"`
	}
	if err := objectParams(params, &p); err != nil {
		return nil, err
	}
	if p.URI == "" {
		return nil, errInvalidParams("uri is required", violation{Path: "/uri", Message: "required"})
	}
	def, raw, hasParam := matchResource(p.URI)
	if def == nil {
		// The URI names nothing: it is the caller's text, shown cut.
		return nil, errNotFound("resource").with("uri", input.Echo(p.URI))
	}
	if missing := scope.Missing(c.key.Scopes, def.scopes); len(missing) > 0 {
		return nil, errScopes(def.scopes)
	}
	var arg string
	if def.param != "" {
		v, err := url.PathUnescape(raw)
		if !hasParam || raw == "" || err != nil || strings.ContainsAny(raw, "?#") {
			return nil, errInvalidParams(def.param, violation{Path: "/uri",
				Message: fmt.Sprintf("%s needs a percent-encoded {%s}", def.uri(), def.param)})
		}
		arg = v
	}
	out, err := def.read(ctx, &env{client: h.client, caller: c, now: h.now()}, arg)
	if err != nil {
		rpcErr, internal := fromDomain(err, def.kind)
		if internal {
			h.log.ErrorContext(ctx, "mcp: resource read failed", "uri", p.URI, "request_id", httpx.RequestID(ctx), "error", err)
		}
		if rpcErr.Code == CodeNotFound {
			rpcErr = rpcErr.with("uri", p.URI)
		}
		return nil, rpcErr
	}
	s := scratchBuffers.Get().(*scratch)
	defer s.put()
	text, ok := s.marshal(out)
	if !ok {
		return nil, errInternal()
	}
	return map[string]any{"contents": []map[string]any{{"uri": p.URI, "mimeType": "application/json", "text": string(text)}}}, nil
}

// matchResource finds the resource of uri and its raw path parameter.
func matchResource(uri string) (def *resourceDef, raw string, hasParam bool) {
	rest, ok := strings.CutPrefix(uri, URIScheme)
	if !ok {
		return nil, "", false
	}
	kind, raw, hasParam := strings.Cut(rest, "/")
	for _, d := range resources {
		if d.kind != kind {
			continue
		}
		if d.param == "" && hasParam {
			return nil, "", false
		}
		return d, raw, hasParam
	}
	return nil, "", false
}

func parseDate(s string) (time.Time, error) {
	d, err := time.Parse(dateLayout, s)
	if err != nil {
		return d, errInvalidParams("date", violation{Path: "/uri", Message: "date must be a real YYYY-MM-DD date"})
	}
	if e := input.Date(d); e != nil {
		return d, errInvalidParams("date", violation{Path: "/uri", Message: "date " + e.Reason})
	}
	return d, nil
}

func parseRange(s string) (time.Time, time.Time, error) {
	a, b, ok := strings.Cut(s, "..")
	from, err1 := time.Parse(dateLayout, a)
	to, err2 := time.Parse(dateLayout, b)
	switch {
	case !ok || err1 != nil || err2 != nil:
		return from, to, errInvalidParams("date_range", violation{Path: "/uri", Message: "date_range must be YYYY-MM-DD..YYYY-MM-DD"})
	case input.Date(from) != nil || input.Date(to) != nil:
		return from, to, errInvalidParams("date_range", violation{Path: "/uri", Message: "date_range " + input.ReasonYear})
	case to.Before(from):
		return from, to, errInvalidParams("date_range", violation{Path: "/uri", Message: "date_range runs backwards"})
	case int(to.Sub(from).Hours()/24)+1 > schedule.MaxRangeDays:
		return from, to, errInvalidParams("date_range", violation{Path: "/uri", Message: fmt.Sprintf("date_range spans more than %d days", schedule.MaxRangeDays)})
	}
	return from, to, nil
}

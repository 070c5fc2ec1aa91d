package mcp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/frontdesk"
	"github.com/venueplatform/venue/internal/input"
	"github.com/venueplatform/venue/internal/mcptools"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/schedule"
)

// The read tools. Arguments arrive validated against the published schema,
// so a date parses and an id is a UUID; what a schema cannot say (a period
// that runs backwards) is -32602 here, still before any query.

func searchSchedule(ctx context.Context, e *env, in mcptools.SearchSchedule) (any, error) {
	day, err := time.Parse(dateLayout, in.Date)
	if err != nil {
		return nil, errInvalidParams("date", violation{Path: "/date", Message: "not a date"})
	}
	return scheduleDays(ctx, e, day, day, in.ClassType, in.Instructor, ceiling(in.Limit, mcptools.SearchScheduleCeiling))
}

// scheduleDays reads the schedule of venue-local dates from..to through
// schedule.List, the query REST uses, with the ceiling in the query.
func scheduleDays(ctx context.Context, e *env, from, to time.Time, classType, instructor string, limit int) (any, error) {
	start, end := schedule.DayRange(from, to, e.caller.loc)
	rows, truncated, err := schedule.List(ctx, e.client, schedule.Filter{
		Start: start, End: end, ClassTypeName: classType, InstructorName: instructor, Limit: limit,
	}, e.now)
	if err != nil {
		return nil, err
	}
	return presentSchedule(rows, truncated, from, to, e.caller.loc.String()), nil
}

func ceiling(limit, max int) int {
	if limit <= 0 || limit > max {
		return max
	}
	return limit
}

type availabilityOut struct {
	classOut
	Remaining int `json:"remaining"`
}

func checkAvailability(ctx context.Context, e *env, in mcptools.CheckAvailability) (any, error) {
	id, ierr := input.UUID(in.ClassInstanceID)
	if ierr != nil {
		return nil, errInvalidParams("class_instance_id", violation{Path: "/class_instance_id", Message: ierr.Reason})
	}
	row, err := schedule.Get(ctx, e.client, id, e.now)
	if err != nil {
		return nil, err
	}
	return availabilityOut{classOut: presentClass(row, &refs{}), Remaining: row.Available}, nil
}

type membersOut struct {
	Query     string      `json:"query"`
	Count     int         `json:"count"`
	Truncated bool        `json:"truncated"`
	Members   []memberOut `json:"members"`
}

func searchMembers(ctx context.Context, e *env, in mcptools.SearchMembers) (any, error) {
	return findMembers(ctx, e, in.Query, ceiling(in.Limit, mcptools.SearchMembersCeiling))
}

func findMembers(ctx context.Context, e *env, query string, limit int) (any, error) {
	ms, more, err := members.Search(ctx, e.client, query, limit)
	if err != nil {
		return nil, err
	}
	out := membersOut{Query: query, Count: len(ms), Truncated: more, Members: make([]memberOut, len(ms))}
	for i, m := range ms {
		out.Members[i] = presentMember(m)
	}
	return out, nil
}

type memberDetailOut struct {
	Member         memberOut    `json:"member"`
	ActivePasses   []passOut    `json:"active_passes"`
	RecentBookings []bookingOut `json:"recent_bookings"`
}

func memberDetails(ctx context.Context, e *env, in mcptools.GetMemberDetails) (any, error) {
	id, ierr := input.UUID(in.MemberID)
	if ierr != nil {
		return nil, errInvalidParams("member_id", violation{Path: "/member_id", Message: ierr.Reason})
	}
	return memberDetail(ctx, e, id)
}

func memberDetail(ctx context.Context, e *env, id uuid.UUID) (any, error) {
	d, err := members.Get(ctx, e.client, id)
	if err != nil {
		return nil, err
	}
	out := memberDetailOut{Member: presentMember(d.Member),
		ActivePasses: make([]passOut, len(d.ActivePasses)), RecentBookings: make([]bookingOut, len(d.RecentBookings))}
	for i, p := range d.ActivePasses {
		po := passOut{ID: p.ID, Status: string(p.Status), ValidFrom: p.ValidFrom.Format(dateLayout),
			ValidTo: dateString(p.ValidTo), ClipsRemaining: p.ClipsRemaining}
		if pt := p.Edges.PassType; pt != nil {
			po.PassType = &ref{ID: pt.ID, Name: pt.Name}
		}
		out.ActivePasses[i] = po
	}
	for i, b := range d.RecentBookings {
		out.RecentBookings[i] = presentBooking(b, false)
	}
	return out, nil
}

type totalOut struct {
	Currency    string  `json:"currency"`
	Amount      float64 `json:"amount"`
	AmountMinor int64   `json:"amount_minor"`
	Payments    int     `json:"payments"`
}

type revenueOut struct {
	Period   string     `json:"period"`
	From     string     `json:"from"`
	To       string     `json:"to"`
	Timezone string     `json:"timezone"`
	Totals   []totalOut `json:"totals"`
}

func revenueSummary(ctx context.Context, e *env, in mcptools.GetRevenueSummary) (any, error) {
	return revenueOf(ctx, e, in.Period, "/period")
}

func revenueOf(ctx context.Context, e *env, period, path string) (any, error) {
	p, err := frontdesk.ParsePeriod(period, e.now, e.caller.loc)
	if errors.Is(err, frontdesk.ErrPeriod) {
		// ParsePeriod's text quotes the value; the answer says the rule.
		return nil, errInvalidParams("period", violation{Path: path, Message: periodRule})
	}
	if err != nil {
		return nil, err
	}
	if input.Date(p.From) != nil || input.Date(p.To) != nil {
		return nil, errInvalidParams("period", violation{Path: path, Message: "period " + input.ReasonYear})
	}
	totals, err := frontdesk.RevenueSummary(ctx, e.client, p)
	if err != nil {
		return nil, err
	}
	out := revenueOut{Period: p.Name, From: p.From.Format(dateLayout), To: p.To.Format(dateLayout),
		Timezone: e.caller.loc.String(), Totals: make([]totalOut, len(totals))}
	for i, t := range totals {
		out.Totals[i] = totalOut{Currency: t.Currency, Amount: money.ToMajor(t.AmountMinor, t.Currency),
			AmountMinor: t.AmountMinor, Payments: t.Payments}
	}
	return out, nil
}

// periodRule words every way a period can be refused.
var periodRule = fmt.Sprintf("period must be today, week, month or a range YYYY-MM-DD..YYYY-MM-DD of real dates, "+
	"the first not after the last, spanning at most %d days", frontdesk.MaxRangeDays)

type overviewOut struct {
	Date     string `json:"date"`
	Timezone string `json:"timezone"`
	frontdesk.Overview
}

func todayOverview(ctx context.Context, e *env, _ mcptools.GetTodayOverview) (any, error) {
	today := schedule.Today(e.now, e.caller.loc)
	start, end := schedule.DayRange(today, today, e.caller.loc)
	o, err := frontdesk.DayOverview(ctx, e.client, start, end)
	if err != nil {
		return nil, err
	}
	return overviewOut{Date: today.Format(dateLayout), Timezone: e.caller.loc.String(), Overview: o}, nil
}

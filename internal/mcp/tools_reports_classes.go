package mcp

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/mcptools"
	"github.com/venueplatform/venue/internal/reports"
)

type attendanceCountsOut struct {
	Booked        int64 `json:"booked"`
	CheckedIn     int64 `json:"checked_in"`
	NoShow        int64 `json:"no_show"`
	LateCancelled int64 `json:"late_cancelled"`
	Cancelled     int64 `json:"cancelled"`
	Waitlisted    int64 `json:"waitlisted"`
}

type attendanceDayOut struct {
	Date string `json:"date"`
	attendanceCountsOut
}

type attendanceOut struct {
	Range      string              `json:"range"`
	From       string              `json:"from"`
	To         string              `json:"to"`
	Timezone   string              `json:"timezone"`
	View       string              `json:"view"`
	LocationID *string             `json:"location_id"`
	Days       []attendanceDayOut  `json:"days"`
	Totals     attendanceCountsOut `json:"totals"`
}

func countsOut(c reports.Counts) attendanceCountsOut {
	return attendanceCountsOut{Booked: c.Booked, CheckedIn: c.CheckedIn, NoShow: c.NoShow,
		LateCancelled: c.LateCancelled, Cancelled: c.Cancelled, Waitlisted: c.Waitlisted}
}

// attendanceReport is get_attendance_report: the domain call of GET
// /admin/reports/attendance (JSON only; the CSV download stays on REST).
func attendanceReport(ctx context.Context, e *env, in mcptools.GetAttendanceReport) (any, error) {
	p, err := reportPeriod(e, in.Range, in.From, in.To)
	if err != nil {
		return nil, err
	}
	locationID, err := optionalID(in.LocationID)
	if err != nil {
		return nil, err
	}
	a, err := reports.AttendanceReport(ctx, e.client, p, e.caller.loc, e.caller.venue.Timezone, in.View, locationID)
	if err != nil {
		return nil, reportErr(err)
	}
	out := attendanceOut{Range: a.Period.Name, From: a.Period.From.Format(dateLayout), To: a.Period.To.Format(dateLayout),
		Timezone: a.Timezone, View: a.View, Days: make([]attendanceDayOut, len(a.Days)), Totals: countsOut(a.Totals)}
	if a.LocationID != nil {
		s := a.LocationID.String()
		out.LocationID = &s
	}
	for i, d := range a.Days {
		out.Days[i] = attendanceDayOut{Date: d.Date.Format(dateLayout), attendanceCountsOut: countsOut(d.Counts)}
	}
	return out, nil
}

type brandEntryOut struct {
	BrandID          *string          `json:"brand_id"`
	Name             string           `json:"name"`
	Classes          int64            `json:"classes"`
	CancelledClasses int64            `json:"cancelled_classes"`
	Booked           int64            `json:"booked"`
	CheckedIn        int64            `json:"checked_in"`
	Sales            []salesAmountOut `json:"sales"`
}

type brandAnalyticsOut struct {
	Range    string          `json:"range"`
	From     string          `json:"from"`
	To       string          `json:"to"`
	Timezone string          `json:"timezone"`
	Brands   []brandEntryOut `json:"brands"`
}

// brandAnalytics is get_brand_analytics: the domain call of GET
// /admin/reports/brands (JSON only).
func brandAnalytics(ctx context.Context, e *env, in mcptools.GetBrandAnalytics) (any, error) {
	p, err := reportPeriod(e, in.Range, in.From, in.To)
	if err != nil {
		return nil, err
	}
	b, err := reports.BrandAnalytics(ctx, e.client, p, e.caller.loc, e.caller.venue.Timezone)
	if err != nil {
		return nil, reportErr(err)
	}
	out := brandAnalyticsOut{Range: b.Period.Name, From: b.Period.From.Format(dateLayout), To: b.Period.To.Format(dateLayout),
		Timezone: b.Timezone, Brands: make([]brandEntryOut, len(b.Brands))}
	for i, be := range b.Brands {
		o := brandEntryOut{Name: be.Name, Classes: be.Classes, CancelledClasses: be.CancelledClasses,
			Booked: be.Booked, CheckedIn: be.CheckedIn, Sales: make([]salesAmountOut, len(be.Sales))}
		if be.BrandID != nil {
			s := be.BrandID.String()
			o.BrandID = &s
		}
		for j, a := range be.Sales {
			o.Sales[j] = amountOut(a)
		}
		out.Brands[i] = o
	}
	return out, nil
}

// optionalID parses an optional uuid argument the schema has already
// checked; empty is nil.
func optionalID(s string) (*uuid.UUID, error) {
	if s == "" {
		return nil, nil
	}
	u, err := uuid.Parse(s)
	if err != nil {
		return nil, errInvalidParams("arguments do not match the input schema", violation{Message: "malformed id"})
	}
	return &u, nil
}

package mcp

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/mcptools"
	"github.com/venueplatform/venue/internal/reports"
)

type salesAmountOut struct {
	Currency    string  `json:"currency"`
	Exponent    int     `json:"exponent"`
	AmountMinor int64   `json:"amount_minor"`
	Amount      float64 `json:"amount"`
	Payments    int64   `json:"payments"`
}

type salesLineOut struct {
	Method   string `json:"method"`
	Category string `json:"category"`
	salesAmountOut
}

type salesSnapshotOut struct {
	Range    string           `json:"range"`
	From     string           `json:"from"`
	To       string           `json:"to"`
	Timezone string           `json:"timezone"`
	Basis    string           `json:"basis"`
	Totals   []salesAmountOut `json:"totals"`
	Lines    []salesLineOut   `json:"lines"`
}

func amountOut(a reports.Amount) salesAmountOut {
	return salesAmountOut{Currency: a.Currency, Exponent: a.Exponent(), AmountMinor: a.AmountMinor, Amount: a.Major(), Payments: a.Payments}
}

// salesSnapshot is get_sales_snapshot: the domain call of GET
// /admin/sales-snapshot (without refresh, which recomputes the rollup).
func salesSnapshot(ctx context.Context, e *env, in mcptools.GetSalesSnapshot) (any, error) {
	p, err := reportPeriod(e, in.Range, in.From, in.To)
	if err != nil {
		return nil, err
	}
	f := reports.SalesFilter{Basis: in.Basis, Methods: in.Methods, Categories: in.Categories}
	for _, id := range []struct {
		s   string
		dst **uuid.UUID
	}{{in.BrandID, &f.BrandID}, {in.LocationID, &f.LocationID}} {
		if id.s == "" {
			continue
		}
		u, err := uuid.Parse(id.s)
		if err != nil {
			return nil, errInvalidParams("arguments do not match the input schema", violation{Message: "malformed id"})
		}
		*id.dst = &u
	}
	s, err := reports.SalesSnapshot(ctx, e.client, p, e.caller.venue.Timezone, f, false)
	if err != nil {
		return nil, reportErr(err)
	}
	out := salesSnapshotOut{Range: s.Period.Name, From: s.Period.From.Format(dateLayout), To: s.Period.To.Format(dateLayout),
		Timezone: s.Timezone, Basis: s.Filter.Basis, Totals: make([]salesAmountOut, len(s.Totals)), Lines: make([]salesLineOut, len(s.Lines))}
	for i, a := range s.Totals {
		out.Totals[i] = amountOut(a)
	}
	for i, ln := range s.Lines {
		out.Lines[i] = salesLineOut{Method: ln.Method, Category: ln.Category, salesAmountOut: amountOut(ln.Amount)}
	}
	return out, nil
}

// reportPeriod reads a report period as the REST reports do: range (empty
// is today) relative to the venue's local date, from and to only for custom.
func reportPeriod(e *env, rng, fromArg, toArg string) (reports.Period, error) {
	var from, to *time.Time
	for _, d := range []struct {
		s    string
		dst  **time.Time
		path string
	}{{fromArg, &from, "/from"}, {toArg, &to, "/to"}} {
		if d.s == "" {
			continue
		}
		t, err := time.Parse(dateLayout, d.s)
		if err != nil {
			return reports.Period{}, errInvalidParams("arguments do not match the input schema", violation{Path: d.path, Message: "must be a date, YYYY-MM-DD"})
		}
		*d.dst = &t
	}
	l := e.now.In(e.caller.loc)
	today := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC)
	p, err := reports.ParsePeriod(rng, from, to, today)
	if err != nil {
		return reports.Period{}, reportErr(err)
	}
	return p, nil
}

// reportErr maps a refusal of package reports: a 400 (INVALID_RANGE) is
// -32602 naming the argument, a 404 (a brand or location that is not the
// venue's) -32005; anything else passes on.
func reportErr(err error) error {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		return err
	}
	param, _ := ae.Details["parameter"].(string)
	switch ae.Status {
	case http.StatusBadRequest:
		return errInvalidParams(ae.Message, violation{Path: "/" + param, Message: ae.Message})
	case http.StatusNotFound:
		if param == "brand" {
			return errNotFound("brand")
		}
		return errNotFound("location")
	}
	return err
}

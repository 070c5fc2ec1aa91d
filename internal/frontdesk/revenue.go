package frontdesk

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/payment"
)

// MaxRangeDays is the longest explicit range a period may span.
const MaxRangeDays = 366

// ErrPeriod means a period string is malformed, names an impossible date, runs
// backwards or spans more than MaxRangeDays days.
var ErrPeriod = errors.New("invalid period")

const dateLayout = "2006-01-02"

// Period is a span of venue-local dates.
type Period struct {
	// Name is today, week, month or range.
	Name string
	// From and To are the first and last dates (inclusive), at midnight UTC.
	From, To time.Time
	// Start and End bound the instants of the period: Start <= t < End.
	Start, End time.Time
}

// ParsePeriod reads a period relative to now in loc.
func ParsePeriod(s string, now time.Time, loc *time.Location) (Period, error) {
	l := now.In(loc)
	today := time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC)
	var from, to time.Time
	name := s
	switch s {
	case "today":
		from, to = today, today
	case "week":
		offset := (int(today.Weekday()) + 6) % 7 // days since Monday
		from = today.AddDate(0, 0, -offset)
		to = from.AddDate(0, 0, 6)
	case "month":
		from = time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, time.UTC)
		to = from.AddDate(0, 1, -1)
	default:
		a, b, ok := strings.Cut(s, "..")
		if !ok {
			return Period{}, fmt.Errorf("%w: %q (want today, week, month or YYYY-MM-DD..YYYY-MM-DD)", ErrPeriod, s)
		}
		var err error
		if from, err = time.Parse(dateLayout, a); err != nil {
			return Period{}, fmt.Errorf("%w: %q is not a date", ErrPeriod, a)
		}
		if to, err = time.Parse(dateLayout, b); err != nil {
			return Period{}, fmt.Errorf("%w: %q is not a date", ErrPeriod, b)
		}
		if to.Before(from) {
			return Period{}, fmt.Errorf("%w: %s is before %s", ErrPeriod, b, a)
		}
		if days := int(to.Sub(from).Hours()/24) + 1; days > MaxRangeDays {
			return Period{}, fmt.Errorf("%w: %d days (at most %d)", ErrPeriod, days, MaxRangeDays)
		}
		name = "range"
	}
	start := time.Date(from.Year(), from.Month(), from.Day(), 0, 0, 0, 0, loc)
	end := time.Date(to.Year(), to.Month(), to.Day()+1, 0, 0, 0, 0, loc)
	return Period{Name: name, From: from, To: to, Start: start.UTC(), End: end.UTC()}, nil
}

// RevenueTotal is the revenue of one currency.
type RevenueTotal struct {
	Currency    string `json:"currency"`
	AmountMinor int64  `json:"amount_minor"`
	Payments    int    `json:"payments"`
}

// RevenueSummary totals the succeeded payments of the viewer's venue paid in
// [p.Start, p.End) by currency, ordered by currency code, in one grouped query.
func RevenueSummary(ctx context.Context, client *ent.Client, p Period) ([]RevenueTotal, error) {
	var rows []struct {
		Currency string `json:"currency"`
		Sum      int64  `json:"sum"`
		Count    int    `json:"count"`
	}
	err := client.Payment.Query().
		Where(
			payment.StatusEQ(payment.StatusSucceeded),
			payment.PaidAtGTE(p.Start),
			payment.PaidAtLT(p.End),
		).
		GroupBy(payment.FieldCurrency).
		Aggregate(ent.As(ent.Sum(payment.FieldAmountMinor), "sum"), ent.As(ent.Count(), "count")).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("revenue summary: %w", err)
	}
	out := make([]RevenueTotal, len(rows))
	for i, r := range rows {
		out[i] = RevenueTotal{Currency: r.Currency, AmountMinor: r.Sum, Payments: r.Count}
	}
	slices.SortFunc(out, func(a, b RevenueTotal) int { return strings.Compare(a.Currency, b.Currency) })
	return out, nil
}

package reports

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"entgo.io/ent/dialect/sql"
	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/brand"
	"github.com/venueplatform/venue/ent/location"
	"github.com/venueplatform/venue/ent/predicate"
	"github.com/venueplatform/venue/ent/salesdaily"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/system"
	"github.com/venueplatform/venue/internal/viewer"
)

// The bases of the sales snapshot.
const (
	BasisCash    = "cash"
	BasisAccrual = "accrual"
)

// Methods are the payment methods, as the payments table stores them.
var Methods = []string{"card", "cash", "gift_card", "bank_transfer", "other"}

// Categories are the payment kinds the snapshot groups by.
var Categories = []string{"pass_purchase", "renewal", "drop_in", "product", "gift_card", "fee", "other"}

// CodeBrandNotFound is the 404 of a brand filter that is not the venue's.
const CodeBrandNotFound = "BRAND_NOT_FOUND"

// SalesFilter selects the payments a snapshot sums.
type SalesFilter struct {
	// Basis is BasisCash (empty means cash) or BasisAccrual.
	Basis string
	// Methods and Categories keep the listed ones; empty keeps all.
	Methods, Categories []string
	// BrandID and LocationID keep one brand's or location's sales.
	BrandID, LocationID *uuid.UUID
}

// Amount is a sum of payments in one currency, net of their refunds:
// AmountMinor = GrossMinor - RefundedMinor.
type Amount struct {
	Currency    string
	AmountMinor int64
	Payments    int64
	// GrossMinor is the payments' sum; RefundedMinor and Refunds the refunds
	// that succeeded in the period, of payments of the same dimensions.
	GrossMinor    int64
	RefundedMinor int64
	Refunds       int64
}

// Exponent is the currency's number of minor-unit digits.
func (a Amount) Exponent() int { return money.Exponent(a.Currency) }

// Major is the amount in major units.
func (a Amount) Major() float64 { return money.ToMajor(a.AmountMinor, a.Currency) }

// Decimal is the amount in major units as exact text (123.45, 5000, 1.250).
func (a Amount) Decimal() string { return Decimal(a.AmountMinor, a.Currency) }

// SalesLine is the sum of one method, category and currency.
type SalesLine struct {
	Method, Category string
	Amount
}

// Snapshot is the sales of a period.
type Snapshot struct {
	Period    Period
	Timezone  string
	Filter    SalesFilter
	Totals    []Amount    // per currency, by code
	Lines     []SalesLine // by method, category, currency
	Refreshed bool
}

// Decimal writes minor in major units with the currency's digits.
func Decimal(minor int64, currency string) string {
	s := money.Format(minor, currency)
	return strings.TrimSuffix(s, " "+currency)
}

// ParseList splits a comma-separated list of allowed values (empty is none),
// refusing an unknown value as 400 VALIDATION_ERROR naming parameter.
func ParseList(parameter, s string, allowed []string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	var out []string
	for _, v := range strings.Split(s, ",") {
		if !slices.Contains(allowed, v) {
			return nil, apperr.Validation(parameter, fmt.Sprintf("%s must list %s", parameter, strings.Join(allowed, ", ")))
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// CheckBrand answers 404 BRAND_NOT_FOUND unless id is a brand of the viewer's venue.
func CheckBrand(ctx context.Context, client *ent.Client, id uuid.UUID) error {
	ok, err := client.Brand.Query().Where(brand.ID(id)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("reports: brand: %w", err)
	}
	if !ok {
		return (&apperr.Error{Status: 404, Code: CodeBrandNotFound, Message: "brand not found"}).With("parameter", "brand")
	}
	return nil
}

// CheckLocation answers 404 NOT_FOUND unless id is a location of the viewer's venue.
func CheckLocation(ctx context.Context, client *ent.Client, id uuid.UUID) error {
	ok, err := client.Location.Query().Where(location.ID(id)).Exist(ctx)
	if err != nil {
		return fmt.Errorf("reports: location: %w", err)
	}
	if !ok {
		return apperr.NotFound("location").With("parameter", "location")
	}
	return nil
}

// SalesSnapshot sums the viewer's venue's payments of period p (venue time
// zone tz) selected by f, from the daily rollup: its cost follows the days
// and dimensions of the range, not the number of payments. refresh first
// recomputes the period's days from the payment rows.
func SalesSnapshot(ctx context.Context, client *ent.Client, p Period, tz string, f SalesFilter, refresh bool) (*Snapshot, error) {
	if f.Basis == "" {
		f.Basis = BasisCash
	}
	if f.BrandID != nil {
		if err := CheckBrand(ctx, client, *f.BrandID); err != nil {
			return nil, err
		}
	}
	if f.LocationID != nil {
		if err := CheckLocation(ctx, client, *f.LocationID); err != nil {
			return nil, err
		}
	}
	if refresh {
		if err := Refresh(ctx, client, p); err != nil {
			return nil, err
		}
	}
	lines, err := salesLines(ctx, client, p, f)
	if err != nil {
		return nil, err
	}
	return &Snapshot{Period: p, Timezone: tz, Filter: f, Lines: lines, Totals: totals(lines), Refreshed: refresh}, nil
}

// Refresh recomputes the rollup of the viewer's venue for the dates of p
// from the payment rows, in one statement of the database's own function
// (the same arithmetic as the trigger).
func Refresh(ctx context.Context, client *ent.Client, p Period) error {
	org, ok := viewer.VenueFromContext(ctx)
	if !ok {
		return fmt.Errorf("reports: refresh without a venue")
	}
	_, err := client.ExecContext(system.RawSQL(ctx, "reports.sales_refresh"),
		`SELECT venue_sales_daily_refresh($1, $2::date, $3::date)`, org,
		p.From.Format("2006-01-02"), p.To.Format("2006-01-02"))
	if err != nil {
		return fmt.Errorf("reports: refresh: %w", err)
	}
	return nil
}

func salesLines(ctx context.Context, client *ent.Client, p Period, f SalesFilter) ([]SalesLine, error) {
	preds := []predicate.SalesDaily{
		salesdaily.BasisEQ(salesdaily.Basis(f.Basis)),
		salesdaily.DayGTE(p.From), salesdaily.DayLTE(p.To),
	}
	if len(f.Methods) > 0 {
		ms := make([]salesdaily.Method, len(f.Methods))
		for i, m := range f.Methods {
			ms[i] = salesdaily.Method(m)
		}
		preds = append(preds, salesdaily.MethodIn(ms...))
	}
	if len(f.Categories) > 0 {
		preds = append(preds, salesdaily.CategoryIn(f.Categories...))
	}
	if f.BrandID != nil {
		preds = append(preds, salesdaily.BrandID(*f.BrandID))
	}
	if f.LocationID != nil {
		preds = append(preds, salesdaily.LocationID(*f.LocationID))
	}
	var rows []struct {
		Currency string `json:"currency"`
		Method   string `json:"method"`
		Category string `json:"category"`
		Sum      int64  `json:"sum"`
		Count    int64  `json:"count"`
		Refunded int64  `json:"refunded"`
		Refunds  int64  `json:"refunds"`
	}
	err := client.SalesDaily.Query().Where(preds...).
		GroupBy(salesdaily.FieldCurrency, salesdaily.FieldMethod, salesdaily.FieldCategory).
		Aggregate(sumAs(salesdaily.FieldAmountMinor, "sum"), sumAs(salesdaily.FieldPayments, "count"),
			sumAs(salesdaily.FieldRefundedMinor, "refunded"), sumAs(salesdaily.FieldRefunds, "refunds")).
		Scan(ctx, &rows)
	if err != nil {
		return nil, fmt.Errorf("reports: sales: %w", err)
	}
	out := make([]SalesLine, 0, len(rows))
	for _, r := range rows {
		if r.Count == 0 && r.Sum == 0 && r.Refunds == 0 && r.Refunded == 0 {
			continue // every payment of the line was taken back out
		}
		out = append(out, SalesLine{Method: r.Method, Category: r.Category,
			Amount: Amount{Currency: r.Currency, AmountMinor: r.Sum - r.Refunded, Payments: r.Count,
				GrossMinor: r.Sum, RefundedMinor: r.Refunded, Refunds: r.Refunds}})
	}
	slices.SortFunc(out, func(a, b SalesLine) int {
		if c := strings.Compare(a.Method, b.Method); c != 0 {
			return c
		}
		if c := strings.Compare(a.Category, b.Category); c != 0 {
			return c
		}
		return strings.Compare(a.Currency, b.Currency)
	})
	return out, nil
}

// sumAs is SUM(column)::bigint AS name: PostgreSQL's sum of bigints is a
// numeric, which the scan would read as text.
func sumAs(column, name string) ent.AggregateFunc {
	return func(s *sql.Selector) string {
		return sql.As(fmt.Sprintf("COALESCE(SUM(%s), 0)::bigint", s.C(column)), name)
	}
}

func totals(lines []SalesLine) []Amount {
	by := map[string]*Amount{}
	var codes []string
	for _, l := range lines {
		a, ok := by[l.Currency]
		if !ok {
			a = &Amount{Currency: l.Currency}
			by[l.Currency] = a
			codes = append(codes, l.Currency)
		}
		a.AmountMinor += l.AmountMinor
		a.Payments += l.Payments
		a.GrossMinor += l.GrossMinor
		a.RefundedMinor += l.RefundedMinor
		a.Refunds += l.Refunds
	}
	slices.Sort(codes)
	out := make([]Amount, len(codes))
	for i, c := range codes {
		out[i] = *by[c]
	}
	return out
}

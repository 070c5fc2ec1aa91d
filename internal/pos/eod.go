package pos

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/posdayclose"
	"github.com/venueplatform/venue/ent/possale"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/model"
)

// Day is a business date's takings and, once closed, its close.
type Day struct {
	Date     time.Time
	Currency string
	Totals   []model.PosMethodTotal
	// ExpectedCashMinor is the cash the venue's currency's cash sales
	// brought (plus the opening float of a close).
	ExpectedCashMinor int64
	Close             *ent.PosDayClose
}

// CloseParams close a business date.
type CloseParams struct {
	// Date is the venue-local date; zero is the venue's today.
	Date              time.Time
	CountedCashMinor  int64
	OpeningFloatMinor int64
	Note              string
}

// totals sums the date's desk sales per method and currency.
func totals(ctx context.Context, client *ent.Client, date time.Time) ([]model.PosMethodTotal, error) {
	sales, err := client.PosSale.Query().Where(possale.BusinessDate(date)).
		Select(possale.FieldMethod, possale.FieldCurrency, possale.FieldTotalMinor).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: day's sales: %w", err)
	}
	by := map[[2]string]*model.PosMethodTotal{}
	for _, s := range sales {
		k := [2]string{string(s.Method), s.Currency}
		t, ok := by[k]
		if !ok {
			t = &model.PosMethodTotal{Method: k[0], Currency: k[1]}
			by[k] = t
		}
		t.Count++
		t.TotalMinor += s.TotalMinor
	}
	out := make([]model.PosMethodTotal, 0, len(by))
	for _, t := range by {
		out = append(out, *t)
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Method != out[b].Method {
			return out[a].Method < out[b].Method
		}
		return out[a].Currency < out[b].Currency
	})
	return out, nil
}

func cashOf(ts []model.PosMethodTotal, currency string) int64 {
	for _, t := range ts {
		if t.Method == MethodCash && t.Currency == currency {
			return t.TotalMinor
		}
	}
	return 0
}

// Day reads a date's takings (zero: the venue's today) and its close.
func (s *Service) Day(ctx context.Context, date time.Time) (*Day, error) {
	if _, err := Staff(ctx, false, PermAccess); err != nil {
		return nil, err
	}
	today, cur, err := venueDay(ctx, s.client, s.now())
	if err != nil {
		return nil, err
	}
	if date.IsZero() {
		date = today
	}
	ts, err := totals(ctx, s.client, date)
	if err != nil {
		return nil, err
	}
	d := &Day{Date: date, Currency: cur, Totals: ts, ExpectedCashMinor: cashOf(ts, cur)}
	c, err := s.client.PosDayClose.Query().Where(posdayclose.BusinessDate(date)).Only(ctx)
	switch {
	case err == nil:
		d.Close = c
		d.ExpectedCashMinor = c.ExpectedCashMinor
	case !ent.IsNotFound(err):
		return nil, err
	}
	return d, nil
}

// CloseDay closes a business date: the takings per method, the cash
// expected (opening float plus cash sales in the venue's currency) against
// the cash counted, stored as the date's one close (an earlier close of
// the date is replaced) and audited. A date after the venue's today is 400.
func (s *Service) CloseDay(ctx context.Context, p CloseParams) (*Day, error) {
	u, err := Staff(ctx, false, PermSell)
	if err != nil {
		return nil, err
	}
	now := s.now()
	today, cur, err := venueDay(ctx, s.client, now)
	if err != nil {
		return nil, err
	}
	if p.Date.IsZero() {
		p.Date = today
	}
	if p.Date.After(today) {
		return nil, apperr.Validation("date", "a date after the venue's today cannot be closed")
	}
	var out Day
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		ts, err := totals(ctx, tx.Client(), p.Date)
		if err != nil {
			return err
		}
		expected := p.OpeningFloatMinor + cashOf(ts, cur)
		id, err := tx.PosDayClose.Create().SetBusinessDate(p.Date).SetCurrency(cur).SetTotals(ts).
			SetOpeningFloatMinor(p.OpeningFloatMinor).SetExpectedCashMinor(expected).
			SetCountedCashMinor(p.CountedCashMinor).SetDifferenceMinor(p.CountedCashMinor-expected).
			SetNote(p.Note).SetClosedByUserID(u.UserID).SetClosedAt(now).
			OnConflictColumns(posdayclose.FieldOrganizationID, posdayclose.FieldBusinessDate).
			UpdateNewValues().ID(ctx)
		if err != nil {
			return err
		}
		c, err := tx.PosDayClose.Get(ctx, id)
		if err != nil {
			return err
		}
		out = Day{Date: p.Date, Currency: cur, Totals: ts, ExpectedCashMinor: expected, Close: c}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "pos.day_closed", Target: "pos_day_close:" + c.ID.String(),
			Details: map[string]any{"business_date": p.Date.Format(time.DateOnly), "expected_cash_minor": expected,
				"counted_cash_minor": p.CountedCashMinor, "difference_minor": c.DifferenceMinor}})
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

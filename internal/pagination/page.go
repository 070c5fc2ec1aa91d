package pagination

import (
	"net/url"
	"strconv"

	"github.com/venueplatform/venue/internal/apperr"
)

// Parameter names of the list query strings.
const (
	ParamPage  = "page"
	ParamLimit = "limit"
	ParamAfter = "after"
)

// MaxPage bounds `page`: deeper offsets are refused rather than scanned.
const MaxPage = 1_000_000

// Optional is an optional integer parameter; the generated server's OptInt
// satisfies it.
type Optional interface {
	Get() (int, bool)
}

type optional struct {
	v  int
	ok bool
}

func (o optional) Get() (int, bool) { return o.v, o.ok }

// Value is an Optional holding v when ok.
func Value(v int, ok bool) Optional { return optional{v: v, ok: ok} }

// Unset is an Optional holding nothing.
func Unset() Optional { return optional{} }

// PageRule is the limit policy of one page-based list.
type PageRule struct {
	// DefaultLimit applies when `limit` is absent.
	DefaultLimit int
	// MaxLimit is the largest accepted `limit`.
	MaxLimit int
}

// Page is a validated page request.
type Page struct {
	Number int
	Limit  int
}

// Offset is the number of rows before the page.
func (p Page) Offset() int { return (p.Number - 1) * p.Limit }

// PageMeta is the `meta` of a page-based list answer.
type PageMeta struct {
	Page    int  `json:"page"`
	Limit   int  `json:"limit"`
	Total   int  `json:"total"`
	HasMore bool `json:"has_more"`
}

// Meta returns the meta of p for a list of total rows.
func (p Page) Meta(total int) PageMeta {
	return PageMeta{Page: p.Number, Limit: p.Limit, Total: total, HasMore: p.Offset()+p.Limit < total}
}

// Parse validates page and limit against r: page 1 to MaxPage (default 1),
// limit 1 to r.MaxLimit (default r.DefaultLimit).
func (r PageRule) Parse(page, limit Optional) (Page, error) {
	p := Page{Number: 1, Limit: r.DefaultLimit}
	if v, ok := page.Get(); ok {
		if v < 1 || v > MaxPage {
			return Page{}, OutOfRange(ParamPage, 1, MaxPage)
		}
		p.Number = v
	}
	l, err := parseLimit(limit, r.DefaultLimit, r.MaxLimit)
	if err != nil {
		return Page{}, err
	}
	p.Limit = l
	return p, nil
}

// ParseQuery is Parse over a raw query string.
func (r PageRule) ParseQuery(q url.Values) (Page, error) {
	page, err := queryInt(q, ParamPage)
	if err != nil {
		return Page{}, err
	}
	limit, err := queryInt(q, ParamLimit)
	if err != nil {
		return Page{}, err
	}
	return r.Parse(page, limit)
}

func parseLimit(limit Optional, def, maxLimit int) (int, error) {
	v, ok := limit.Get()
	if !ok {
		return def, nil
	}
	if v < 1 || v > maxLimit {
		return 0, OutOfRange(ParamLimit, 1, maxLimit)
	}
	return v, nil
}

func queryInt(q url.Values, name string) (Optional, error) {
	if !q.Has(name) {
		return Unset(), nil
	}
	v, err := strconv.Atoi(q.Get(name))
	if err != nil {
		return nil, apperr.Validation(name, name+" must be an integer")
	}
	return Value(v, true), nil
}

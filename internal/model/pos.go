package model

// PosLine is one line of a point-of-sale sale or return, frozen as it was
// charged: what was sold, how many, at which unit price (VAT-inclusive, in
// minor units of the sale's currency) and from which price book version.
type PosLine struct {
	Kind             string `json:"kind"`
	ID               string `json:"id"`
	Name             string `json:"name,omitempty"`
	Quantity         int    `json:"quantity"`
	UnitMinor        int64  `json:"unit_minor"`
	TotalMinor       int64  `json:"total_minor"`
	PriceBookVersion int    `json:"price_book_version,omitempty"`
}

// PosMethodTotal is one payment method's takings in one currency on a
// business day, as an end-of-day close stored them.
type PosMethodTotal struct {
	Method     string `json:"method"`
	Currency   string `json:"currency"`
	Count      int    `json:"count"`
	TotalMinor int64  `json:"total_minor"`
}

// PosPin is one quick-sale pin of the desk: a pass type or a product.
type PosPin struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
}

package model

// InvoiceLine is one line of an invoice: what was billed, for which period,
// the VAT-inclusive amount and the VAT inside it, in minor units.
type InvoiceLine struct {
	Description string `json:"description"`
	Quantity    int64  `json:"quantity"`
	AmountMinor int64  `json:"amount_minor"`
	VatMinor    int64  `json:"vat_minor"`
	VatRateBp   int    `json:"vat_rate_bp"`
	PeriodStart string `json:"period_start,omitempty"`
	PeriodEnd   string `json:"period_end,omitempty"`
}

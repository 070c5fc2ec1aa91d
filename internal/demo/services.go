package demo

import "github.com/venueplatform/venue/internal/importer"

// services gives the demo venue appointment services: two take booking
// inquiries (POST /venues/copenhagen-flow/inquiries), one is walk-in only.
func services(d *importer.Document) {
	price := func(v int64) *int64 { return &v }
	yes := true
	d.Services = []importer.Service{
		{Ref: "sv-private-yoga", Name: "Private yoga session", Category: "Private sessions",
			Description:     "One-to-one practice with a teacher of your choice, at a time that suits you.",
			DurationMinutes: intp(75), PriceMinor: price(90000), Currency: Currency, AcceptsInquiries: &yes, SortOrder: intp(1)},
		{Ref: "sv-sports-massage", Name: "Sports massage", Category: "Massage",
			Description:     "Deep work on the muscles your practice leans on.",
			DurationMinutes: intp(60), PriceMinor: price(65000), Currency: Currency, AcceptsInquiries: &yes, SortOrder: intp(2)},
		{Ref: "sv-posture-check", Name: "Posture check", Category: "Private sessions",
			Description:     "A short look at alignment before or after class; ask at the front desk.",
			DurationMinutes: intp(15), PriceMinor: price(0), Currency: Currency, SortOrder: intp(3)},
	}
}

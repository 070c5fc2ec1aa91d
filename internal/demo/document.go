package demo

import (
	"fmt"
	"time"

	"github.com/venueplatform/venue/internal/importer"
	"github.com/venueplatform/venue/internal/model"
)

// classSlot is a class on every day of the demo week.
type classSlot struct {
	hour, minute int
	classType    string
	instructor   string
	room         string
}

var slots = []classSlot{
	{7, 0, "ct-vinyasa", "i-mette", "r-vesterbro-1"},
	{9, 0, "ct-reformer", "i-sofie", "r-norrebro-2"},
	{12, 0, "ct-hot", "i-mette", "r-vesterbro-1"},
	{17, 30, "ct-spin", "i-jonas", "r-norrebro-1"},
	{18, 0, "ct-yin", "i-sofie", "r-vesterbro-2"},
	{19, 0, "ct-hiit", "i-lucas", "r-norrebro-1"},
}

// fullClass is the slot and day (0 is today) of the class that is full and
// has a waitlist.
const fullSlot, fullDay = 1, 1

var roomCapacity = map[string]int{"r-vesterbro-1": 24, "r-vesterbro-2": 12, "r-norrebro-1": 16, "r-norrebro-2": 8}

var people = [][2]string{
	{"Astrid", "Nielsen"}, {"Bo", "Jensen"}, {"Clara", "Holm"}, {"Emil", "Hansen"}, {"Freja", "Pedersen"},
	{"Gustav", "Andersen"}, {"Ida", "Christensen"}, {"Jonas", "Larsen"}, {"Karla", "Sørensen"}, {"Lucas", "Rasmussen"},
	{"Mathilde", "Jørgensen"}, {"Noah", "Petersen"}, {"Olivia", "Madsen"}, {"Oscar", "Kristensen"}, {"Sofie", "Olsen"},
	{"William", "Thomsen"}, {"Alma", "Poulsen"}, {"Carl", "Johansen"}, {"Ella", "Møller"}, {"Frederik", "Mortensen"},
}

// passOf is the pass type of each member (by index); "" means no pass.
func passOf(i int) string {
	switch {
	case i < 8:
		return "pt-monthly"
	case i < 14:
		return "pt-clip"
	case i < 18:
		return "pt-flex"
	case i == 18:
		return "pt-drop-in"
	default:
		return ""
	}
}

var prices = map[string]int64{"pt-monthly": 59900, "pt-clip": 120000, "pt-flex": 39900, "pt-drop-in": 15000}

// Document returns the demo venue's data for the week that starts on now's
// venue-local day.
func Document(now time.Time) (*importer.Document, error) {
	loc, err := time.LoadLocation(Timezone)
	if err != nil {
		return nil, ErrNoZone
	}
	local := now.In(loc)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	d := &importer.Document{Format: importer.Format}
	catalogue(d)
	profile(d, today)
	services(d)
	d.Members, d.Passes, d.Payments = membership(today)
	d.Classes, d.Bookings = week(today, now)
	d.Alerts = []importer.Alert{
		{Ref: "a-card-reader", Severity: "warning", Title: "Card reader offline at Vesterbro",
			Message:   "The front desk card reader stopped answering; take payments in the app.",
			CreatedAt: now.Add(-2 * time.Hour).Format(time.RFC3339)},
		{Ref: "a-heating", Severity: "info", Title: "Heating serviced in Sal 1",
			Message: "Hot classes ran at normal temperature after the service.", Resolved: true,
			CreatedAt:  now.AddDate(0, 0, -3).Format(time.RFC3339),
			ResolvedAt: now.AddDate(0, 0, -2).Format(time.RFC3339)},
	}
	return d, nil
}

func intp(v int) *int { return &v }

func catalogue(d *importer.Document) {
	d.Brands = []importer.Brand{
		{Ref: "b-flow", Name: "Copenhagen Flow", Slug: "copenhagen-flow", Description: "Yoga and pilates"},
		{Ref: "b-ride", Name: "Ride CPH", Slug: "ride-cph", Description: "Indoor cycling and HIIT"},
	}
	d.Locations = []importer.Location{
		{Ref: "l-vesterbro", Name: "Vesterbro", Address: "Istedgade 70, 1650 København V", City: "København",
			Lat: ptr(55.6699), Lng: ptr(12.5533), Rooms: []importer.Room{
				{Ref: "r-vesterbro-1", Name: "Sal 1", Capacity: intp(24), RoomType: "studio"},
				{Ref: "r-vesterbro-2", Name: "Sal 2", Capacity: intp(12), RoomType: "studio"},
			}},
		{Ref: "l-norrebro", Name: "Nørrebro", Address: "Jægersborggade 12, 2200 København N", City: "København",
			Lat: ptr(55.6941), Lng: ptr(12.5491), Rooms: []importer.Room{
				{Ref: "r-norrebro-1", Name: "Ride room", Capacity: intp(16), RoomType: "spin"},
				{Ref: "r-norrebro-2", Name: "Reformer room", Capacity: intp(8), RoomType: "reformer"},
			}},
	}
	d.ClassTypes = []importer.ClassType{
		{Ref: "ct-vinyasa", Name: "Vinyasa Flow", Brand: "b-flow", DurationMinutes: intp(60), Description: "A steady, breath-led flow for all levels."},
		{Ref: "ct-hot", Name: "Hot Yoga 60", Brand: "b-flow", DurationMinutes: intp(60), Description: "Yoga in a heated room."},
		{Ref: "ct-yin", Name: "Yin Yoga", Brand: "b-flow", DurationMinutes: intp(75), Description: "Long, quiet holds."},
		{Ref: "ct-reformer", Name: "Reformer Pilates", Brand: "b-flow", DurationMinutes: intp(50), Description: "Small-group reformer class."},
		{Ref: "ct-spin", Name: "Ride 45", Brand: "b-ride", DurationMinutes: intp(45), Description: "Rhythm ride on bikes."},
		{Ref: "ct-hiit", Name: "HIIT 45", Brand: "b-ride", DurationMinutes: intp(45), Description: "Intervals with bodyweight and bells."},
	}
	d.Instructors = []importer.Instructor{
		{Ref: "i-mette", FirstName: "Mette", LastName: "Hansen", Email: "mette@copenhagen-flow.example"},
		{Ref: "i-jonas", FirstName: "Jonas", LastName: "Berg", Email: "jonas@copenhagen-flow.example"},
		{Ref: "i-sofie", FirstName: "Sofie", LastName: "Dahl", Email: "sofie@copenhagen-flow.example"},
		{Ref: "i-lucas", FirstName: "Lucas", LastName: "Lund", Email: "lucas@copenhagen-flow.example"},
	}
	price := func(ref string) *int64 { p := prices[ref]; return &p }
	d.PassTypes = []importer.PassType{
		{Ref: "pt-drop-in", Name: "Drop-in", Category: "drop_in", PriceMinor: price("pt-drop-in"), Currency: Currency, ValidityDays: intp(1)},
		{Ref: "pt-clip", Name: "10-clip card", Category: "clip_card", PriceMinor: price("pt-clip"), Currency: Currency,
			Clips: intp(10), ValidityDays: intp(180)},
		{Ref: "pt-monthly", Name: "Unlimited monthly", Category: "membership", PriceMinor: price("pt-monthly"), Currency: Currency,
			IsRecurring: true, BillingInterval: "month", BillingIntervalCount: intp(1), AllowedBrands: []string{"b-flow", "b-ride"}},
		{Ref: "pt-flex", Name: "Flexible membership", Category: "membership", PriceMinor: price("pt-flex"), Currency: Currency,
			IsRecurring: true, BillingInterval: "month", BillingIntervalCount: intp(1), PricingMode: "flexible_quantity",
			FlexiblePricingConfig: &model.FlexiblePricingConfig{
				SchemaVersion: 1, MinimumQuantity: 4, MaximumQuantity: 12, QuantityStep: 1,
				Tiers:        []model.PriceTier{{UpTo: 8, PricePerClass: 95}, {UpTo: 12, PricePerClass: 85}},
				Unlimited:    model.Unlimited{Enabled: true, Price: 899},
				ChangePolicy: model.ChangePolicy{MemberChangesEnabled: true, AllowedCycleOffsets: []int{1, 2}, DefaultCycleOffset: 1},
			}},
	}
}

func ptr(f float64) *float64 { return &f }

// membership returns the members with their passes and payments.
func membership(today time.Time) ([]importer.Member, []importer.Pass, []importer.Payment) {
	var ms []importer.Member
	var ps []importer.Pass
	var pays []importer.Payment
	for i, p := range people {
		ref := fmt.Sprintf("m%02d", i+1)
		joined := today.AddDate(0, -3*(i+1), 0).Add(10 * time.Hour)
		ms = append(ms, importer.Member{Ref: ref, FirstName: p[0], LastName: p[1],
			Email:           fmt.Sprintf("%s.%s@example.com", lowerASCII(p[0]), lowerASCII(p[1])),
			Phone:           fmt.Sprintf("+45 20 %02d %02d %02d", 10+i, 30+i, 50+i),
			ClientDisplayID: fmt.Sprintf("CF-%04d", 1001+i), JoinedAt: joined.Format(time.RFC3339)})
		pt := passOf(i)
		if pt == "" {
			continue
		}
		from := today.AddDate(0, 0, -(i*5)%28)
		pass := importer.Pass{Ref: "p-" + ref, Member: ref, PassType: pt, Status: "active", ValidFrom: from.Format(time.DateOnly)}
		switch pt {
		case "pt-clip":
			pass.ValidTo = from.AddDate(0, 0, 180).Format(time.DateOnly)
			pass.ClipsRemaining = intp(10 - i%7)
		case "pt-drop-in":
			pass.ValidTo = today.AddDate(0, 0, 1).Format(time.DateOnly)
		}
		if i == 7 {
			pass.Status = "past_due"
		}
		ps = append(ps, pass)
		amount := prices[pt]
		paid := from.Add(10 * time.Hour).Format(time.RFC3339)
		kind := "pass_purchase"
		if pt == "pt-monthly" || pt == "pt-flex" {
			kind = "renewal"
		}
		status := "succeeded"
		if i == 7 {
			status = "failed"
		}
		pays = append(pays, importer.Payment{Ref: "pay-" + ref, Member: ref, Pass: "p-" + ref, AmountMinor: &amount,
			Currency: Currency, Status: status, PaidAt: paid, Kind: kind})
	}
	return ms, ps, pays
}

func lowerASCII(s string) string {
	out := []rune{}
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			out = append(out, r+'a'-'A')
		case r == 'ø' || r == 'Ø':
			out = append(out, 'o')
		default:
			out = append(out, r)
		}
	}
	return string(out)
}

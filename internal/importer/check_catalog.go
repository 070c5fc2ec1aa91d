package importer

import (
	"net/mail"
	"regexp"

	"github.com/google/uuid"
)

// slugPattern is the shape of brand and pass type slugs (as in the schema).
var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

func (p *plan) checkBrands() {
	for i, in := range p.doc.Brands {
		it, id, ok := p.begin(SecBrands, i, in.Ref)
		if !ok {
			continue
		}
		p.required(it, "name", in.Name, 200)
		if in.Slug != "" && (len(in.Slug) > 100 || !slugPattern.MatchString(in.Slug)) {
			p.ps.add(it, "slug", "invalid slug %q; want lower-case letters and digits joined by single hyphens", in.Slug)
		}
		p.checkBrandTheme(it, in)
		p.brands = append(p.brands, &brandPlan{it: it, in: in, id: id, ex: p.db.brands[in.Ref]})
	}
}

func (p *plan) checkLocations() {
	for i, in := range p.doc.Locations {
		it, id, ok := p.begin(SecLocations, i, in.Ref)
		if !ok {
			continue
		}
		p.required(it, "name", in.Name, 200)
		if in.Lat != nil && (*in.Lat < -90 || *in.Lat > 90) {
			p.ps.add(it, "lat", "must be between -90 and 90")
		}
		if in.Lng != nil && (*in.Lng < -180 || *in.Lng > 180) {
			p.ps.add(it, "lng", "must be between -180 and 180")
		}
		lp := &locationPlan{it: it, in: in, id: id, ex: p.db.locations[in.Ref]}
		p.locations = append(p.locations, lp)
		for _, r := range in.Rooms {
			p.checkRoom(r, lp)
		}
	}
	for _, r := range p.db.rooms {
		p.roomLocation[r.ID] = r.LocationID
		p.roomCapacity[r.ID] = r.Capacity
	}
	for _, r := range p.rooms {
		p.roomLocation[r.id] = r.location.id
		if r.in.Capacity != nil {
			p.roomCapacity[r.id] = *r.in.Capacity
		}
	}
}

func (p *plan) checkRoom(in Room, lp *locationPlan) {
	it, id, ok := p.begin(SecRooms, p.roomIndex, in.Ref)
	p.roomIndex++
	if !ok {
		return
	}
	p.required(it, "name", in.Name, 200)
	if in.Capacity == nil {
		p.ps.add(it, "capacity", "missing; want a positive number of places")
	} else {
		p.positive(it, "capacity", in.Capacity)
	}
	roomType := in.RoomType
	if roomType == "" {
		roomType = "studio"
	}
	p.rooms = append(p.rooms, &roomPlan{it: it, in: in, id: id, ex: p.db.rooms[in.Ref], location: lp, roomType: roomType})
}

func (p *plan) checkClassTypes() {
	for i, in := range p.doc.ClassTypes {
		it, id, ok := p.begin(SecClassTypes, i, in.Ref)
		if !ok {
			continue
		}
		p.required(it, "name", in.Name, 200)
		p.positive(it, "duration_minutes", in.DurationMinutes)
		brand := p.resolveOpt(it, "brand", SecBrands, in.Brand)
		p.classTypes = append(p.classTypes, &classTypePlan{it: it, in: in, id: id, ex: p.db.classTypes[in.Ref], brand: brand})
	}
}

func (p *plan) checkInstructors() {
	for i, in := range p.doc.Instructors {
		it, id, ok := p.begin(SecInstructors, i, in.Ref)
		if !ok {
			continue
		}
		p.required(it, "first_name", in.FirstName, 100)
		if len(in.LastName) > 100 {
			p.ps.add(it, "last_name", "longer than 100 characters")
		}
		if in.Email != "" {
			if a, err := mail.ParseAddress(in.Email); err != nil || a.Address != in.Email {
				p.ps.add(it, "email", "invalid email %q", in.Email)
			}
		}
		p.instructors = append(p.instructors, &instructorPlan{it: it, in: in, id: id, ex: p.db.instructors[in.Ref]})
	}
}

func (p *plan) checkPassTypes() {
	for i, in := range p.doc.PassTypes {
		it, id, ok := p.begin(SecPassTypes, i, in.Ref)
		if !ok {
			continue
		}
		p.required(it, "name", in.Name, 200)
		if in.Slug != "" && (len(in.Slug) > 100 || !slugPattern.MatchString(in.Slug)) {
			p.ps.add(it, "slug", "invalid slug %q; want lower-case letters and digits joined by single hyphens", in.Slug)
		}
		category := p.enum(it, "category", in.Category, "", categories)
		switch {
		case in.PriceMinor == nil:
			p.ps.add(it, "price_minor", "missing; want the price in minor units")
		case *in.PriceMinor < 0:
			p.ps.add(it, "price_minor", "must not be negative")
		}
		p.isoCurrency(it, "currency", in.Currency)
		p.positive(it, "clips", in.Clips)
		if category == "clip_card" && in.Clips == nil {
			p.ps.add(it, "clips", "missing; a clip card needs its number of clips")
		}
		p.positive(it, "validity_days", in.ValidityDays)
		p.positive(it, "billing_interval_count", in.BillingIntervalCount)
		if in.IsRecurring {
			p.enum(it, "billing_interval", in.BillingInterval, "", intervals)
		} else if in.BillingInterval != "" || in.BillingIntervalCount != nil {
			p.ps.add(it, "billing_interval", "only a recurring pass type (is_recurring true) has a billing interval")
		}
		mode := p.enum(it, "pricing_mode", in.PricingMode, "fixed", pricingModes)
		switch {
		case mode == "flexible_quantity" && in.FlexiblePricingConfig == nil:
			p.ps.add(it, "flexible_pricing_config", "missing; pricing_mode flexible_quantity needs it")
		case mode == "flexible_quantity":
			for _, msg := range checkFlexible(in.FlexiblePricingConfig) {
				p.ps.add(it, "flexible_pricing_config", "%s", msg)
			}
		case in.FlexiblePricingConfig != nil:
			p.ps.add(it, "flexible_pricing_config", "only pricing_mode flexible_quantity takes a flexible pricing configuration")
		}
		pt := &passTypePlan{it: it, in: in, id: id, ex: p.db.passTypes[in.Ref], mode: mode}
		for _, ref := range in.AllowedBrands {
			if bid, ok := p.resolve(it, "allowed_brands", SecBrands, ref, true); ok {
				pt.brands = appendUnique(pt.brands, bid)
			}
		}
		for _, ref := range in.AllowedClassTypes {
			if cid, ok := p.resolve(it, "allowed_class_types", SecClassTypes, ref, true); ok {
				pt.classTypes = appendUnique(pt.classTypes, cid)
			}
		}
		p.passTypes = append(p.passTypes, pt)
		p.passTypeCurrency[id] = in.Currency
	}
	for _, pt := range p.db.passTypes {
		if _, ok := p.passTypeCurrency[pt.ID]; !ok {
			p.passTypeCurrency[pt.ID] = pt.Currency
		}
	}
}

func (p *plan) checkClasses() {
	for _, c := range p.db.classes {
		p.classCapacity[c.ID] = c.Capacity
	}
	for i, in := range p.doc.Classes {
		it, id, ok := p.begin(SecClasses, i, in.Ref)
		if !ok {
			continue
		}
		cp := &classPlan{it: it, in: in, id: id, ex: p.db.classes[in.Ref], listed: true}
		cp.classType, _ = p.resolve(it, "class_type", SecClassTypes, in.ClassType, true)
		cp.instructor = p.resolveOpt(it, "instructor", SecInstructors, in.Instructor)
		cp.location = p.resolveOpt(it, "location", SecLocations, in.Location)
		cp.room = p.resolveOpt(it, "room", SecRooms, in.Room)
		if cp.room != nil {
			roomLoc := p.roomLocation[*cp.room]
			switch {
			case cp.location == nil:
				cp.location = &roomLoc
			case *cp.location != roomLoc:
				p.ps.add(it, "room", "room %q is not in location %q", in.Room, in.Location)
			}
		}
		start := p.timestamp(it, "start_time", in.StartTime, true)
		end := p.timestamp(it, "end_time", in.EndTime, true)
		if start != nil && end != nil {
			cp.start, cp.end = *start, *end
			if !end.After(*start) {
				p.ps.add(it, "end_time", "must be after start_time")
			}
		}
		switch {
		case in.Capacity != nil && *in.Capacity < 0:
			p.ps.add(it, "capacity", "must not be negative")
		case in.Capacity != nil:
			cp.capacity = *in.Capacity
		case cp.room != nil:
			cp.capacity = p.roomCapacity[*cp.room]
		default:
			p.ps.add(it, "capacity", "missing; give a capacity or a room to take it from")
		}
		cp.status = p.enum(it, "status", in.Status, "scheduled", classStatuses)
		if in.Listed != nil {
			cp.listed = *in.Listed
		}
		if w := in.WorkshopEntry; w != nil {
			cp.workshopKind = p.enum(it, "workshop_entry.kind", w.Kind, "", workshopKinds)
			if w.ID != "" {
				wid, err := uuid.Parse(w.ID)
				if err != nil {
					p.ps.add(it, "workshop_entry.id", "invalid UUID %q", w.ID)
				} else {
					cp.workshopID = &wid
				}
			}
		}
		p.classes = append(p.classes, cp)
		p.classCapacity[id] = cp.capacity
	}
}

func appendUnique(ids []uuid.UUID, id uuid.UUID) []uuid.UUID {
	for _, x := range ids {
		if x == id {
			return ids
		}
	}
	return append(ids, id)
}

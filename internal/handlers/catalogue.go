package handlers

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/catalogue"
	"github.com/venueplatform/venue/internal/db"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/schedule"
)

// GetVenueSchedule implements getVenueSchedule.
func (h *Handler) GetVenueSchedule(ctx context.Context, p api.GetVenueScheduleParams) (*api.ScheduleResponse, error) {
	// The venue and the schedule are plain reads: pgx scans them directly
	// (db.DirectReads), the hot public read needs no database/sql layer.
	ctx, org, err := h.venueContext(db.DirectReads(ctx), p.Slug)
	if err != nil {
		return nil, err
	}
	loc, err := schedule.Location(org.Timezone)
	if err != nil {
		return nil, apperr.Internal(err)
	}
	now := h.now()
	from := p.From.Or(schedule.Today(now, loc))
	to := p.To.Or(from.AddDate(0, 0, 7))
	if to.Before(from) {
		return nil, apperr.Validation("to", "to is before from")
	}
	if to.Sub(from) > schedule.MaxRangeDays*24*time.Hour {
		return nil, apperr.Validation("to", "the range from..to spans more than 62 days")
	}
	start, end := schedule.DayRange(from, to, loc)
	rows, truncated, err := schedule.List(ctx, h.client, schedule.Filter{
		Start: start, End: end,
		LocationID:   optUUID(p.LocationID),
		BrandID:      optUUID(p.BrandID),
		ClassTypeID:  optUUID(p.ClassTypeID),
		InstructorID: optUUID(p.InstructorID),
		OnlineOnly:   p.OnlineOnly.Or(false),
	}, now)
	if err != nil {
		return nil, err
	}
	data := make([]api.ScheduleRow, len(rows))
	for i, r := range rows {
		data[i] = scheduleRow(r)
	}
	return &api.ScheduleResponse{
		Data: data,
		Meta: api.ScheduleMeta{From: from, To: to, Timezone: org.Timezone, Total: len(data), Truncated: truncated},
	}, nil
}

func scheduleRow(r schedule.Row) api.ScheduleRow {
	c := r.Class
	row := api.ScheduleRow{
		ID:                    c.ID,
		StartTime:             c.StartTime.UTC(),
		EndTime:               c.EndTime.UTC(),
		Status:                api.ClassStatus(c.Status),
		IsBookable:            r.Bookable,
		RequiresWorkshopEntry: r.RequiresEntry,
		Capacity:              c.Capacity,
		BookedCount:           r.Booked,
		WaitlistCount:         r.Waitlisted,
		AvailableSpots:        r.Available,
		Online:                c.Online,
	}
	if ct := c.Edges.ClassType; ct != nil {
		row.ClassType = api.NamedRef{ID: ct.ID, Name: ct.Name}
	}
	if in := c.Edges.Instructor; in != nil {
		row.Instructor.SetTo(api.NamedRef{ID: in.ID, Name: fullName(in.FirstName, in.LastName)})
	} else {
		row.Instructor.SetToNull()
	}
	if l := c.Edges.Location; l != nil {
		row.Location.SetTo(api.NamedRef{ID: l.ID, Name: l.Name})
	} else {
		row.Location.SetToNull()
	}
	if rm := c.Edges.Room; rm != nil {
		row.Room.SetTo(api.NamedRef{ID: rm.ID, Name: rm.Name})
	} else {
		row.Room.SetToNull()
	}
	if c.WorkshopEntryKind != nil && c.WorkshopEntryID != nil {
		t := api.WorkshopEntryTarget{Kind: api.WorkshopEntryTargetKind(*c.WorkshopEntryKind), ID: *c.WorkshopEntryID}
		if c.WorkshopEntrySlug != nil {
			t.Slug = *c.WorkshopEntrySlug
		}
		row.WorkshopEntryTarget.SetTo(t)
	} else {
		row.WorkshopEntryTarget.SetToNull()
	}
	return row
}

// GetVenuePricing implements getVenuePricing.
func (h *Handler) GetVenuePricing(ctx context.Context, p api.GetVenuePricingParams) (*api.PricingResponse, error) {
	ctx, org, err := h.venueContext(ctx, p.Slug)
	if err != nil {
		return nil, err
	}
	f := catalogue.PassTypeFilter{BrandID: optUUID(p.BrandID)}
	if p.Category.Set {
		c := passtype.Category(p.Category.Value)
		f.Category = &c
	}
	if p.LocationID.Set {
		if _, err := h.client.Location.Get(ctx, p.LocationID.Value); err != nil {
			if ent.IsNotFound(err) {
				return nil, apperr.NotFound("location")
			}
			return nil, err
		}
	}
	if p.BrandID.Set {
		if _, err := h.client.Brand.Get(ctx, p.BrandID.Value); err != nil {
			if ent.IsNotFound(err) {
				return nil, apperr.NotFound("brand")
			}
			return nil, err
		}
	}
	pts, err := catalogue.PassTypes(ctx, h.client, f)
	if err != nil {
		return nil, err
	}
	out := api.Pricing{
		Org:       api.PricingOrg{Slug: org.Slug, Name: org.Name, Currency: org.Currency, Timezone: org.Timezone},
		PassTypes: make([]api.PricedPassType, len(pts)),
	}
	if org.VatExemptAgeThreshold != nil {
		out.Org.VatExemptAgeThreshold.SetTo(*org.VatExemptAgeThreshold)
	} else {
		out.Org.VatExemptAgeThreshold.SetToNull()
	}
	for i, pt := range pts {
		out.PassTypes[i] = pricedPassType(pt)
	}
	return &api.PricingResponse{Data: out}, nil
}

func pricedPassType(pt *ent.PassType) api.PricedPassType {
	r := api.PricedPassType{
		ID:          pt.ID,
		Name:        pt.Name,
		Slug:        pt.Slug,
		Category:    api.PassCategory(pt.Category),
		PriceAmount: money.ToMajor(pt.PriceMinor, pt.Currency),
		PriceMinor:  pt.PriceMinor,
		Currency:    pt.Currency,
		IsRecurring: pt.IsRecurring,
		PricingMode: api.PricedPassTypePricingMode(pt.PricingMode),
	}
	setNil(&r.BillingInterval, pt.BillingInterval, func(v passtype.BillingInterval) api.PricedPassTypeBillingInterval {
		return api.PricedPassTypeBillingInterval(v)
	})
	setNilInt(&r.BillingIntervalCount, pt.BillingIntervalCount)
	setNilInt(&r.Clips, pt.Clips)
	setNilInt(&r.ValidityDays, pt.ValidityDays)
	if pt.ActivePricingVersionID != nil {
		r.ActivePricingVersionID.SetTo(*pt.ActivePricingVersionID)
	} else {
		r.ActivePricingVersionID.SetToNull()
	}
	if c := pt.FlexiblePricingConfig; c != nil && pt.PricingMode == passtype.PricingModeFlexibleQuantity {
		r.FlexiblePricingConfig.SetTo(flexibleConfig(c))
	} else {
		r.FlexiblePricingConfig.SetToNull()
	}
	return r
}

func optUUID(o api.OptUUID) *uuid.UUID {
	if !o.Set {
		return nil
	}
	v := o.Value
	return &v
}

func fullName(first, last string) string {
	if last == "" {
		return first
	}
	return first + " " + last
}

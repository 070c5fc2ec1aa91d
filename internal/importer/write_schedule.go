package importer

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/passtype"
)

func (p *plan) writePassTypes(ctx context.Context, c *ent.Client) error {
	var creates []*ent.PassTypeCreate
	for _, pt := range p.passTypes {
		in := pt.in
		fill := func(m *ent.PassTypeMutation) {
			m.SetImportRef(in.Ref)
			m.SetName(in.Name)
			m.SetSlug(pt.slug)
			text(in.Description, m.SetDescription, m.ClearDescription)
			m.SetCategory(passtype.Category(in.Category))
			m.SetPriceMinor(*in.PriceMinor)
			m.SetCurrency(in.Currency)
			m.SetIsRecurring(in.IsRecurring)
			if in.IsRecurring {
				m.SetBillingInterval(passtype.BillingInterval(in.BillingInterval))
				count := 1
				if in.BillingIntervalCount != nil {
					count = *in.BillingIntervalCount
				}
				m.SetBillingIntervalCount(count)
			} else {
				m.ClearBillingInterval()
				m.ClearBillingIntervalCount()
			}
			setInt(in.Clips, m.SetClips, m.ClearClips)
			setInt(in.ValidityDays, m.SetValidityDays, m.ClearValidityDays)
			m.SetPricingMode(passtype.PricingMode(pt.mode))
			if in.FlexiblePricingConfig != nil {
				m.SetFlexiblePricingConfig(in.FlexiblePricingConfig)
			} else {
				m.ClearFlexiblePricingConfig()
			}
			if pt.ex != nil {
				m.ClearAllowedBrands()
				m.ClearAllowedClassTypes()
			}
			m.AddAllowedBrandIDs(pt.brands...)
			m.AddAllowedClassTypeIDs(pt.classTypes...)
		}
		if pt.ex == nil {
			pc := c.PassType.Create().SetID(pt.id)
			fill(pc.Mutation())
			creates = append(creates, pc)
			continue
		}
		pu := c.PassType.Update().Where(passtype.ID(pt.id))
		fill(pu.Mutation())
		if err := pu.Exec(ctx); err != nil {
			return fmt.Errorf("update pass type %q: %w", in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.PassTypeCreate) error {
		return c.PassType.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writeClasses(ctx context.Context, c *ent.Client) error {
	var creates []*ent.ClassInstanceCreate
	for _, cl := range p.classes {
		in := cl.in
		fill := func(m *ent.ClassInstanceMutation) {
			create := cl.ex == nil
			m.SetImportRef(in.Ref)
			if create || cl.ex.ClassTypeID != cl.classType {
				m.SetClassTypeID(cl.classType)
			}
			var oldInstructor, oldLocation, oldRoom *uuid.UUID
			if !create {
				oldInstructor, oldLocation, oldRoom = cl.ex.InstructorID, cl.ex.LocationID, cl.ex.RoomID
			}
			optionalFK(create, oldInstructor, cl.instructor, m.SetInstructorID, m.ClearInstructorID)
			optionalFK(create, oldLocation, cl.location, m.SetLocationID, m.ClearLocationID)
			optionalFK(create, oldRoom, cl.room, m.SetRoomID, m.ClearRoomID)
			m.SetStartTime(cl.start)
			m.SetEndTime(cl.end)
			m.SetCapacity(cl.capacity)
			m.SetStatus(classinstance.Status(cl.status))
			m.SetOnline(in.Online)
			m.SetListed(cl.listed)
			if w := in.WorkshopEntry; w != nil {
				m.SetWorkshopEntryKind(classinstance.WorkshopEntryKind(cl.workshopKind))
				if cl.workshopID != nil {
					m.SetWorkshopEntryID(*cl.workshopID)
				} else {
					m.ClearWorkshopEntryID()
				}
				text(w.Slug, m.SetWorkshopEntrySlug, m.ClearWorkshopEntrySlug)
			} else {
				m.ClearWorkshopEntryKind()
				m.ClearWorkshopEntryID()
				m.ClearWorkshopEntrySlug()
			}
		}
		if cl.ex == nil {
			cc := c.ClassInstance.Create().SetID(cl.id)
			fill(cc.Mutation())
			creates = append(creates, cc)
			continue
		}
		cu := c.ClassInstance.Update().Where(classinstance.ID(cl.id))
		fill(cu.Mutation())
		if err := cu.Exec(ctx); err != nil {
			return fmt.Errorf("update class %q: %w", in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.ClassInstanceCreate) error {
		return c.ClassInstance.CreateBulk(bs...).Exec(ctx)
	})
}

// optionalFK writes an optional foreign key when it changes.
func optionalFK(create bool, old, new *uuid.UUID, set func(uuid.UUID), clear func()) {
	switch {
	case !changedFK(create, old, new):
	case new == nil:
		clear()
	default:
		set(*new)
	}
}

// setInt sets an optional number, or clears it when v is nil.
func setInt(v *int, set func(int), clear func()) {
	if v == nil {
		clear()
		return
	}
	set(*v)
}

package importer

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/brand"
	"github.com/venueplatform/venue/ent/classtype"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/location"
	"github.com/venueplatform/venue/ent/room"
)

// bulkSize bounds the rows of one INSERT.
const bulkSize = 500

// createAll inserts builders in batches of bulkSize and reports progress.
func createAll[B any](ctx context.Context, p *plan, builders []B, insert func(context.Context, []B) error) error {
	for start := 0; start < len(builders); start += bulkSize {
		end := min(start+bulkSize, len(builders))
		if err := insert(ctx, builders[start:end]); err != nil {
			return err
		}
		p.advance(end - start)
	}
	return nil
}

// text sets an optional text field, or clears it when v is empty.
func text(v string, set func(string), clear func()) {
	if v == "" {
		clear()
		return
	}
	set(v)
}

// changedFK reports whether an optional foreign key must be written: always
// on create, and on update only when it changes (every written reference is
// checked for visibility, which costs a query).
func changedFK(create bool, old, new *uuid.UUID) bool {
	if create {
		return new != nil
	}
	if old == nil || new == nil {
		return old != new
	}
	return *old != *new
}

func (p *plan) writeBrands(ctx context.Context, c *ent.Client) error {
	var creates []*ent.BrandCreate
	for _, b := range p.brands {
		fill := func(m *ent.BrandMutation) {
			m.SetImportRef(b.in.Ref)
			m.SetName(b.in.Name)
			m.SetSlug(b.slug)
			text(b.in.Description, m.SetDescription, m.ClearDescription)
			text(b.in.Color, m.SetColor, m.ClearColor)
			writeBrandTheme(m, b.in)
		}
		if b.ex == nil {
			bc := c.Brand.Create().SetID(b.id)
			fill(bc.Mutation())
			creates = append(creates, bc)
			continue
		}
		bu := c.Brand.Update().Where(brand.ID(b.id))
		fill(bu.Mutation())
		if err := bu.Exec(ctx); err != nil {
			return fmt.Errorf("update brand %q: %w", b.in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.BrandCreate) error {
		return c.Brand.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writeLocations(ctx context.Context, c *ent.Client) error {
	var creates []*ent.LocationCreate
	for _, l := range p.locations {
		fill := func(m *ent.LocationMutation) {
			m.SetImportRef(l.in.Ref)
			m.SetName(l.in.Name)
			text(l.in.Address, m.SetAddress, m.ClearAddress)
			text(l.in.City, m.SetCity, m.ClearCity)
			if l.in.Lat != nil {
				m.SetLat(*l.in.Lat)
			} else {
				m.ClearLat()
			}
			if l.in.Lng != nil {
				m.SetLng(*l.in.Lng)
			} else {
				m.ClearLng()
			}
		}
		if l.ex == nil {
			lc := c.Location.Create().SetID(l.id)
			fill(lc.Mutation())
			creates = append(creates, lc)
			continue
		}
		lu := c.Location.Update().Where(location.ID(l.id))
		fill(lu.Mutation())
		if err := lu.Exec(ctx); err != nil {
			return fmt.Errorf("update location %q: %w", l.in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.LocationCreate) error {
		return c.Location.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writeRooms(ctx context.Context, c *ent.Client) error {
	var creates []*ent.RoomCreate
	for _, r := range p.rooms {
		fill := func(m *ent.RoomMutation) {
			m.SetImportRef(r.in.Ref)
			m.SetName(r.in.Name)
			m.SetCapacity(*r.in.Capacity)
			m.SetRoomType(r.roomType)
			if r.ex == nil || r.ex.LocationID != r.location.id {
				m.SetLocationID(r.location.id)
			}
		}
		if r.ex == nil {
			rc := c.Room.Create().SetID(r.id)
			fill(rc.Mutation())
			creates = append(creates, rc)
			continue
		}
		ru := c.Room.Update().Where(room.ID(r.id))
		fill(ru.Mutation())
		if err := ru.Exec(ctx); err != nil {
			return fmt.Errorf("update room %q: %w", r.in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.RoomCreate) error {
		return c.Room.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writeClassTypes(ctx context.Context, c *ent.Client) error {
	var creates []*ent.ClassTypeCreate
	for _, ct := range p.classTypes {
		fill := func(m *ent.ClassTypeMutation) {
			m.SetImportRef(ct.in.Ref)
			m.SetName(ct.in.Name)
			text(ct.in.Slug, m.SetSlug, m.ClearSlug)
			text(ct.in.Description, m.SetDescription, m.ClearDescription)
			text(ct.in.Color, m.SetColor, m.ClearColor)
			if ct.in.DurationMinutes != nil {
				m.SetDurationMinutes(*ct.in.DurationMinutes)
			}
			var old *uuid.UUID
			if ct.ex != nil {
				old = ct.ex.BrandID
			}
			switch {
			case !changedFK(ct.ex == nil, old, ct.brand):
			case ct.brand == nil:
				m.ClearBrandID()
			default:
				m.SetBrandID(*ct.brand)
			}
		}
		if ct.ex == nil {
			cc := c.ClassType.Create().SetID(ct.id)
			fill(cc.Mutation())
			creates = append(creates, cc)
			continue
		}
		cu := c.ClassType.Update().Where(classtype.ID(ct.id))
		fill(cu.Mutation())
		if err := cu.Exec(ctx); err != nil {
			return fmt.Errorf("update class type %q: %w", ct.in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.ClassTypeCreate) error {
		return c.ClassType.CreateBulk(bs...).Exec(ctx)
	})
}

func (p *plan) writeInstructors(ctx context.Context, c *ent.Client) error {
	var creates []*ent.InstructorCreate
	for _, in := range p.instructors {
		fill := func(m *ent.InstructorMutation) {
			m.SetImportRef(in.in.Ref)
			m.SetFirstName(in.in.FirstName)
			m.SetLastName(in.in.LastName)
			text(in.in.Email, m.SetEmail, m.ClearEmail)
			text(in.in.Bio, m.SetBio, m.ClearBio)
		}
		if in.ex == nil {
			ic := c.Instructor.Create().SetID(in.id)
			fill(ic.Mutation())
			creates = append(creates, ic)
			continue
		}
		iu := c.Instructor.Update().Where(instructor.ID(in.id))
		fill(iu.Mutation())
		if err := iu.Exec(ctx); err != nil {
			return fmt.Errorf("update instructor %q: %w", in.in.Ref, err)
		}
		p.advance(1)
	}
	return createAll(ctx, p, creates, func(ctx context.Context, bs []*ent.InstructorCreate) error {
		return c.Instructor.CreateBulk(bs...).Exec(ctx)
	})
}

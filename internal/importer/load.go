package importer

import (
	"context"
	"fmt"
	"slices"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/alert"
	"github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/brand"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/ent/classtype"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/location"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/room"
)

// chunk bounds the parameters of one IN list.
const chunk = 5000

// refSet collects refs per section: those of the document's items and those
// the document names.
type refSet map[string][]string

func (s refSet) add(section, ref string) {
	if ref != "" {
		s[section] = append(s[section], ref)
	}
}

// namedRefs returns every ref the document defines or names, per section.
func namedRefs(d *Document) refSet {
	s := refSet{}
	for _, b := range d.Brands {
		s.add(SecBrands, b.Ref)
	}
	for _, l := range d.Locations {
		s.add(SecLocations, l.Ref)
		for _, r := range l.Rooms {
			s.add(SecRooms, r.Ref)
		}
	}
	for _, ct := range d.ClassTypes {
		s.add(SecClassTypes, ct.Ref)
		s.add(SecBrands, ct.Brand)
	}
	for _, i := range d.Instructors {
		s.add(SecInstructors, i.Ref)
	}
	for _, pt := range d.PassTypes {
		s.add(SecPassTypes, pt.Ref)
		for _, b := range pt.AllowedBrands {
			s.add(SecBrands, b)
		}
		for _, ct := range pt.AllowedClassTypes {
			s.add(SecClassTypes, ct)
		}
	}
	for _, c := range d.Classes {
		s.add(SecClasses, c.Ref)
		s.add(SecClassTypes, c.ClassType)
		s.add(SecInstructors, c.Instructor)
		s.add(SecLocations, c.Location)
		s.add(SecRooms, c.Room)
	}
	for _, m := range d.Members {
		s.add(SecMembers, m.Ref)
	}
	for _, p := range d.Passes {
		s.add(SecPasses, p.Ref)
		s.add(SecMembers, p.Member)
		s.add(SecPassTypes, p.PassType)
	}
	for _, b := range d.Bookings {
		s.add(SecBookings, b.Ref)
		s.add(SecMembers, b.Member)
		s.add(SecClasses, b.Class)
		s.add(SecPasses, b.Pass)
	}
	for _, p := range d.Payments {
		s.add(SecPayments, p.Ref)
		s.add(SecMembers, p.Member)
		s.add(SecPasses, p.Pass)
	}
	for _, a := range d.Alerts {
		s.add(SecAlerts, a.Ref)
	}
	addExtraRefs(d, s)
	addServiceRefs(d, s)
	for k, v := range s {
		slices.Sort(v)
		s[k] = slices.Compact(v)
	}
	return s
}

// byRef loads the rows with the given import refs, in chunks.
func byRef[T any](ctx context.Context, refs []string, query func(context.Context, []string) ([]T, error), refOf func(T) *string) (map[string]T, error) {
	out := make(map[string]T, len(refs))
	for start := 0; start < len(refs); start += chunk {
		rows, err := query(ctx, refs[start:min(start+chunk, len(refs))])
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			if ref := refOf(r); ref != nil {
				out[*ref] = r
			}
		}
	}
	return out, nil
}

// loadExisting reads the rows of earlier imports that the document defines
// or names, as the viewer of ctx.
func loadExisting(ctx context.Context, c *ent.Client, refs refSet) (existing, error) {
	var ex existing
	var err error
	wrap := func(section string, e error) error { return fmt.Errorf("read existing %s: %w", section, e) }
	if ex.brands, err = byRef(ctx, refs[SecBrands], func(ctx context.Context, r []string) ([]*ent.Brand, error) {
		return c.Brand.Query().Where(brand.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Brand) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecBrands, err)
	}
	if ex.locations, err = byRef(ctx, refs[SecLocations], func(ctx context.Context, r []string) ([]*ent.Location, error) {
		return c.Location.Query().Where(location.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Location) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecLocations, err)
	}
	if ex.rooms, err = byRef(ctx, refs[SecRooms], func(ctx context.Context, r []string) ([]*ent.Room, error) {
		return c.Room.Query().Where(room.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Room) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecRooms, err)
	}
	if ex.classTypes, err = byRef(ctx, refs[SecClassTypes], func(ctx context.Context, r []string) ([]*ent.ClassType, error) {
		return c.ClassType.Query().Where(classtype.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.ClassType) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecClassTypes, err)
	}
	if ex.instructors, err = byRef(ctx, refs[SecInstructors], func(ctx context.Context, r []string) ([]*ent.Instructor, error) {
		return c.Instructor.Query().Where(instructor.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Instructor) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecInstructors, err)
	}
	if ex.passTypes, err = byRef(ctx, refs[SecPassTypes], func(ctx context.Context, r []string) ([]*ent.PassType, error) {
		return c.PassType.Query().Where(passtype.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.PassType) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecPassTypes, err)
	}
	if ex.classes, err = byRef(ctx, refs[SecClasses], func(ctx context.Context, r []string) ([]*ent.ClassInstance, error) {
		return c.ClassInstance.Query().Where(classinstance.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.ClassInstance) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecClasses, err)
	}
	if ex.members, err = byRef(ctx, refs[SecMembers], func(ctx context.Context, r []string) ([]*ent.Member, error) {
		return c.Member.Query().Where(member.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Member) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecMembers, err)
	}
	if ex.passes, err = byRef(ctx, refs[SecPasses], func(ctx context.Context, r []string) ([]*ent.Pass, error) {
		return c.Pass.Query().Where(pass.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Pass) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecPasses, err)
	}
	if ex.bookings, err = byRef(ctx, refs[SecBookings], func(ctx context.Context, r []string) ([]*ent.Booking, error) {
		return c.Booking.Query().Where(booking.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Booking) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecBookings, err)
	}
	if ex.payments, err = byRef(ctx, refs[SecPayments], func(ctx context.Context, r []string) ([]*ent.Payment, error) {
		return c.Payment.Query().Where(payment.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Payment) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecPayments, err)
	}
	if ex.alerts, err = byRef(ctx, refs[SecAlerts], func(ctx context.Context, r []string) ([]*ent.Alert, error) {
		return c.Alert.Query().Where(alert.ImportRefIn(r...)).All(ctx)
	}, func(x *ent.Alert) *string { return x.ImportRef }); err != nil {
		return ex, wrap(SecAlerts, err)
	}
	if err := loadExtra(ctx, c, refs, &ex); err != nil {
		return ex, err
	}
	return ex, loadServices(ctx, c, refs, &ex)
}

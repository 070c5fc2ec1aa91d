package appointments

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	"github.com/venueplatform/venue/ent/instructor"
	"github.com/venueplatform/venue/ent/providerhours"
	"github.com/venueplatform/venue/ent/providertimeoff"
	"github.com/venueplatform/venue/ent/service"
	"github.com/venueplatform/venue/ent/serviceprovider"
	"github.com/venueplatform/venue/ent/servicevariant"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
)

// record writes a staff setup audit entry.
func record(ctx context.Context, c *ent.Client, action, target string, details map[string]any) error {
	_, err := audit.Record(ctx, c, audit.Entry{Action: action, Target: target, Details: details})
	return err
}

// ServiceOf reads service id of the viewer's venue (any state).
func ServiceOf(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.Service, error) {
	s, err := c.Service.Query().Where(service.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrServiceNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: service: %w", err)
	}
	return s, nil
}

// ProviderOf reads provider id of the viewer's venue.
func ProviderOf(ctx context.Context, c *ent.Client, id uuid.UUID) (*ent.Instructor, error) {
	p, err := c.Instructor.Query().Where(instructor.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, ErrProviderNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: provider: %w", err)
	}
	return p, nil
}

// Variants lists a service's variants in display order.
func Variants(ctx context.Context, c *ent.Client, svc uuid.UUID) ([]*ent.ServiceVariant, error) {
	if _, err := ServiceOf(ctx, c, svc); err != nil {
		return nil, err
	}
	return c.ServiceVariant.Query().Where(servicevariant.ServiceID(svc)).
		Order(ent.Asc(servicevariant.FieldSortOrder), ent.Asc(servicevariant.FieldCreatedAt), ent.Asc(servicevariant.FieldID)).All(ctx)
}

// VariantPatch holds a variant's fields to set (nil: unchanged).
type VariantPatch struct {
	Name       *string
	Duration   *int
	PriceMinor *int64
	IsActive   *bool
	SortOrder  *int
	// DepositMinor sets the variant's own deposit; ClearDeposit removes it
	// (the service's applies again).
	DepositMinor *int64
	ClearDeposit bool
}

// Empty reports whether the patch sets nothing.
func (p VariantPatch) Empty() bool {
	return p.Name == nil && p.Duration == nil && p.PriceMinor == nil && p.IsActive == nil && p.SortOrder == nil &&
		p.DepositMinor == nil && !p.ClearDeposit
}

// depositWithinPrice refuses a deposit above the price it is taken from.
func depositWithinPrice(deposit *int64, price int64) error {
	if deposit != nil && *deposit > price {
		return apperr.Validation("deposit_amount", "a deposit is at most the price")
	}
	return nil
}

// CreateVariant adds a variant to service svc.
func CreateVariant(ctx context.Context, c *ent.Client, svc uuid.UUID, p VariantPatch) (*ent.ServiceVariant, *ent.Service, error) {
	s, err := ServiceOf(ctx, c, svc)
	if err != nil {
		return nil, nil, err
	}
	if p.Name == nil || p.Duration == nil || p.PriceMinor == nil {
		return nil, nil, apperr.Validation("name", "name, duration_minutes and price_amount are required")
	}
	if err := depositWithinPrice(p.DepositMinor, *p.PriceMinor); err != nil {
		return nil, nil, err
	}
	cr := c.ServiceVariant.Create().SetServiceID(svc).SetName(*p.Name).SetDurationMinutes(*p.Duration).
		SetPriceMinor(*p.PriceMinor).SetNillableIsActive(p.IsActive).SetNillableSortOrder(p.SortOrder).
		SetNillableDepositMinor(p.DepositMinor)
	v, err := cr.Save(ctx)
	if err != nil {
		return nil, nil, err
	}
	if err := record(ctx, c, "service_variant.created", "service_variant:"+v.ID.String(), map[string]any{"service_id": svc.String()}); err != nil {
		return nil, nil, err
	}
	return v, s, nil
}

// UpdateVariant changes variant id of service svc (an empty patch is 400).
func UpdateVariant(ctx context.Context, c *ent.Client, svc, id uuid.UUID, p VariantPatch) (*ent.ServiceVariant, *ent.Service, error) {
	if p.Empty() {
		return nil, nil, apperr.Validation("body", "the patch changes nothing")
	}
	s, err := ServiceOf(ctx, c, svc)
	if err != nil {
		return nil, nil, err
	}
	cur, err := c.ServiceVariant.Query().Where(servicevariant.ID(id), servicevariant.ServiceID(svc)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, apperr.NotFound("variant")
	}
	if err != nil {
		return nil, nil, err
	}
	price, deposit := cur.PriceMinor, cur.DepositMinor
	if p.PriceMinor != nil {
		price = *p.PriceMinor
	}
	if p.ClearDeposit {
		deposit = nil
	} else if p.DepositMinor != nil {
		deposit = p.DepositMinor
	}
	if err := depositWithinPrice(deposit, price); err != nil {
		return nil, nil, err
	}
	upd := c.ServiceVariant.UpdateOne(cur).
		SetNillableName(p.Name).SetNillableDurationMinutes(p.Duration).SetNillablePriceMinor(p.PriceMinor).
		SetNillableIsActive(p.IsActive).SetNillableSortOrder(p.SortOrder)
	if deposit == nil {
		upd.ClearDepositMinor()
	} else {
		upd.SetDepositMinor(*deposit)
	}
	if err := upd.Exec(ctx); err != nil {
		return nil, nil, err
	}
	if err := record(ctx, c, "service_variant.updated", "service_variant:"+id.String(), nil); err != nil {
		return nil, nil, err
	}
	v, err := c.ServiceVariant.Get(ctx, id)
	return v, s, err
}

// DeleteVariant removes variant id of service svc. A variant that
// appointments name is deactivated instead, so their history keeps it.
func DeleteVariant(ctx context.Context, c *ent.Client, svc, id uuid.UUID) error {
	if _, err := ServiceOf(ctx, c, svc); err != nil {
		return err
	}
	v, err := c.ServiceVariant.Query().Where(servicevariant.ID(id), servicevariant.ServiceID(svc)).Only(ctx)
	if ent.IsNotFound(err) {
		return apperr.NotFound("variant")
	}
	if err != nil {
		return err
	}
	used, err := c.Appointment.Query().Where(entappointment.VariantID(id)).Exist(ctx)
	if err != nil {
		return err
	}
	if used {
		err = c.ServiceVariant.UpdateOne(v).SetIsActive(false).Exec(ctx)
	} else {
		err = c.ServiceVariant.DeleteOne(v).Exec(ctx)
	}
	if err != nil {
		return err
	}
	return record(ctx, c, "service_variant.deleted", "service_variant:"+id.String(), map[string]any{"deactivated": used})
}

// Assignments lists the providers assigned to service svc, in the
// service's order; eligibleOnly keeps active assignments of active providers.
func Assignments(ctx context.Context, c *ent.Client, svc uuid.UUID, eligibleOnly bool) ([]*ent.ServiceProvider, error) {
	if _, err := ServiceOf(ctx, c, svc); err != nil {
		return nil, err
	}
	q := c.ServiceProvider.Query().Where(serviceprovider.ServiceID(svc))
	if eligibleOnly {
		q.Where(serviceprovider.IsActive(true), serviceprovider.HasProviderWith(instructor.Active(true)))
	}
	return q.Order(ent.Desc(serviceprovider.FieldIsPrimary), ent.Asc(serviceprovider.FieldSortOrder), ent.Asc(serviceprovider.FieldID)).All(ctx)
}

// AssignmentPatch holds an assignment's fields to set. A custom value set
// to null (Clear) inherits the service's again.
type AssignmentPatch struct {
	CustomDuration      *int
	ClearCustomDuration bool
	CustomPriceMinor    *int64
	ClearCustomPrice    bool
	IsPrimary           *bool
	SortOrder           *int
	IsActive            *bool
}

// Empty reports whether the patch sets nothing.
func (p AssignmentPatch) Empty() bool {
	return p.CustomDuration == nil && !p.ClearCustomDuration && p.CustomPriceMinor == nil && !p.ClearCustomPrice &&
		p.IsPrimary == nil && p.SortOrder == nil && p.IsActive == nil
}

// PutAssignment assigns provider pid to service svc with p (creating or
// replacing the assignment).
func PutAssignment(ctx context.Context, c *ent.Client, svc, pid uuid.UUID, p AssignmentPatch) (*ent.ServiceProvider, error) {
	if _, err := ServiceOf(ctx, c, svc); err != nil {
		return nil, err
	}
	if _, err := ProviderOf(ctx, c, pid); err != nil {
		return nil, err
	}
	id, err := c.ServiceProvider.Create().SetServiceID(svc).SetProviderID(pid).
		SetNillableCustomDurationMinutes(p.CustomDuration).SetNillableCustomPriceMinor(p.CustomPriceMinor).
		SetIsPrimary(p.IsPrimary != nil && *p.IsPrimary).SetSortOrder(deref(p.SortOrder, 0)).
		SetIsActive(p.IsActive == nil || *p.IsActive).
		OnConflictColumns(serviceprovider.FieldOrganizationID, serviceprovider.FieldServiceID, serviceprovider.FieldProviderID).
		UpdateNewValues().ID(ctx)
	if err != nil {
		return nil, err
	}
	if p.CustomDuration == nil || p.CustomPriceMinor == nil {
		u := c.ServiceProvider.UpdateOneID(id)
		if p.CustomDuration == nil {
			u.ClearCustomDurationMinutes()
		}
		if p.CustomPriceMinor == nil {
			u.ClearCustomPriceMinor()
		}
		if err := u.Exec(ctx); err != nil {
			return nil, err
		}
	}
	if err := record(ctx, c, "service_provider.assigned", "service:"+svc.String(), map[string]any{"provider_id": pid.String()}); err != nil {
		return nil, err
	}
	return c.ServiceProvider.Get(ctx, id)
}

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// assignment reads the assignment of provider pid to service svc (404 when none).
func assignment(ctx context.Context, c *ent.Client, svc, pid uuid.UUID) (*ent.ServiceProvider, error) {
	if _, err := ServiceOf(ctx, c, svc); err != nil {
		return nil, err
	}
	a, err := c.ServiceProvider.Query().Where(serviceprovider.ServiceID(svc), serviceprovider.ProviderID(pid)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("assignment")
	}
	return a, err
}

// PatchAssignment changes the assignment of pid to svc (empty: 400; none: 404).
func PatchAssignment(ctx context.Context, c *ent.Client, svc, pid uuid.UUID, p AssignmentPatch) (*ent.ServiceProvider, error) {
	if p.Empty() {
		return nil, apperr.Validation("body", "the patch changes nothing")
	}
	a, err := assignment(ctx, c, svc, pid)
	if err != nil {
		return nil, err
	}
	u := c.ServiceProvider.UpdateOne(a).SetNillableCustomDurationMinutes(p.CustomDuration).
		SetNillableCustomPriceMinor(p.CustomPriceMinor).SetNillableIsPrimary(p.IsPrimary).
		SetNillableSortOrder(p.SortOrder).SetNillableIsActive(p.IsActive)
	if p.ClearCustomDuration {
		u.ClearCustomDurationMinutes()
	}
	if p.ClearCustomPrice {
		u.ClearCustomPriceMinor()
	}
	out, err := u.Save(ctx)
	if err != nil {
		return nil, err
	}
	return out, record(ctx, c, "service_provider.updated", "service:"+svc.String(), map[string]any{"provider_id": pid.String()})
}

// DeleteAssignment removes provider pid from service svc (none: 404).
func DeleteAssignment(ctx context.Context, c *ent.Client, svc, pid uuid.UUID) error {
	a, err := assignment(ctx, c, svc, pid)
	if err != nil {
		return err
	}
	if err := c.ServiceProvider.DeleteOne(a).Exec(ctx); err != nil {
		return err
	}
	return record(ctx, c, "service_provider.removed", "service:"+svc.String(), map[string]any{"provider_id": pid.String()})
}

// HoursSpan is one span of weekly working hours (minutes from local midnight).
type HoursSpan struct {
	Weekday    int
	Start, End int
	LocationID *uuid.UUID
}

// WorkingHours lists provider pid's weekly hours by weekday and start.
func WorkingHours(ctx context.Context, c *ent.Client, pid uuid.UUID) ([]*ent.ProviderHours, error) {
	if _, err := ProviderOf(ctx, c, pid); err != nil {
		return nil, err
	}
	return c.ProviderHours.Query().Where(providerhours.ProviderID(pid)).
		Order(ent.Asc(providerhours.FieldWeekday), ent.Asc(providerhours.FieldStartMinute)).All(ctx)
}

// SetWorkingHours replaces provider pid's weekly hours with spans. A span
// that ends before it starts, or two that overlap on one weekday, are 400
// VALIDATION_ERROR and change nothing.
func SetWorkingHours(ctx context.Context, c *ent.Client, pid uuid.UUID, spans []HoursSpan) ([]*ent.ProviderHours, error) {
	if _, err := ProviderOf(ctx, c, pid); err != nil {
		return nil, err
	}
	sorted := append([]HoursSpan(nil), spans...)
	sort.Slice(sorted, func(i, j int) bool {
		if sorted[i].Weekday != sorted[j].Weekday {
			return sorted[i].Weekday < sorted[j].Weekday
		}
		return sorted[i].Start < sorted[j].Start
	})
	for i, s := range sorted {
		if s.End <= s.Start {
			return nil, apperr.Validation("hours", "a span must end after it starts").With("reason", "INVALID_RANGE")
		}
		if i > 0 && sorted[i-1].Weekday == s.Weekday && sorted[i-1].End > s.Start {
			return nil, apperr.Validation("hours", "two spans of one weekday overlap").With("reason", "overlap")
		}
	}
	if _, err := c.ProviderHours.Delete().Where(providerhours.ProviderID(pid)).Exec(ctx); err != nil {
		return nil, err
	}
	for _, s := range sorted {
		if err := c.ProviderHours.Create().SetProviderID(pid).SetWeekday(s.Weekday).SetStartMinute(s.Start).
			SetEndMinute(s.End).SetNillableLocationID(s.LocationID).Exec(ctx); err != nil {
			return nil, err
		}
	}
	if err := record(ctx, c, "provider.working_hours_set", "instructor:"+pid.String(), map[string]any{"spans": len(spans)}); err != nil {
		return nil, err
	}
	return WorkingHours(ctx, c, pid)
}

// TimeOff lists provider pid's time off ending after from, by start.
func TimeOff(ctx context.Context, c *ent.Client, pid uuid.UUID, from time.Time) ([]*ent.ProviderTimeOff, error) {
	if _, err := ProviderOf(ctx, c, pid); err != nil {
		return nil, err
	}
	return c.ProviderTimeOff.Query().Where(providertimeoff.ProviderID(pid), providertimeoff.EndsAtGT(from)).
		Order(ent.Asc(providertimeoff.FieldStartsAt)).All(ctx)
}

// AddTimeOff records time off for provider pid ([starts, ends), ends after starts).
func AddTimeOff(ctx context.Context, c *ent.Client, pid uuid.UUID, starts, ends time.Time, reason string) (*ent.ProviderTimeOff, error) {
	if !ends.After(starts) {
		return nil, &apperr.Error{Status: http.StatusBadRequest, Code: "INVALID_RANGE", Message: "ends_at must be after starts_at"}
	}
	if _, err := ProviderOf(ctx, c, pid); err != nil {
		return nil, err
	}
	o, err := c.ProviderTimeOff.Create().SetProviderID(pid).SetStartsAt(starts).SetEndsAt(ends).SetReason(reason).Save(ctx)
	if err != nil {
		return nil, err
	}
	return o, record(ctx, c, "provider.time_off_added", "instructor:"+pid.String(), map[string]any{"time_off_id": o.ID.String()})
}

// DeleteTimeOff removes time off id of provider pid.
func DeleteTimeOff(ctx context.Context, c *ent.Client, pid, id uuid.UUID) error {
	n, err := c.ProviderTimeOff.Delete().Where(providertimeoff.ID(id), providertimeoff.ProviderID(pid)).Exec(ctx)
	if err != nil {
		return err
	}
	if n == 0 {
		return apperr.NotFound("time off")
	}
	return record(ctx, c, "provider.time_off_removed", "instructor:"+pid.String(), map[string]any{"time_off_id": id.String()})
}

// PolicyPatch holds the appointment policy fields to set.
type PolicyPatch struct {
	SlotInterval        *int
	PaymentMode         *appointmentpolicy.PaymentAtBookingMode
	Cutoff              *int
	ClearCutoff         bool
	OfferingMode        *appointmentpolicy.OfferingMode
	GroupedVisits       *bool
	MaxServicesPerVisit *int
	// RefundTerms sets the grouped-visit refund terms, which needs
	// TermsConfirmed; ClearRefundTerms removes them.
	RefundTerms      *string
	ClearRefundTerms bool
	TermsConfirmed   *bool
}

// Empty reports whether the patch sets nothing.
func (p PolicyPatch) Empty() bool {
	return p.SlotInterval == nil && p.PaymentMode == nil && p.Cutoff == nil && !p.ClearCutoff &&
		p.OfferingMode == nil && p.GroupedVisits == nil && p.MaxServicesPerVisit == nil &&
		p.RefundTerms == nil && !p.ClearRefundTerms && p.TermsConfirmed == nil
}

// UpdatePolicy changes the viewer's venue's appointment policy (creating its
// row on the first change).
func UpdatePolicy(ctx context.Context, c *ent.Client, p PolicyPatch) (Policy, error) {
	if p.Empty() {
		return Policy{}, apperr.Validation("body", "the patch changes nothing")
	}
	if p.TermsConfirmed != nil && p.RefundTerms == nil {
		return Policy{}, apperr.Validation("grouped_visits.confirmed", "confirmed goes with refund_terms")
	}
	if p.RefundTerms != nil && (p.TermsConfirmed == nil || !*p.TermsConfirmed) {
		return Policy{}, apperr.Validation("grouped_visits.confirmed", "refund terms need confirmed true")
	}
	cur, err := LoadPolicy(ctx, c)
	if err != nil {
		return Policy{}, err
	}
	if p.PaymentMode != nil && p.OfferingMode == nil {
		if err := OfferingAllowsPaymentMode(cur, *p.PaymentMode); err != nil {
			return Policy{}, err
		}
	}
	var id uuid.UUID
	if cur.Row == nil {
		row, err := c.AppointmentPolicy.Create().
			OnConflictColumns(appointmentpolicy.FieldOrganizationID).Ignore().ID(ctx)
		if err != nil {
			return Policy{}, err
		}
		id = row
	} else {
		id = cur.Row.ID
	}
	u := c.AppointmentPolicy.UpdateOneID(id).SetNillableSlotIntervalMinutes(p.SlotInterval).
		SetNillablePaymentAtBookingMode(p.PaymentMode).SetNillableSelfServiceCutoffHours(p.Cutoff).
		SetNillableOfferingMode(p.OfferingMode).SetNillableGroupedVisitsEnabled(p.GroupedVisits).
		SetNillableMaxServicesPerVisit(p.MaxServicesPerVisit)
	if p.ClearCutoff {
		u.ClearSelfServiceCutoffHours()
	}
	if p.RefundTerms != nil {
		u.SetGroupedVisitRefundTerms(*p.RefundTerms).SetGroupedVisitTermsConfirmedAt(time.Now())
	}
	if p.ClearRefundTerms {
		u.ClearGroupedVisitRefundTerms().ClearGroupedVisitTermsConfirmedAt()
	}
	row, err := u.Save(ctx)
	if err != nil {
		return Policy{}, err
	}
	if err := record(ctx, c, "appointment_policy.updated", "appointment_policy:"+row.ID.String(), nil); err != nil {
		return Policy{}, err
	}
	return policyOf(row), nil
}

// Readiness is what a venue still lacks before it can take appointments.
type Readiness struct {
	Ready   bool
	Missing []string
}

// Readiness labels (the report's missing values).
const (
	MissingOfferingMode = "appointments_not_offered"
	MissingService      = "active_service"
	MissingProvider     = "service_with_provider"
	MissingHours        = "provider_working_hours"
)

// CheckReadiness reports what the viewer's venue still lacks: appointments
// in its offering mode, an active service, a service with an active
// assigned provider, and working hours for one of them.
func CheckReadiness(ctx context.Context, c *ent.Client) (Readiness, error) {
	pol, err := LoadPolicy(ctx, c)
	if err != nil {
		return Readiness{}, err
	}
	var r Readiness
	if pol.OfferingMode == appointmentpolicy.OfferingModeClasses {
		r.Missing = append(r.Missing, MissingOfferingMode)
	}
	if ok, err := c.Service.Query().Where(service.IsActive(true)).Exist(ctx); err != nil {
		return r, err
	} else if !ok {
		r.Missing = append(r.Missing, MissingService)
	}
	pids, err := c.ServiceProvider.Query().Where(serviceprovider.IsActive(true),
		serviceprovider.HasServiceWith(service.IsActive(true)), serviceprovider.HasProviderWith(instructor.Active(true))).
		Select(serviceprovider.FieldProviderID).Strings(ctx)
	if err != nil {
		return r, err
	}
	if len(pids) == 0 {
		r.Missing = append(r.Missing, MissingProvider, MissingHours)
	} else {
		ids := make([]uuid.UUID, 0, len(pids))
		for _, s := range pids {
			if id, err := uuid.Parse(s); err == nil {
				ids = append(ids, id)
			}
		}
		if ok, err := c.ProviderHours.Query().Where(providerhours.ProviderIDIn(ids...)).Exist(ctx); err != nil {
			return r, err
		} else if !ok {
			r.Missing = append(r.Missing, MissingHours)
		}
	}
	r.Ready = len(r.Missing) == 0
	if r.Missing == nil {
		r.Missing = []string{}
	}
	return r, nil
}

// Offering is the venue's booking offering with the counts the staff app
// shows beside it.
type Offering struct {
	Mode appointmentpolicy.OfferingMode
	// ServiceCount is the active services; ProviderCount the distinct
	// active providers assigned (actively) to an active service.
	ServiceCount, ProviderCount int
}

// Classes and Appointments say what the mode offers.
func (o Offering) Classes() bool { return o.Mode != appointmentpolicy.OfferingModeAppointments }

// Appointments says whether the mode offers appointments.
func (o Offering) Appointments() bool { return o.Mode != appointmentpolicy.OfferingModeClasses }

// OfferingOf reads the viewer's venue's booking offering.
func OfferingOf(ctx context.Context, c *ent.Client) (Offering, error) {
	pol, err := LoadPolicy(ctx, c)
	if err != nil {
		return Offering{}, err
	}
	out := Offering{Mode: pol.OfferingMode}
	if out.ServiceCount, err = c.Service.Query().Where(service.IsActive(true)).Count(ctx); err != nil {
		return Offering{}, fmt.Errorf("appointments: offering services: %w", err)
	}
	pids, err := c.ServiceProvider.Query().Where(serviceprovider.IsActive(true),
		serviceprovider.HasServiceWith(service.IsActive(true)), serviceprovider.HasProviderWith(instructor.Active(true))).
		Unique(true).Select(serviceprovider.FieldProviderID).Strings(ctx)
	if err != nil {
		return Offering{}, fmt.Errorf("appointments: offering providers: %w", err)
	}
	seen := map[string]bool{}
	for _, p := range pids {
		seen[p] = true
	}
	out.ProviderCount = len(seen)
	return out, nil
}

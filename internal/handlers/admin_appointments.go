package handlers

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/appointmentpolicy"
	"github.com/venueplatform/venue/ent/serviceprovider"
	"github.com/venueplatform/venue/ent/servicevariant"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/appointments"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/gen/apient"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/viewer"
)

// inTx runs fn in one transaction of the handler's client.
func (h *Handler) inTx(ctx context.Context, fn func(ctx context.Context, c *ent.Client) error) error {
	return events.WithTx(ctx, h.client, func(ctx context.Context, tx *ent.Tx) error { return fn(ctx, tx.Client()) })
}

func adminVariant(v *ent.ServiceVariant, svc *ent.Service) api.AdminServiceVariant {
	e := apient.ServiceVariant(v)
	out := api.AdminServiceVariant{ID: e.ID, ServiceID: e.ServiceID, Name: e.Name, DurationMinutes: e.DurationMinutes,
		PriceMinor: e.PriceMinor, IsActive: e.IsActive, SortOrder: e.SortOrder, DepositMinor: e.DepositMinor,
		Currency: svc.Currency, PriceAmount: money.ToMajor(v.PriceMinor, svc.Currency)}
	if v.DepositMinor != nil {
		out.DepositAmount = api.NewNilFloat64(money.ToMajor(*v.DepositMinor, svc.Currency))
	} else {
		out.DepositAmount.SetToNull()
	}
	return out
}

// depositPatch reads an optional, nullable deposit_amount into p.
func depositPatch(o api.OptNilFloat64, currency string, p *appointments.VariantPatch) {
	if !o.Set {
		return
	}
	if o.Null {
		p.ClearDeposit = true
		return
	}
	m := money.ToMinor(o.Value, currency)
	p.DepositMinor = &m
}

func adminAssignment(a *ent.ServiceProvider, svc *ent.Service) api.AdminServiceProvider {
	e := apient.ServiceProviderAssignment(a)
	out := api.AdminServiceProvider{ID: e.ID, ServiceID: e.ServiceID, ProviderID: e.ProviderID,
		CustomDurationMinutes: e.CustomDurationMinutes, CustomPriceMinor: e.CustomPriceMinor,
		IsPrimary: e.IsPrimary, SortOrder: e.SortOrder, IsActive: e.IsActive}
	if a.CustomPriceMinor != nil {
		out.CustomPriceAmount = api.NewNilFloat64(money.ToMajor(*a.CustomPriceMinor, svc.Currency))
	} else {
		out.CustomPriceAmount.SetToNull()
	}
	return out
}

// ListServiceVariants implements listServiceVariants.
func (h *Handler) ListServiceVariants(ctx context.Context, p api.ListServiceVariantsParams) (*api.ServiceVariantListResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	svc, err := appointments.ServiceOf(ctx, h.client, p.ID)
	if err != nil {
		return nil, err
	}
	vs, err := appointments.Variants(ctx, h.client, p.ID)
	if err != nil {
		return nil, err
	}
	out := &api.ServiceVariantListResponse{Data: make([]api.AdminServiceVariant, 0, len(vs))}
	for _, v := range vs {
		out.Data = append(out.Data, adminVariant(v, svc))
	}
	return out, nil
}

// CreateServiceVariant implements createServiceVariant.
func (h *Handler) CreateServiceVariant(ctx context.Context, req *api.ServiceVariantCreateRequest, p api.CreateServiceVariantParams) (*api.ServiceVariantResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	var out api.AdminServiceVariant
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		svc, err := appointments.ServiceOf(ctx, c, p.ID)
		if err != nil {
			return err
		}
		price := money.ToMinor(req.PriceAmount, svc.Currency)
		patch := appointments.VariantPatch{Name: &req.Name,
			Duration: &req.DurationMinutes, PriceMinor: &price, IsActive: optValue(req.IsActive), SortOrder: optValue(req.SortOrder)}
		depositPatch(req.DepositAmount, svc.Currency, &patch)
		v, _, err := appointments.CreateVariant(ctx, c, p.ID, patch)
		if err != nil {
			return err
		}
		out = adminVariant(v, svc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &api.ServiceVariantResponse{Data: out}, nil
}

func optValue[T any, O interface{ Get() (T, bool) }](o O) *T {
	if v, ok := o.Get(); ok {
		return &v
	}
	return nil
}

// UpdateServiceVariant implements updateServiceVariant.
func (h *Handler) UpdateServiceVariant(ctx context.Context, req *api.ServiceVariantUpdateRequest, p api.UpdateServiceVariantParams) (*api.ServiceVariantResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	var out api.AdminServiceVariant
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		svc, err := appointments.ServiceOf(ctx, c, p.ID)
		if err != nil {
			return err
		}
		patch := appointments.VariantPatch{Name: optValue(req.Name), Duration: optValue(req.DurationMinutes),
			IsActive: optValue(req.IsActive), SortOrder: optValue(req.SortOrder)}
		if a, ok := req.PriceAmount.Get(); ok {
			m := money.ToMinor(a, svc.Currency)
			patch.PriceMinor = &m
		}
		depositPatch(req.DepositAmount, svc.Currency, &patch)
		v, _, err := appointments.UpdateVariant(ctx, c, p.ID, p.VariantId, patch)
		if err != nil {
			return err
		}
		out = adminVariant(v, svc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &api.ServiceVariantResponse{Data: out}, nil
}

// DeleteServiceVariant implements deleteServiceVariant.
func (h *Handler) DeleteServiceVariant(ctx context.Context, p api.DeleteServiceVariantParams) (*api.AdminOkResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		return appointments.DeleteVariant(ctx, c, p.ID, p.VariantId)
	})
	if err != nil {
		return nil, err
	}
	v, err := h.client.ServiceVariant.Query().Where(servicevariant.ID(p.VariantId)).Exist(ctx)
	if err != nil {
		return nil, err
	}
	return &api.AdminOkResponse{Data: api.AdminOk{Ok: true, Deactivated: api.NewOptBool(v)}}, nil
}

// ListServiceProviders implements listServiceProviders.
func (h *Handler) ListServiceProviders(ctx context.Context, p api.ListServiceProvidersParams) (*api.ServiceProviderListResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	svc, err := appointments.ServiceOf(ctx, h.client, p.ID)
	if err != nil {
		return nil, err
	}
	as, err := appointments.Assignments(ctx, h.client, p.ID, p.EligibleOnly.Or(false))
	if err != nil {
		return nil, err
	}
	out := &api.ServiceProviderListResponse{Data: make([]api.AdminServiceProvider, 0, len(as))}
	for _, a := range as {
		out.Data = append(out.Data, adminAssignment(a, svc))
	}
	return out, nil
}

// assignmentPatch turns a request into a patch; price amounts become minor
// units of the service's currency.
func assignmentPatch(req *api.ServiceProviderRequest, currency string) appointments.AssignmentPatch {
	p := appointments.AssignmentPatch{IsPrimary: optValue(req.IsPrimary), SortOrder: optValue(req.SortOrder), IsActive: optValue(req.IsActive)}
	if req.CustomDurationMinutes.Set {
		if req.CustomDurationMinutes.Null {
			p.ClearCustomDuration = true
		} else {
			v := req.CustomDurationMinutes.Value
			p.CustomDuration = &v
		}
	}
	if req.CustomPriceAmount.Set {
		if req.CustomPriceAmount.Null {
			p.ClearCustomPrice = true
		} else {
			v := money.ToMinor(req.CustomPriceAmount.Value, currency)
			p.CustomPriceMinor = &v
		}
	}
	return p
}

// AssignServiceProvider implements assignServiceProvider.
func (h *Handler) AssignServiceProvider(ctx context.Context, req *api.ServiceProviderRequest, p api.AssignServiceProviderParams) (*api.ServiceProviderResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	var out api.AdminServiceProvider
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		svc, err := appointments.ServiceOf(ctx, c, p.ID)
		if err != nil {
			return err
		}
		a, err := appointments.PutAssignment(ctx, c, p.ID, p.ProviderId, assignmentPatch(req, svc.Currency))
		if err != nil {
			return err
		}
		out = adminAssignment(a, svc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &api.ServiceProviderResponse{Data: out}, nil
}

// UpdateServiceProvider implements updateServiceProvider.
func (h *Handler) UpdateServiceProvider(ctx context.Context, req *api.ServiceProviderRequest, p api.UpdateServiceProviderParams) (*api.ServiceProviderResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	var out api.AdminServiceProvider
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		svc, err := appointments.ServiceOf(ctx, c, p.ID)
		if err != nil {
			return err
		}
		a, err := appointments.PatchAssignment(ctx, c, p.ID, p.ProviderId, assignmentPatch(req, svc.Currency))
		if err != nil {
			return err
		}
		out = adminAssignment(a, svc)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &api.ServiceProviderResponse{Data: out}, nil
}

// RemoveServiceProvider implements removeServiceProvider.
func (h *Handler) RemoveServiceProvider(ctx context.Context, p api.RemoveServiceProviderParams) (*api.AdminOkResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		return appointments.DeleteAssignment(ctx, c, p.ID, p.ProviderId)
	})
	if err != nil {
		return nil, err
	}
	return &api.AdminOkResponse{Data: api.AdminOk{Ok: true}}, nil
}

// ListStaffServices implements listStaffServices.
func (h *Handler) ListStaffServices(ctx context.Context, p api.ListStaffServicesParams) (*api.StaffServiceListResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermStaffView); err != nil {
		return nil, err
	}
	if _, err := appointments.ProviderOf(ctx, h.client, p.ProviderId); err != nil {
		return nil, err
	}
	as, err := h.client.ServiceProvider.Query().Where(serviceprovider.ProviderID(p.ProviderId)).
		WithService(func(q *ent.ServiceQuery) { q.WithVariants() }).
		Order(ent.Asc(serviceprovider.FieldSortOrder), ent.Asc(serviceprovider.FieldID)).All(ctx)
	if err != nil {
		return nil, err
	}
	out := &api.StaffServiceListResponse{Data: make([]api.StaffService, 0, len(as))}
	for _, a := range as {
		svc := a.Edges.Service
		out.Data = append(out.Data, api.StaffService{ServiceID: svc.ID, ServiceName: svc.Name, Currency: svc.Currency,
			Assignment: apient.ServiceProviderAssignment(a), Variants: apient.Map(svc.Edges.Variants, apient.ServiceVariant)})
	}
	return out, nil
}

// hhmm parses "HH:MM" (or "24:00") as minutes from midnight.
func hhmm(name, s string) (int, error) {
	var hh, mm int
	if _, err := fmt.Sscanf(s, "%d:%d", &hh, &mm); err != nil || hh < 0 || hh > 24 || mm < 0 || mm > 59 || (hh == 24 && mm != 0) {
		return 0, apperr.Validation(name, name+" must be HH:MM")
	}
	return hh*60 + mm, nil
}

func minutesText(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }

func (h *Handler) workingHoursOut(ctx context.Context, pid uuid.UUID, rows []*ent.ProviderHours) (*api.WorkingHoursResponse, error) {
	v, err := appointments.LoadVenue(ctx, h.client)
	if err != nil {
		return nil, err
	}
	out := api.WorkingHours{ProviderID: pid, Timezone: v.Loc.String(), Hours: make([]api.WorkingHoursSpan, 0, len(rows))}
	for _, r := range rows {
		s := api.WorkingHoursSpan{Weekday: r.Weekday, Start: minutesText(r.StartMinute), End: minutesText(r.EndMinute)}
		if r.LocationID != nil {
			s.LocationID = api.NewOptNilUUID(*r.LocationID)
		}
		out.Hours = append(out.Hours, s)
	}
	return &api.WorkingHoursResponse{Data: out}, nil
}

// GetProviderWorkingHours implements getProviderWorkingHours.
func (h *Handler) GetProviderWorkingHours(ctx context.Context, p api.GetProviderWorkingHoursParams) (*api.WorkingHoursResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	rows, err := appointments.WorkingHours(ctx, h.client, p.ProviderId)
	if err != nil {
		return nil, err
	}
	return h.workingHoursOut(ctx, p.ProviderId, rows)
}

// SetProviderWorkingHours implements setProviderWorkingHours.
func (h *Handler) SetProviderWorkingHours(ctx context.Context, req *api.WorkingHoursRequest, p api.SetProviderWorkingHoursParams) (*api.WorkingHoursResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	spans := make([]appointments.HoursSpan, 0, len(req.Hours))
	for _, s := range req.Hours {
		start, err := hhmm("start", s.Start)
		if err != nil {
			return nil, err
		}
		end, err := hhmm("end", s.End)
		if err != nil {
			return nil, err
		}
		sp := appointments.HoursSpan{Weekday: s.Weekday, Start: start, End: end}
		if s.LocationID.Set && !s.LocationID.Null {
			id := s.LocationID.Value
			sp.LocationID = &id
		}
		spans = append(spans, sp)
	}
	var rows []*ent.ProviderHours
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		var err error
		rows, err = appointments.SetWorkingHours(ctx, c, p.ProviderId, spans)
		return err
	})
	if err != nil {
		return nil, err
	}
	return h.workingHoursOut(ctx, p.ProviderId, rows)
}

func timeOffOut(o *ent.ProviderTimeOff) api.TimeOff {
	return api.TimeOff{ID: o.ID, ProviderID: o.ProviderID, StartsAt: o.StartsAt.UTC(), EndsAt: o.EndsAt.UTC(), Reason: o.Reason}
}

// ListProviderTimeOff implements listProviderTimeOff.
func (h *Handler) ListProviderTimeOff(ctx context.Context, p api.ListProviderTimeOffParams) (*api.TimeOffListResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	rows, err := appointments.TimeOff(ctx, h.client, p.ProviderId, h.now())
	if err != nil {
		return nil, err
	}
	out := &api.TimeOffListResponse{Data: make([]api.TimeOff, 0, len(rows))}
	for _, o := range rows {
		out.Data = append(out.Data, timeOffOut(o))
	}
	return out, nil
}

// AddProviderTimeOff implements addProviderTimeOff.
func (h *Handler) AddProviderTimeOff(ctx context.Context, req *api.TimeOffRequest, p api.AddProviderTimeOffParams) (*api.TimeOffResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	var o *ent.ProviderTimeOff
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		var err error
		o, err = appointments.AddTimeOff(ctx, c, p.ProviderId, req.StartsAt, req.EndsAt, req.Reason.Or(""))
		return err
	})
	if err != nil {
		return nil, err
	}
	return &api.TimeOffResponse{Data: timeOffOut(o)}, nil
}

// DeleteProviderTimeOff implements deleteProviderTimeOff.
func (h *Handler) DeleteProviderTimeOff(ctx context.Context, p api.DeleteProviderTimeOffParams) (*api.AdminOkResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		return appointments.DeleteTimeOff(ctx, c, p.ProviderId, p.TimeOffId)
	})
	if err != nil {
		return nil, err
	}
	return &api.AdminOkResponse{Data: api.AdminOk{Ok: true}}, nil
}

func policiesOut(p appointments.Policy) api.AppointmentPolicies {
	out := api.AppointmentPolicies{SlotIntervalMinutes: int(p.SlotInterval / time.Minute),
		PaymentAtBookingMode:    api.AppointmentPoliciesPaymentAtBookingMode(p.PaymentMode),
		RequirePaymentAtBooking: p.PaymentMode == appointmentpolicy.PaymentAtBookingModeOnline,
		GroupedVisits: api.GroupedVisitsPolicy{Enabled: p.GroupedVisitsEnabled, MaxServicesPerVisit: p.MaxServicesPerVisit,
			RefundTerms: api.NilString{Null: true}, Confirmed: p.RefundTerms != nil},
		RowPresent: p.Row != nil}
	if p.RefundTerms != nil {
		out.GroupedVisits.RefundTerms = api.NewNilString(*p.RefundTerms)
	}
	if p.SelfServiceCutoff != nil {
		out.SelfServiceCutoffHours = api.NewNilInt(int(*p.SelfServiceCutoff / time.Hour))
	} else {
		out.SelfServiceCutoffHours.SetToNull()
	}
	return out
}

// GetAppointmentPolicies implements getAppointmentPolicies.
func (h *Handler) GetAppointmentPolicies(ctx context.Context) (*api.AppointmentPoliciesResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermSettingsBusiness); err != nil {
		return nil, err
	}
	p, err := appointments.LoadPolicy(ctx, h.client)
	if err != nil {
		return nil, err
	}
	return &api.AppointmentPoliciesResponse{Data: policiesOut(p)}, nil
}

// UpdateAppointmentPolicies implements updateAppointmentPolicies.
func (h *Handler) UpdateAppointmentPolicies(ctx context.Context, req *api.AppointmentPoliciesUpdateRequest, _ api.UpdateAppointmentPoliciesParams) (*api.AppointmentPoliciesResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermSettingsBusiness); err != nil {
		return nil, err
	}
	patch := appointments.PolicyPatch{SlotInterval: optValue(req.SlotIntervalMinutes)}
	if m, ok := req.PaymentAtBookingMode.Get(); ok {
		v := appointmentpolicy.PaymentAtBookingMode(m)
		cur, err := appointments.LoadPolicy(ctx, h.client)
		if err != nil {
			return nil, err
		}
		if err := appointments.OfferingAllowsPaymentMode(cur, v); err != nil {
			return nil, err
		}
		if err := appointments.PaymentModeAvailable(ctx, h.payments(), v); err != nil {
			return nil, err
		}
		patch.PaymentMode = &v
	}
	if req.SelfServiceCutoffHours.Set {
		if req.SelfServiceCutoffHours.Null {
			patch.ClearCutoff = true
		} else {
			v := req.SelfServiceCutoffHours.Value
			patch.Cutoff = &v
		}
	}
	if g, ok := req.GroupedVisits.Get(); ok {
		patch.GroupedVisits, patch.MaxServicesPerVisit = optValue(g.Enabled), optValue(g.MaxServicesPerVisit)
		patch.TermsConfirmed = optValue(g.Confirmed)
		if g.RefundTerms.Set {
			if g.RefundTerms.Null {
				patch.ClearRefundTerms = true
			} else {
				v := g.RefundTerms.Value
				patch.RefundTerms = &v
			}
		}
	}
	var pol appointments.Policy
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		var err error
		pol, err = appointments.UpdatePolicy(ctx, c, patch)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &api.AppointmentPoliciesResponse{Data: policiesOut(pol)}, nil
}

func venueOf(ctx context.Context) uuid.UUID {
	org, _ := viewer.VenueFromContext(ctx)
	return org
}

// offeringOut is the API shape of the venue's booking offering.
func offeringOut(org uuid.UUID, o appointments.Offering) api.BookingOffering {
	visibility := func(on bool) string {
		if on {
			return "visible"
		}
		return "hidden"
	}
	classes, appts := o.Classes(), o.Appointments()
	business := api.BookingOfferingBusinessTypeHybrid
	switch {
	case !appts:
		business = api.BookingOfferingBusinessTypeStudio
	case !classes:
		business = api.BookingOfferingBusinessTypeSalon
	}
	out := api.BookingOffering{ContractVersion: 1, OrganizationID: org, Mode: api.BookingOfferingMode(o.Mode),
		BookingMode:  api.NewOptBookingOfferingBookingMode(api.BookingOfferingBookingMode(o.Mode)),
		BusinessType: api.NewOptBookingOfferingBusinessType(business),
		Operations: api.NewOptBookingOfferingOperations(api.BookingOfferingOperations{
			Classes: api.BookingOfferingOperationsClasses{Enabled: classes,
				Visibility: api.BookingOfferingOperationsClassesVisibility(visibility(classes))},
			Appointments: api.BookingOfferingOperationsAppointments{Enabled: appts, ManagementEnabled: true,
				Visibility:  api.BookingOfferingOperationsAppointmentsVisibility(visibility(appts)),
				AccessLevel: api.BookingOfferingOperationsAppointmentsAccessLevelFull, PlanFullAccess: true,
				ServiceCount: o.ServiceCount, ProviderCount: o.ProviderCount}}),
		VenueSurfaces: api.NewOptBookingOfferingSurfaces(api.BookingOfferingSurfaces{Dashboard: true, Schedule: classes,
			CheckIn: classes, Appointments: appts, Clients: true, PointOfSale: true}),
		VerticalModules: api.NewOptBookingOfferingModules(api.BookingOfferingModules{Classes: classes, Appointments: appts, Pos: true}),
		ActiveModules:   []api.BookingOfferingActiveModulesItem{}}
	if classes {
		out.ActiveModules = append(out.ActiveModules, api.BookingOfferingActiveModulesItemClasses)
	}
	if appts {
		out.ActiveModules = append(out.ActiveModules, api.BookingOfferingActiveModulesItemAppointments)
	}
	out.ActiveModules = append(out.ActiveModules, api.BookingOfferingActiveModulesItemPos)
	return out
}

// GetBookingOffering implements getBookingOffering.
func (h *Handler) GetBookingOffering(ctx context.Context) (*api.BookingOfferingResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermSettingsBusiness); err != nil {
		return nil, err
	}
	o, err := appointments.OfferingOf(ctx, h.client)
	if err != nil {
		return nil, err
	}
	return &api.BookingOfferingResponse{Data: offeringOut(venueOf(ctx), o)}, nil
}

// UpdateBookingOffering implements updateBookingOffering.
func (h *Handler) UpdateBookingOffering(ctx context.Context, req *api.BookingOfferingUpdateRequest, _ api.UpdateBookingOfferingParams) (*api.BookingOfferingResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermSettingsBusiness); err != nil {
		return nil, err
	}
	mode := appointmentpolicy.OfferingMode(req.Mode)
	var pol appointments.Policy
	err := h.inTx(ctx, func(ctx context.Context, c *ent.Client) error {
		var err error
		pol, err = appointments.UpdatePolicy(ctx, c, appointments.PolicyPatch{OfferingMode: &mode})
		return err
	})
	if err != nil {
		return nil, err
	}
	o, err := appointments.OfferingOf(ctx, h.client)
	if err != nil {
		h.log.WarnContext(ctx, "booking offering not read again", "error", err)
		return &api.BookingOfferingResponse{Data: api.BookingOffering{ContractVersion: 1, OrganizationID: venueOf(ctx),
			Mode: api.BookingOfferingMode(pol.OfferingMode), RefreshFailed: api.NewOptBool(true)}}, nil
	}
	return &api.BookingOfferingResponse{Data: offeringOut(venueOf(ctx), o)}, nil
}

// GetAppointmentReadiness implements getAppointmentReadiness.
func (h *Handler) GetAppointmentReadiness(ctx context.Context) (*api.AppointmentReadinessResponse, error) {
	if err := appointments.Authorize(ctx, appointments.PermBookingsManage); err != nil {
		return nil, err
	}
	r, err := appointments.CheckReadiness(ctx, h.client)
	if err != nil {
		h.log.WarnContext(ctx, "appointment readiness failed", "error", err)
		return nil, &apperr.Error{Status: 503, Code: "QUERY_FAILED", Message: "the readiness report could not be read"}
	}
	p, err := appointments.LoadPolicy(ctx, h.client)
	if err != nil {
		return nil, err
	}
	out := api.AppointmentReadiness{ContractVersion: 1, OrganizationID: venueOf(ctx), Status: api.AppointmentReadinessStatusIncomplete,
		Missing: r.Missing, EvaluatedAt: h.now().UTC(), BookingMode: api.AppointmentReadinessBookingMode(p.OfferingMode)}
	if r.Ready {
		out.Status = api.AppointmentReadinessStatusReady
	}
	return &api.AppointmentReadinessResponse{Data: out}, nil
}

package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	entappointment "github.com/venueplatform/venue/ent/appointment"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/members"
)

// TestAppointmentHistoryCorrections: who may correct an ended appointment,
// the guards (token, status, ended, past effective time, body), another
// venue's appointment, and a silent, audited COMPLETE and CANCEL. Every
// refusal changes nothing.
func TestAppointmentHistoryCorrections(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	m := e.db().Member.Query().FirstX(e.op)
	seed := func(op context.Context, member, provider uuid.UUID, start time.Time) *ent.Appointment {
		svc := e.db().Service.Create().SetName("Massage").SetSlug("massage-" + uuid.NewString()[:8]).SetDurationMinutes(60).
			SetPriceMinor(50000).SetCurrency("DKK").SaveX(op)
		ap := e.db().Appointment.Create().SetMemberID(member).SetProviderID(provider).SetServiceID(svc.ID).
			SetStartsAt(start).SetEndsAt(start.Add(time.Hour)).SetBusyFrom(start).SetBusyUntil(start.Add(time.Hour)).
			SetPriceMinor(50000).SetCurrency("DKK").SetPayment(entappointment.PaymentVenue).
			SetBookedVia(entappointment.BookedViaStaff).SaveX(op)
		return e.db().Appointment.Query().Where(entappointment.ID(ap.ID)).OnlyX(op) // as stored
	}
	now := time.Now()
	past := seed(e.op, m.ID, e.instructor, now.Add(-3*time.Hour))
	future := seed(e.op, m.ID, e.instructor, now.Add(48*time.Hour))
	otherMember, err := members.Enroll(e.otherOp, e.db(), members.EnrollParams{Email: "client@other.example", Role: "member"})
	require.NoError(t, err)
	other := seed(e.otherOp, otherMember.Member.ID, e.otherInstr, now.Add(-3*time.Hour))

	read := func(id uuid.UUID, op context.Context) *ent.Appointment {
		return e.db().Appointment.Query().Where(entappointment.ID(id)).OnlyX(op)
	}
	token := func(ap *ent.Appointment) string { return ap.UpdatedAt.UTC().Format(time.RFC3339Nano) }
	body := func(op api.AdminAppointmentHistoryRequestOperation, ap *ent.Appointment) *api.AdminAppointmentHistoryRequest {
		return &api.AdminAppointmentHistoryRequest{Operation: op, ExpectedUpdatedAt: token(ap),
			ExpectedStatus: api.AppointmentStatus(ap.Status), HistoryReason: "The desk forgot to close the visit",
			EffectiveAt: now.Add(-2 * time.Hour)}
	}
	params := api.CorrectAdminAppointmentHistoryParams{ID: past.ID}
	unchanged := func() {
		t.Helper()
		got := read(past.ID, e.op)
		require.Equal(t, entappointment.StatusBooked, got.Status, "refused requests change nothing")
		require.True(t, past.UpdatedAt.Equal(got.UpdatedAt))
		require.False(t, e.audited(t, "appointment.history.complete", "appointment:"+past.ID.String()))
	}

	// Permissions: bookings.manage alone, or the history permission alone,
	// is not enough.
	for _, perms := range [][]string{{"bookings.manage"}, {"appointments.manage_history"}} {
		c := e.staff(t, "nohist-"+perms[0]+"@example.com", perms...)
		_, err = c.CorrectAdminAppointmentHistory(ctx, body(api.AdminAppointmentHistoryRequestOperationCOMPLETE, past), params)
		es := requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
		require.Equal(t, "missing_permission", es.Response.Error.Details.Reason.Value)
	}
	unchanged()

	h := e.staff(t, "hist@example.com", "bookings.manage", "appointments.manage_history")
	// Stale token and stale status.
	b := body(api.AdminAppointmentHistoryRequestOperationCOMPLETE, past)
	b.ExpectedUpdatedAt = now.Add(-time.Minute).UTC().Format(time.RFC3339Nano)
	_, err = h.CorrectAdminAppointmentHistory(ctx, b, params)
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")
	b = body(api.AdminAppointmentHistoryRequestOperationCOMPLETE, past)
	b.ExpectedStatus = api.AppointmentStatusCheckedIn
	_, err = h.CorrectAdminAppointmentHistory(ctx, b, params)
	requireErr(t, err, http.StatusConflict, "STALE_TARGET")
	// effective_at in the future, or before the start.
	b = body(api.AdminAppointmentHistoryRequestOperationCOMPLETE, past)
	b.EffectiveAt = now.Add(time.Hour)
	_, err = h.CorrectAdminAppointmentHistory(ctx, b, params)
	es := requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	require.Equal(t, "effective_at", es.Response.Error.Details.Parameter.Value)
	b.EffectiveAt = now.Add(-4 * time.Hour)
	_, err = h.CorrectAdminAppointmentHistory(ctx, b, params)
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	// A reason of blanks.
	b = body(api.AdminAppointmentHistoryRequestOperationCOMPLETE, past)
	b.HistoryReason = "     "
	_, err = h.CorrectAdminAppointmentHistory(ctx, b, params)
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	// An appointment that has not ended.
	_, err = h.CorrectAdminAppointmentHistory(ctx, body(api.AdminAppointmentHistoryRequestOperationCOMPLETE, future),
		api.CorrectAdminAppointmentHistoryParams{ID: future.ID})
	requireErr(t, err, http.StatusUnprocessableEntity, "INVALID_TRANSITION")
	// Another venue's appointment.
	_, err = h.CorrectAdminAppointmentHistory(ctx, body(api.AdminAppointmentHistoryRequestOperationCOMPLETE, other),
		api.CorrectAdminAppointmentHistoryParams{ID: other.ID})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	require.Equal(t, entappointment.StatusBooked, read(other.ID, e.otherOp).Status)
	// A bad body: an unknown operation, a missing field.
	sess := e.login(t, "hist@example.com")
	raw := func(path, body string) (int, string) {
		req, err := http.NewRequest(http.MethodPost, e.url+"/api/v1"+path, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+sess.AccessToken)
		req.Header.Set("X-Organization-ID", e.venue.ID.String())
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		var env struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&env))
		return resp.StatusCode, env.Error.Code
	}
	for _, bad := range []string{
		`{"operation":"REWRITE","expected_updated_at":"` + token(past) + `","expected_status":"booked","history_reason":"why not","effective_at":"` + now.Add(-time.Hour).UTC().Format(time.RFC3339) + `"}`,
		`{"operation":"COMPLETE","expected_status":"booked","history_reason":"why not","effective_at":"` + now.Add(-time.Hour).UTC().Format(time.RFC3339) + `"}`,
	} {
		status, code := raw("/admin/appointments/"+past.ID.String()+"/historical-corrections", bad)
		require.Equal(t, http.StatusBadRequest, status)
		require.Equal(t, "VALIDATION_ERROR", code)
	}
	unchanged()

	// COMPLETE: applied, audited, silent.
	before := e.deliveries(t)
	res, err := h.CorrectAdminAppointmentHistory(ctx, body(api.AdminAppointmentHistoryRequestOperationCOMPLETE, past), params)
	require.NoError(t, err)
	require.Equal(t, api.AppointmentStatusCompleted, res.Data.Status)
	got := read(past.ID, e.op)
	require.Equal(t, entappointment.StatusCompleted, got.Status)
	require.NotNil(t, got.CompletedAt)
	require.WithinDuration(t, now.Add(-2*time.Hour), *got.CompletedAt, time.Second)
	require.True(t, e.audited(t, "appointment.history.complete", "appointment:"+past.ID.String()))
	require.Equal(t, before, e.deliveries(t), "nobody is notified")

	// NO_SHOW does not apply to a completed appointment; CANCEL does.
	_, err = h.CorrectAdminAppointmentHistory(ctx, body(api.AdminAppointmentHistoryRequestOperationNOSHOW, got), params)
	requireErr(t, err, http.StatusUnprocessableEntity, "INVALID_TRANSITION")
	res, err = h.CorrectAdminAppointmentHistory(ctx, body(api.AdminAppointmentHistoryRequestOperationCANCEL, got), params)
	require.NoError(t, err)
	require.Equal(t, api.AppointmentStatusCancelled, res.Data.Status)
	require.True(t, e.audited(t, "appointment.history.cancel", "appointment:"+past.ID.String()))
	require.Equal(t, before, e.deliveries(t))
}

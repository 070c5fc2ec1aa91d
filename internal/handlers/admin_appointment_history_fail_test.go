package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	entappointment "github.com/venueplatform/venue/ent/appointment"
	"github.com/venueplatform/venue/ent/auditlog"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestAppointmentHistoryExecutorUnavailable: a correction the database
// refuses half-way (its audit entry cannot be written) is 503
// HISTORICAL_EXECUTOR_UNAVAILABLE, changes nothing, and leaves the
// Idempotency-Key free: the same request succeeds once the database takes
// it again, and a retry of the correction that landed is 409 STALE_TARGET.
func TestAppointmentHistoryExecutorUnavailable(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	m := e.db().Member.Query().FirstX(e.op)
	svc := e.db().Service.Create().SetName("Facial").SetSlug("facial").SetDurationMinutes(60).
		SetPriceMinor(50000).SetCurrency("DKK").SaveX(e.op)
	start := time.Now().Add(-3 * time.Hour)
	ap := e.db().Appointment.Create().SetMemberID(m.ID).SetProviderID(e.instructor).SetServiceID(svc.ID).
		SetStartsAt(start).SetEndsAt(start.Add(time.Hour)).SetBusyFrom(start).SetBusyUntil(start.Add(time.Hour)).
		SetPriceMinor(50000).SetCurrency("DKK").SetPayment(entappointment.PaymentVenue).
		SetBookedVia(entappointment.BookedViaStaff).SaveX(e.op)
	ap = e.db().Appointment.Query().Where(entappointment.ID(ap.ID)).OnlyX(e.op)

	_, err := e.pool.Exec(ctx, `CREATE FUNCTION refuse_history() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN RAISE EXCEPTION 'history refused'; END $$;
		CREATE TRIGGER refuse_history BEFORE INSERT ON audit_logs FOR EACH ROW
		WHEN (NEW.action LIKE 'appointment.history.%') EXECUTE FUNCTION refuse_history()`)
	require.NoError(t, err)

	h := e.staff(t, "hist-fail@example.com", "bookings.manage", "appointments.manage_history")
	req := &api.AdminAppointmentHistoryRequest{Operation: api.AdminAppointmentHistoryRequestOperationCOMPLETE,
		ExpectedUpdatedAt: ap.UpdatedAt.UTC().Format(time.RFC3339Nano), ExpectedStatus: api.AppointmentStatusBooked,
		HistoryReason: "Closed on paper", EffectiveAt: time.Now().Add(-2 * time.Hour)}
	params := api.CorrectAdminAppointmentHistoryParams{ID: ap.ID, IdempotencyKey: api.NewOptString(uuid.NewString())}
	_, err = h.CorrectAdminAppointmentHistory(ctx, req, params)
	es := requireErr(t, err, http.StatusServiceUnavailable, "HISTORICAL_EXECUTOR_UNAVAILABLE")
	require.JSONEq(t, `"refresh"`, string(es.Response.Error.Details.AdditionalProps["next_step"]))
	require.NotContains(t, es.Response.Error.Message, "history refused", "no internal error text reaches the client")
	got := e.db().Appointment.GetX(e.op, ap.ID)
	require.Equal(t, entappointment.StatusBooked, got.Status, "nothing changed")
	require.True(t, ap.UpdatedAt.Equal(got.UpdatedAt))

	_, err = e.pool.Exec(ctx, `DROP TRIGGER refuse_history ON audit_logs`)
	require.NoError(t, err)
	res, err := h.CorrectAdminAppointmentHistory(ctx, req, params)
	require.NoError(t, err, "the key was left free")
	require.Equal(t, api.AppointmentStatusCompleted, res.Data.Status)
	_, err = h.CorrectAdminAppointmentHistory(ctx, req, params)
	requireErr(t, err, http.StatusConflict, "STALE_TARGET") // a retry of a correction that landed
	require.Equal(t, 1, e.db().AuditLog.Query().Where(auditlog.Action("appointment.history.complete")).CountX(e.op))
}

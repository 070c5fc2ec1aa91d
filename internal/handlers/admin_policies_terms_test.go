package handlers_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestGroupedVisitRefundTerms: the grouped-visit refund terms are saved only
// when staff confirm them, read back as confirmed, and removed with null;
// unconfirmed terms and a lone confirmation change nothing.
func TestGroupedVisitRefundTerms(t *testing.T) {
	e := newSchedEnv(t)
	ctx := e.ctx
	staff := e.staff(t, "owner2@studio.example", "settings.business")
	update := func(g api.GroupedVisitsPatch) (*api.AppointmentPoliciesResponse, error) {
		return staff.UpdateAppointmentPolicies(ctx, &api.AppointmentPoliciesUpdateRequest{GroupedVisits: api.NewOptGroupedVisitsPatch(g)},
			api.UpdateAppointmentPoliciesParams{})
	}
	terms := "Cancelled 24 hours ahead: full refund of every service of the visit."
	_, err := update(api.GroupedVisitsPatch{Enabled: api.NewOptBool(true), RefundTerms: api.NewOptNilString(terms)})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = update(api.GroupedVisitsPatch{RefundTerms: api.NewOptNilString(terms), Confirmed: api.NewOptBool(false)})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	_, err = update(api.GroupedVisitsPatch{Confirmed: api.NewOptBool(true)})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	got, err := staff.GetAppointmentPolicies(ctx)
	require.NoError(t, err)
	require.False(t, got.Data.GroupedVisits.Enabled, "the refused patch changed nothing")
	require.True(t, got.Data.GroupedVisits.RefundTerms.Null)
	require.False(t, got.Data.GroupedVisits.Confirmed)

	res, err := update(api.GroupedVisitsPatch{Enabled: api.NewOptBool(true), RefundTerms: api.NewOptNilString(terms), Confirmed: api.NewOptBool(true)})
	require.NoError(t, err)
	require.True(t, res.Data.GroupedVisits.Enabled)
	require.Equal(t, terms, res.Data.GroupedVisits.RefundTerms.Value)
	require.True(t, res.Data.GroupedVisits.Confirmed)
	got, err = staff.GetAppointmentPolicies(ctx)
	require.NoError(t, err)
	require.Equal(t, res.Data.GroupedVisits, got.Data.GroupedVisits)

	res, err = update(api.GroupedVisitsPatch{RefundTerms: api.OptNilString{Set: true, Null: true}})
	require.NoError(t, err)
	require.True(t, res.Data.GroupedVisits.RefundTerms.Null)
	require.False(t, res.Data.GroupedVisits.Confirmed)
	require.True(t, res.Data.GroupedVisits.Enabled)
}

package handlers_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/booking"
	api "github.com/venueplatform/venue/internal/gen/api"
)

// TestBookingRulesREST: the refusals reach the client with their status,
// code and details, and a refused booking changes nothing; a cancellation
// retried with its Idempotency-Key is replayed.
func TestBookingRulesREST(t *testing.T) {
	e := newBookEnv(t, "studio")
	ctx := context.Background()
	spinOnly := e.client.PassType.Query().Where(passtype.Slug("spin-only")).OnlyX(e.op)
	ana := e.member(t, e.op, "ana@example.com", e.ten, ptrInt(5))
	spin := e.member(t, e.op, "spin@example.com", spinOnly, ptrInt(5))
	none := e.member(t, e.op, "none@example.com", nil, nil)
	cl := e.class(t, e.op, e.classType, 48*time.Hour, 5)

	_, err := spin.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodePassBrandRestricted)
	_, err = none.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodePassRequired)
	_, err = ana.c.CreateBooking(ctx, &api.BookingCreateRequest{ClassInstanceID: cl.ID, PassID: api.NewOptUUID(spin.pass.ID)}, inVenue(e.venue.ID))
	requireCode(t, err, http.StatusNotFound, "NOT_FOUND")
	far := e.class(t, e.op, e.classType, 40*24*time.Hour, 5)
	_, err = ana.c.CreateBooking(ctx, bookReq(far.ID), inVenue(e.venue.ID))
	es := errorOf(t, err)
	require.Equal(t, booking.CodeBookingNotOpen, es.Response.Error.Code)
	require.Contains(t, es.Response.Error.Details.AdditionalProps, "opens_at")
	require.Equal(t, 0, e.client.Booking.Query().CountX(e.op)-5, "no booking was written (5 are the studio's own)")
	require.Equal(t, 5, *e.client.Pass.GetX(e.op, ana.pass.ID).ClipsRemaining)

	pol := booking.DefaultPolicy()
	pol.DailyLimit = 1
	require.NoError(t, booking.SetPolicy(e.op, e.client, pol))
	b, err := ana.c.CreateBooking(ctx, bookReq(cl.ID), inVenue(e.venue.ID))
	require.NoError(t, err)
	// Another class starting when cl does: a later start would be on the
	// next venue-local day when the test runs shortly before midnight.
	same := e.client.ClassInstance.Create().SetClassTypeID(e.classType).SetStartTime(cl.StartTime).
		SetEndTime(cl.EndTime).SetCapacity(5).SaveX(e.op)
	_, err = ana.c.CreateBooking(ctx, bookReq(same.ID), inVenue(e.venue.ID))
	requireCode(t, err, http.StatusUnprocessableEntity, booking.CodeDailyLimit)

	key := api.NewOptString("cancel-" + b.Data.ID.String())
	first, err := ana.c.CancelBooking(ctx, api.CancelBookingParams{ID: b.Data.ID, IdempotencyKey: key})
	require.NoError(t, err)
	again, err := ana.c.CancelBooking(ctx, api.CancelBookingParams{ID: b.Data.ID, IdempotencyKey: key})
	require.NoError(t, err, "the retry is replayed, not refused as already cancelled")
	require.Equal(t, first.Data, again.Data)
	require.Equal(t, 5, *e.client.Pass.GetX(e.op, ana.pass.ID).ClipsRemaining, "the clip came back once")
}

package handlers_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	entbooking "github.com/venueplatform/venue/ent/booking"
	"github.com/venueplatform/venue/ent/event"
	"github.com/venueplatform/venue/ent/guestinvite"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/user"
	"github.com/venueplatform/venue/internal/booking"
	"github.com/venueplatform/venue/internal/events"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments/guests"
)

// guestEnv is a payments studio with a guest price (guest-pass 100 DKK
// against a 150 DKK drop-in), a class tomorrow of capacity 3 and the
// signed-in member (the host) holding a confirmed seat in it.
type guestEnv struct {
	*payEnv
	class  uuid.UUID
	host   uuid.UUID
	public *api.Client
}

func newGuestEnv(t *testing.T, capacity int) *guestEnv {
	t.Helper()
	e := &guestEnv{payEnv: newPayEnv(t, false, false)}
	c, op := e.studio.client, e.op
	c.PassType.Create().SetName("Drop-in").SetSlug("drop-in").SetCategory(passtype.CategoryDropIn).
		SetPriceMinor(15000).SetCurrency("DKK").SetClips(1).SaveX(op)
	c.PassType.Create().SetName("Guest").SetSlug(guests.GuestPassSlug).SetCategory(passtype.CategoryDropIn).
		SetPriceMinor(10000).SetCurrency("DKK").SetClips(1).SetListed(false).SaveX(op)
	start := e.studio.today.AddDate(0, 0, 1).Add(18 * time.Hour)
	e.class = c.ClassInstance.Create().SetClassTypeID(e.studio.classType).SetStartTime(start).
		SetEndTime(start.Add(time.Hour)).SetCapacity(capacity).SaveX(op).ID
	e.host = e.memberID(t, "buyer@pay.example")
	c.Booking.Create().SetMemberID(e.host).SetClassInstanceID(e.class).SetStatus(entbooking.StatusConfirmed).SaveX(op)
	e.public = e.client(t, "")
	return e
}

func (e *guestEnv) memberID(t *testing.T, email string) uuid.UUID {
	t.Helper()
	return e.studio.client.Member.Query().Where(member.HasUserWith(user.Email(email))).OnlyX(e.op).ID
}

func (e *guestEnv) create(c *api.Client, payer api.GuestInviteCreateRequestPayer, spots int, key string) (*api.HostGuestInviteListResponse, error) {
	u, _ := url.Parse("https://app.example/guest")
	req := &api.GuestInviteCreateRequest{ClassInstanceID: e.class, Payer: payer, ReturnBaseURL: *u}
	if spots > 0 {
		req.Spots = api.NewOptInt(spots)
	}
	return c.CreateGuestInvites(e.ctx, req, api.CreateGuestInvitesParams{XOrganizationID: e.venue.ID, IdempotencyKey: key})
}

func (e *guestEnv) booked(t *testing.T) int {
	t.Helper()
	return e.studio.client.ClassInstance.GetX(e.op, e.class).BookedCount
}

func (e *guestEnv) resolve(t *testing.T, token string) api.GuestInvite {
	t.Helper()
	res, err := e.public.ResolveGuestInvite(e.ctx, api.ResolveGuestInviteParams{Token: token})
	require.NoError(t, err)
	return res.Data
}

// TestGuestInvitePaidByGuest: the host's eligibility shows the guest price
// against the drop-in; a new place holds a seat (the class's count); the
// guest resolves it and pays without an account, twice asking for the same
// intent; once Stripe reports success the place is paid once (a drop_in
// payment, payment.succeeded and guest_invite.paid), and it can no longer
// be withdrawn or paid again.
func TestGuestInvitePaidByGuest(t *testing.T) {
	e := newGuestEnv(t, 3)
	el, err := e.member.GetGuestInviteEligibility(e.ctx, api.GetGuestInviteEligibilityParams{XOrganizationID: e.venue.ID, ClassInstanceID: e.class})
	require.NoError(t, err)
	require.True(t, el.Data.Eligible)
	require.True(t, el.Data.Reason.IsNull())
	require.Equal(t, int64(10000), el.Data.GuestPrice.Value.AmountMinor)
	require.Equal(t, int64(15000), el.Data.CompareAtPriceMinor.Value)
	require.Empty(t, el.Data.OpenInvitations)
	require.Equal(t, 1, e.booked(t))

	made, err := e.create(e.member, api.GuestInviteCreateRequestPayerGuest, 0, "gi-1")
	require.NoError(t, err)
	require.Len(t, made.Data, 1)
	inv := made.Data[0]
	token := inv.Token.Value
	require.Len(t, token, 43)
	require.Equal(t, api.HostGuestInviteStatusHeld, inv.Status)
	require.Contains(t, inv.InviteURL.Value, "guest_invite_token="+token)
	require.Equal(t, 2, e.booked(t), "the guest's seat counts in the class")
	stored := e.studio.client.GuestInvite.GetX(e.op, inv.ID)
	require.Equal(t, guests.HashToken(token), stored.TokenHash)
	require.NotContains(t, stored.TokenHash, token)

	g := e.resolve(t, token)
	require.Equal(t, api.GuestInviteStatePayable, g.State)
	require.Equal(t, int64(10000), g.GuestPrice.AmountMinor)
	require.Equal(t, e.venue.Slug, g.VenueSlug)

	co, err := e.public.CheckoutGuestInvite(e.ctx, api.CheckoutGuestInviteParams{Token: token})
	require.NoError(t, err)
	require.Equal(t, api.GuestInviteCheckoutPaymentStatusRequiresPaymentMethod, co.Data.PaymentStatus)
	pi := co.Data.PaymentIntentID.Value
	require.NotEmpty(t, pi)
	require.True(t, strings.HasPrefix(co.Data.CheckoutURL, "https://app.example/guest?guest_invite="+inv.ID.String()+"#"))
	require.Contains(t, co.Data.CheckoutURL, "payment_intent_client_secret=")
	require.Equal(t, payAccount, co.Data.ProcessorAccountID.Value)
	again, err := e.public.CheckoutGuestInvite(e.ctx, api.CheckoutGuestInviteParams{Token: token})
	require.NoError(t, err)
	require.Equal(t, pi, again.Data.PaymentIntentID.Value, "the payment the guest started, not a second one")
	require.Len(t, e.fake.Intents(), 1)
	require.EqualValues(t, 10000, e.fake.Intent(pi)["amount"])

	e.fake.SetStatus(pi, "succeeded")
	require.Equal(t, api.GuestInviteStateAlreadyPaid, e.resolve(t, token).State)
	require.Equal(t, api.GuestInviteStateAlreadyPaid, e.resolve(t, token).State)
	pays := e.studio.client.Payment.Query().Where(payment.ProcessorPaymentID(pi)).AllX(e.op)
	require.Len(t, pays, 1)
	require.Equal(t, payment.KindDropIn, pays[0].Kind)
	require.Nil(t, pays[0].MemberID, "a guest without an account is no member")
	require.Equal(t, 1, e.studio.client.Event.Query().Where(event.Type(events.GuestInvitePaid)).CountX(e.op))
	require.Equal(t, 2, e.booked(t))

	_, err = e.public.CheckoutGuestInvite(e.ctx, api.CheckoutGuestInviteParams{Token: token})
	requireErr(t, err, http.StatusConflict, "ALREADY_PAID")
	_, err = e.member.WithdrawGuestInvite(e.ctx, api.WithdrawGuestInviteParams{XOrganizationID: e.venue.ID, InviteId: inv.ID})
	requireErr(t, err, http.StatusConflict, "ALREADY_PAID")

	// A retry of the creating request answers the same place (without a
	// token once the stored answer is gone: here the same key replays it).
	rep, err := e.create(e.member, api.GuestInviteCreateRequestPayerGuest, 0, "gi-1")
	require.NoError(t, err)
	require.Equal(t, inv.ID, rep.Data[0].ID)
	require.Equal(t, 1, e.studio.client.GuestInvite.Query().CountX(e.op))
}

// TestGuestInviteTokensAndRefusals: unknown and malformed tokens are 404;
// bad bodies are 400 and change nothing; another venue's class and another
// member's place are 404; a host without a seat is not eligible.
func TestGuestInviteTokensAndRefusals(t *testing.T) {
	e := newGuestEnv(t, 3)
	for _, tok := range []string{"x", strings.Repeat("A", 43), guests.HashToken("nothing")} {
		_, err := e.public.ResolveGuestInvite(e.ctx, api.ResolveGuestInviteParams{Token: tok})
		requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
		_, err = e.public.CheckoutGuestInvite(e.ctx, api.CheckoutGuestInviteParams{Token: tok})
		requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	}
	_, err := e.create(e.member, api.GuestInviteCreateRequestPayerGuest, 21, "bad-spots")
	require.Error(t, err)
	body := `{"class_instance_id":"` + e.class.String() + `","payer":"guest","return_base_url":"https://a.example/x","extra":1}`
	req, _ := http.NewRequest(http.MethodPost, e.url+"/api/v1/me/guest-invites", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Organization-ID", e.venue.ID.String())
	req.Header.Set("Idempotency-Key", "unknown-field")
	req.Header.Set("Authorization", "Bearer "+e.login(t, "buyer@pay.example").AccessToken)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	require.Zero(t, e.studio.client.GuestInvite.Query().CountX(e.op))

	other := newStudio(t, "elsewhere")
	foreign := other.client.ClassInstance.Create().SetClassTypeID(other.classType).
		SetStartTime(other.today.AddDate(0, 0, 1)).SetEndTime(other.today.AddDate(0, 0, 1).Add(time.Hour)).
		SetCapacity(5).SaveX(other.op)
	u, _ := url.Parse("https://app.example/guest")
	_, err = e.member.CreateGuestInvites(e.ctx, &api.GuestInviteCreateRequest{ClassInstanceID: foreign.ID,
		Payer: api.GuestInviteCreateRequestPayerGuest, ReturnBaseURL: *u},
		api.CreateGuestInvitesParams{XOrganizationID: e.venue.ID, IdempotencyKey: "foreign"})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")

	made, err := e.create(e.member, api.GuestInviteCreateRequestPayerGuest, 1, "mine")
	require.NoError(t, err)
	stranger := e.memberClient(t, "stranger@pay.example")
	_, err = stranger.WithdrawGuestInvite(e.ctx, api.WithdrawGuestInviteParams{XOrganizationID: e.venue.ID, InviteId: made.Data[0].ID})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	el, err := stranger.GetGuestInviteEligibility(e.ctx, api.GetGuestInviteEligibilityParams{XOrganizationID: e.venue.ID, ClassInstanceID: e.class})
	require.NoError(t, err)
	require.False(t, el.Data.Eligible)
	require.Equal(t, api.GuestInviteEligibilityResponseDataReasonNoConfirmedBooking, el.Data.Reason.Value)
	require.Empty(t, el.Data.OpenInvitations, "another host's places are not shown")
	_, err = e.create(stranger, api.GuestInviteCreateRequestPayerGuest, 1, "no-seat")
	requireErr(t, err, http.StatusUnprocessableEntity, guests.CodeNotEligible)

	w, err := e.member.WithdrawGuestInvite(e.ctx, api.WithdrawGuestInviteParams{XOrganizationID: e.venue.ID, InviteId: made.Data[0].ID})
	require.NoError(t, err)
	require.Equal(t, api.HostGuestInviteStatusCancelled, w.Data.Status)
	require.Equal(t, api.GuestInviteStateCancelled, e.resolve(t, made.Data[0].Token.Value).State)
	require.Equal(t, 1, e.booked(t), "a withdrawn place frees its seat")
}

// TestGuestInviteClaimAndHostPays: a claimed place is paid signed in by its
// claimant only (ALREADY_CLAIMED for the public checkout and for another
// account); a place the host pays is refused to the guest and paid by the
// host with a saved card at once.
func TestGuestInviteClaimAndHostPays(t *testing.T) {
	e := newGuestEnv(t, 5)
	made, err := e.create(e.member, api.GuestInviteCreateRequestPayerGuest, 1, "claim")
	require.NoError(t, err)
	token := made.Data[0].Token.Value
	guest := e.client(t, e.signup(t, "guest@else.example", goodPassword).AccessToken) // no member of the venue
	r, err := guest.ClaimGuestInvite(e.ctx, &api.GuestInviteTokenRequest{Token: token})
	require.NoError(t, err)
	require.True(t, r.Data.Claimed)
	require.Equal(t, api.GuestInviteStateNeedsAccount, r.Data.State)
	_, err = guest.ClaimGuestInvite(e.ctx, &api.GuestInviteTokenRequest{Token: token})
	require.NoError(t, err, "claiming again changes nothing")
	_, err = e.public.CheckoutGuestInvite(e.ctx, api.CheckoutGuestInviteParams{Token: token})
	requireErr(t, err, http.StatusConflict, guests.CodeAlreadyClaimed)
	third := e.client(t, e.signup(t, "third@else.example", goodPassword).AccessToken)
	_, err = third.ClaimGuestInvite(e.ctx, &api.GuestInviteTokenRequest{Token: token})
	requireErr(t, err, http.StatusConflict, guests.CodeAlreadyClaimed)
	_, err = third.CheckoutGuestInviteSignedIn(e.ctx, &api.GuestInviteSignedInCheckoutRequest{Token: token})
	requireErr(t, err, http.StatusNotFound, "NOT_FOUND")
	_, err = e.member.ClaimGuestInvite(e.ctx, &api.GuestInviteTokenRequest{Token: token})
	requireErr(t, err, http.StatusBadRequest, "VALIDATION_ERROR")
	co, err := guest.CheckoutGuestInviteSignedIn(e.ctx, &api.GuestInviteSignedInCheckoutRequest{Token: token,
		PaymentMethodID: api.NewOptString("pm_card_visa")})
	require.NoError(t, err)
	require.Equal(t, api.GuestInviteCheckoutPaymentStatusSucceeded, co.Data.PaymentStatus)
	require.Equal(t, api.GuestInviteStateAlreadyPaid, co.Data.Invite.State)

	hm, err := e.create(e.member, api.GuestInviteCreateRequestPayerHost, 2, "host-pays")
	require.NoError(t, err)
	require.Len(t, hm.Data, 2)
	htok := hm.Data[1].Token.Value
	_, err = e.public.CheckoutGuestInvite(e.ctx, api.CheckoutGuestInviteParams{Token: htok})
	es := requireErr(t, err, http.StatusForbidden, "ACCESS_DENIED")
	require.Equal(t, "host_pays", es.Response.Error.Details.Reason.Value)
	hco, err := e.member.CheckoutGuestInviteSignedIn(e.ctx, &api.GuestInviteSignedInCheckoutRequest{Token: htok,
		PaymentMethodID: api.NewOptString("pm_card_visa")})
	require.NoError(t, err)
	require.Equal(t, api.GuestInviteCheckoutPaymentStatusSucceeded, hco.Data.PaymentStatus)
	p := e.studio.client.Payment.Query().Where(payment.ProcessorPaymentID(hco.Data.PaymentIntentID.Value)).OnlyX(e.op)
	require.Equal(t, e.host, *p.MemberID, "the host's payment")
	require.Equal(t, 2, e.studio.client.Event.Query().Where(event.Type(events.GuestInvitePaid)).CountX(e.op))
}

// TestGuestSeatsNeverOverbook: many places asked for at once, and bookings
// made while guests hold seats, all go through the class's one count under
// its lock: exactly the free seats are held, the rest are unseated, and a
// member booking a class guests filled is waitlisted.
func TestGuestSeatsNeverOverbook(t *testing.T) {
	e := newGuestEnv(t, 4) // the host holds 1 of 4 seats
	var wg sync.WaitGroup
	errs := make([]error, 12)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			_, errs[i] = e.create(e.member, api.GuestInviteCreateRequestPayerGuest, 1, fmt.Sprintf("race-%d", i))
		}(i)
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	c := e.studio.client
	held := c.GuestInvite.Query().Where(guestinvite.StatusEQ(guestinvite.StatusHeld)).CountX(e.op)
	unseated := c.GuestInvite.Query().Where(guestinvite.StatusEQ(guestinvite.StatusUnseated)).CountX(e.op)
	require.Equal(t, 3, held)
	require.Equal(t, 9, unseated)
	require.Equal(t, 4, e.booked(t))

	// A member with a pass books the full class: waitlisted, not a fifth seat.
	mid := e.memberID(t, e.signupMember(t, "late@pay.example"))
	c.Pass.Create().SetMemberID(mid).SetPassTypeID(e.ten.ID).SetStatus(pass.StatusActive).
		SetValidFrom(e.studio.today.AddDate(0, 0, -1)).SetClipsRemaining(10).SaveX(e.op)
	m := c.Member.GetX(e.op, mid)
	res, err := booking.Book(e.op, c, booking.Actor{Member: m, Via: entbooking.BookedViaStaff}, booking.Request{ClassID: e.class}, time.Now())
	require.NoError(t, err)
	require.Equal(t, entbooking.StatusWaitlisted, res.Booking.Status)
	require.Equal(t, 4, e.booked(t))
}

func (e *guestEnv) signupMember(t *testing.T, email string) string {
	t.Helper()
	e.memberClient(t, email)
	return email
}

// TestGuestWaitlistAndLapsedHold: a place with no seat joins the class's
// guest waiting list (joining twice answers the same place); withdrawing a
// held place gives its seat to the first guest waiting; a hold that lapses
// unpaid expires, frees its seat, and the intent its guest had started is
// cancelled at Stripe exactly once however often the sweep and the job run.
func TestGuestWaitlistAndLapsedHold(t *testing.T) {
	e := newGuestEnv(t, 3) // two seats free
	made, err := e.create(e.member, api.GuestInviteCreateRequestPayerGuest, 4, "four")
	require.NoError(t, err)
	tok := func(i int) string { return made.Data[i].Token.Value }
	require.Equal(t, api.GuestInviteStateClassFull, e.resolve(t, tok(2)).State)
	w, err := e.public.JoinGuestInviteWaitlist(e.ctx, api.JoinGuestInviteWaitlistParams{Token: tok(2)})
	require.NoError(t, err)
	require.Equal(t, 1, w.Data.Position)
	require.False(t, w.Data.AlreadyOnWaitlist)
	w, err = e.public.JoinGuestInviteWaitlist(e.ctx, api.JoinGuestInviteWaitlistParams{Token: tok(2)})
	require.NoError(t, err)
	require.Equal(t, 1, w.Data.Position)
	require.True(t, w.Data.AlreadyOnWaitlist)
	w, err = e.public.JoinGuestInviteWaitlist(e.ctx, api.JoinGuestInviteWaitlistParams{Token: tok(3)})
	require.NoError(t, err)
	require.Equal(t, 2, w.Data.Position)
	_, err = e.public.JoinGuestInviteWaitlist(e.ctx, api.JoinGuestInviteWaitlistParams{Token: tok(0)})
	requireErr(t, err, http.StatusConflict, "STALE")

	_, err = e.member.WithdrawGuestInvite(e.ctx, api.WithdrawGuestInviteParams{XOrganizationID: e.venue.ID, InviteId: made.Data[0].ID})
	require.NoError(t, err)
	require.Equal(t, api.GuestInviteStatePayable, e.resolve(t, tok(2)).State, "the first guest waiting took the seat")
	require.Equal(t, 1, e.resolve(t, tok(3)).WaitlistPosition.Value)
	require.Equal(t, 3, e.booked(t))

	// The guest of place 1 starts paying and leaves; the hold lapses.
	co, err := e.public.CheckoutGuestInvite(e.ctx, api.CheckoutGuestInviteParams{Token: tok(1)})
	require.NoError(t, err)
	pi := co.Data.PaymentIntentID.Value
	c := e.studio.client
	c.GuestInvite.UpdateOneID(made.Data[1].ID).SetHoldExpiresAt(time.Now().Add(-time.Minute)).ExecX(e.op)
	svc := guests.New(c, e.svc, nil)
	n, err := svc.ExpireHolds(e.ctx)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, err = svc.ExpireHolds(e.ctx)
	require.NoError(t, err)
	require.Zero(t, n)
	require.Equal(t, api.GuestInviteStateExpired, e.resolve(t, tok(1)).State)
	require.Equal(t, api.GuestInviteStatePayable, e.resolve(t, tok(3)).State, "the freed seat went to the next guest waiting")
	require.Equal(t, 3, e.booked(t))

	for range 2 { // the job, and a redelivery of it
		rows, err := e.pool.Query(e.ctx, `SELECT args->>'attempt_id' FROM river_job WHERE kind = 'payments.cancel_intent'`)
		require.NoError(t, err)
		var ids []uuid.UUID
		for rows.Next() {
			var s string
			require.NoError(t, rows.Scan(&s))
			ids = append(ids, uuid.MustParse(s))
		}
		require.NoError(t, rows.Err())
		require.Len(t, ids, 1, "one cancel job for the one intent")
		for _, id := range ids {
			require.NoError(t, e.svc.CancelIntent(e.op, id))
		}
	}
	require.Equal(t, 1, e.fake.Cancels(pi), "the intent is cancelled exactly once")
	require.Equal(t, "canceled", e.fake.Intent(pi)["status"])
	at := c.PaymentAttempt.Query().Where(paymentattempt.ProcessorObjectID(pi)).OnlyX(e.op)
	require.Equal(t, paymentattempt.StateCanceled, at.State)
	require.Nil(t, at.LiveSubjectID)
	_, err = e.public.CheckoutGuestInvite(e.ctx, api.CheckoutGuestInviteParams{Token: tok(1)})
	es := requireErr(t, err, http.StatusConflict, "STALE")
	require.JSONEq(t, `"expired"`, string(es.Response.Error.Details.AdditionalProps["state"]))
	require.Zero(t, c.Payment.Query().Where(payment.KindEQ(payment.KindDropIn)).CountX(e.op))
}

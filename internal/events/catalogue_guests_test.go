package events_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/guestinvite"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/members"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/guests"
	"github.com/venueplatform/venue/internal/payments/stripeport"
)

func init() { coveredElsewhere[events.GuestInvitePaid] = true }

// TestGuestInvitePaidRecordedWithTheChange: settling a guest place's charge
// records guest_invite.paid (and payment.succeeded) with their deliveries
// and jobs in the settling transaction, and nothing when it rolls back.
func TestGuestInvitePaidRecordedWithTheChange(t *testing.T) {
	e := newCatalogueEnv(t)
	e.client.VenuePayments.Create().SetAccountID("acct_guest").SetChargesEnabled(true).SaveX(e.op)
	en, err := members.Enroll(e.op, e.client, members.EnrollParams{Email: "host@example.com"})
	require.NoError(t, err)
	cl := e.class(t, 5)
	inv := e.client.GuestInvite.Create().SetMemberID(en.Member.ID).SetClassInstanceID(cl.ID).
		SetTokenHash(guests.HashToken("t")).SetPayer(guestinvite.PayerGuest).SetPriceMinor(10000).SetCurrency("DKK").
		SetReturnBaseURL("https://a.example").SetRequestKey("rk").SetSpot(1).SetHoldExpiresAt(time.Now().Add(time.Hour)).SaveX(e.op)
	at := e.client.PaymentAttempt.Create().SetPurpose(guests.Purpose).SetSubjectID(inv.ID).
		SetNumber(1).SetState(paymentattempt.StateUnknown).SetLiveSubjectID(inv.ID).SaveX(e.op)
	in := &stripeport.Intent{ID: "pi_guest", Status: "succeeded", AmountMinor: 10000, Currency: "DKK"}
	settle := func(ctx context.Context, tx *ent.Tx) error {
		return payments.New(tx.Client(), payments.Config{Port: readPort{intent: in}}).Reconcile(ctx, at.ID)
	}
	types := []string{events.GuestInvitePaid, events.PaymentSucceeded}
	_, _, jobsBefore := e.outbox(t, types[0])
	err = events.WithTx(e.op, e.client, func(ctx context.Context, tx *ent.Tx) error {
		if err := settle(ctx, tx); err != nil {
			return err
		}
		return errAbort
	})
	require.ErrorIs(t, err, errAbort)
	require.Equal(t, guestinvite.StatusHeld, e.client.GuestInvite.GetX(e.op, inv.ID).Status)
	for _, typ := range types {
		evs, ds, jobs := e.outbox(t, typ)
		require.Empty(t, evs, typ)
		require.Zero(t, ds, typ)
		require.Equal(t, jobsBefore, jobs, typ)
	}

	require.NoError(t, events.WithTx(e.op, e.client, settle))
	require.Equal(t, guestinvite.StatusPaid, e.client.GuestInvite.GetX(e.op, inv.ID).Status)
	for _, typ := range types {
		evs, ds, _ := e.outbox(t, typ)
		require.Len(t, evs, 1, typ)
		require.Equal(t, 1, ds, typ)
	}
	evs, _, _ := e.outbox(t, events.GuestInvitePaid)
	for _, k := range []string{"guest_invite_id", "class_instance_id", "member_id", "payer", "payment_id", "amount_minor", "currency"} {
		require.Contains(t, evs[0].Payload, k)
	}
}

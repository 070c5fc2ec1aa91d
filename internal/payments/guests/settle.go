package guests

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/guestinvite"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/system"
)

// inviteSubject lets package payments charge and settle guest places.
type inviteSubject struct{}

func (inviteSubject) Lock(ctx context.Context, tx *ent.Tx, id uuid.UUID) (payments.SubjectCharge, error) {
	inv, err := tx.GuestInvite.Query().Where(guestinvite.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return payments.SubjectCharge{}, err
	}
	return payments.SubjectCharge{AmountMinor: inv.PriceMinor, Currency: inv.Currency, Description: "Guest place",
		MemberID: inv.MemberID, Paid: inv.Status == guestinvite.StatusPaid}, nil
}

// Settle makes the paid place the guest's, once, under the invitation's
// lock: status paid (the seat stays counted), the payment row (kind
// drop_in; the host's when the host paid, no member's when the guest did)
// and the events payment.succeeded and guest_invite.paid. Money that
// arrives for a place that was withdrawn or lapsed meanwhile still settles
// it: the payment is recorded and the place is the guest's (a seat is taken
// back only if one is free; staff see it over capacity otherwise).
func (inviteSubject) Settle(ctx context.Context, tx *ent.Tx, id uuid.UUID, intentID string, now time.Time) error {
	inv, err := tx.GuestInvite.Get(ctx, id)
	if err != nil || inv.Status == guestinvite.StatusPaid {
		return err
	}
	pc := tx.Payment.Create().SetAmountMinor(inv.PriceMinor).SetCurrency(inv.Currency).
		SetStatus(payment.StatusSucceeded).SetKind(payment.KindDropIn).
		SetPaidAt(now).SetProcessorPaymentID(intentID)
	if inv.Payer == guestinvite.PayerHost {
		pc.SetMemberID(inv.MemberID)
	}
	pay, err := pc.Save(ctx)
	if err != nil {
		return err
	}
	if inv, err = tx.GuestInvite.UpdateOne(inv).SetStatus(guestinvite.StatusPaid).ClearWaitlistPosition().
		SetPaymentID(pay.ID).SetPaymentIntentID(intentID).SetPaidAt(now).Save(ctx); err != nil {
		return err
	}
	data := map[string]any{
		"payment_id": pay.ID.String(), "guest_invite_id": inv.ID.String(), "member_id": inv.MemberID.String(),
		"payment_intent_id": intentID, "amount_minor": inv.PriceMinor, "currency": inv.Currency, "vat_minor": 0,
	}
	if _, err := events.Record(ctx, tx.Client(), events.PaymentSucceeded, data); err != nil {
		return err
	}
	_, err = events.Record(ctx, tx.Client(), events.GuestInvitePaid, map[string]any{
		"guest_invite_id": inv.ID.String(), "class_instance_id": inv.ClassInstanceID.String(),
		"member_id": inv.MemberID.String(), "payer": string(inv.Payer), "payment_id": pay.ID.String(),
		"amount_minor": inv.PriceMinor, "currency": inv.Currency,
	})
	return err
}

// ExpireHolds ends the unpaid holds whose time is up, in every venue: each
// place becomes expired under its class's lock (its seat freed and offered
// to the first guest waiting), unless a payment of it is under way at
// Stripe (processing, unknown, in flight), which settles it either way. A
// payment the guest had started and left (an intent waiting for a card or
// 3-D Secure) is cancelled at Stripe by a job queued in the same
// transaction (payments.CancelSubjectIntents). It returns how many expired.
func (s *Service) ExpireHolds(ctx context.Context) (int, error) {
	return s.Holds().Sweep(ctx, s.client, s.now())
}

// Holds is the lapsing hold of guest places (payments' lapse.go).
func (s *Service) Holds() payments.HoldKind {
	return payments.HoldKind{Name: "guest place", Due: s.lapsedHolds, Release: s.expireHold}
}

func (s *Service) lapsedHolds(ctx context.Context, now time.Time) ([]payments.Held, error) {
	// System call site: the sweep runs for every venue and holds no
	// viewer; it reads the ids and venues of lapsed holds, then acts in each
	// venue's own transaction.
	due, err := s.client.GuestInvite.Query().
		Where(guestinvite.StatusEQ(guestinvite.StatusHeld), guestinvite.HoldExpiresAtLTE(now)).
		Limit(payments.SweepBatch).All(system.Allow(ctx, "guests.expired_holds"))
	if err != nil {
		return nil, err
	}
	held := make([]payments.Held, len(due))
	for i, inv := range due {
		held[i] = payments.Held{ID: inv.ID, Venue: inv.OrganizationID}
	}
	return held, nil
}

// expireHold ends the lapsed hold id under its class's and its own row
// locks, once, and gives its seat to the next guest waiting.
func (s *Service) expireHold(ctx context.Context, tx *ent.Tx, id uuid.UUID, now time.Time) (bool, error) {
	c := tx.Client()
	inv, err := c.GuestInvite.Get(ctx, id)
	if err != nil {
		return false, err
	}
	if _, err := lockClass(ctx, c, inv.ClassInstanceID); err != nil {
		return false, err
	}
	cur, err := c.GuestInvite.Query().Where(guestinvite.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return false, err
	}
	if cur.Status != guestinvite.StatusHeld || now.Before(cur.HoldExpiresAt) {
		return false, nil
	}
	if busy, err := payments.SubjectPaying(ctx, c, cur.ID); err != nil || busy {
		return false, err
	}
	if err := c.GuestInvite.UpdateOne(cur).SetStatus(guestinvite.StatusExpired).Exec(ctx); err != nil {
		return false, err
	}
	if err := payments.CancelSubjectIntents(ctx, c, cur.ID); err != nil {
		return false, err
	}
	return true, s.promote(ctx, c, cur.ClassInstanceID)
}

package payments

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/model"
)

// Holds of checkouts. A checkout that is not paid at once (the payment
// sheet, 3-D Secure, a declined first card) holds what it claimed: the
// offer's place, the member's credit it spent and, for a membership, the
// pass it will become (status pending: an unpaid membership reservation).
// The hold lasts HoldTTL from the checkout; resume-checkout extends it by
// HoldExtension a call, never past HoldCap after the checkout was made nor
// past the end of the offer it was bought from. A hold that lapses is given
// back by the sweep (abandon.go).
const (
	HoldTTL       = 15 * time.Minute
	HoldExtension = 3 * time.Minute
	HoldCap       = 60 * time.Minute
)

// Error codes of a reservation that cannot be resumed.
const (
	CodeOfferHoldExpired  = "OFFER_HOLD_EXPIRED"
	CodeOfferContactVenue = "OFFER_CONTACT_VENUE"
)

func holdExpired() *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodeOfferHoldExpired,
		Message: "the reservation lapsed; review the purchase again"}).With("next_step", "refresh")
}

func contactVenue(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusConflict, Code: CodeOfferContactVenue,
		Message: "this purchase cannot be completed online; contact the venue"}).
		With("reason", reason).With("next_step", "contact_venue")
}

// reserve gives a checkout just made in tx its hold and, for a membership,
// its pending pass (the unpaid reservation), carrying the flexible selection
// the checkout froze.
func (s *Service) reserve(ctx context.Context, tx *ent.Tx, co *ent.Checkout, pt *ent.PassType, offer *ent.FlashSale) (*ent.Checkout, error) {
	now := s.now()
	upd := tx.Checkout.UpdateOne(co).SetHoldExpiresAt(holdLimit(now.Add(HoldTTL), co, offer))
	if pt.IsRecurring {
		loc := venueLocation(ctx, tx.Client(), co.OrganizationID)
		local := now.In(loc)
		from := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, time.UTC)
		if co.StartsOn != nil {
			from = dateOnly(*co.StartsOn)
		}
		pc := tx.Pass.Create().SetMemberID(co.MemberID).SetPassTypeID(pt.ID).SetStatus(pass.StatusPending).
			SetValidFrom(from)
		if co.FlexibleKind != nil {
			pc.SetFlexibleKind(pass.FlexibleKind(*co.FlexibleKind))
			if co.FlexibleQuantity != nil {
				pc.SetFlexibleQuantity(*co.FlexibleQuantity)
			}
		}
		p, err := pc.Save(ctx)
		if err != nil {
			return nil, err
		}
		upd.SetPassID(p.ID)
	}
	return upd.Save(ctx)
}

// holdLimit is want, never past HoldCap after the checkout was made nor past
// the end of its offer.
func holdLimit(want time.Time, co *ent.Checkout, offer *ent.FlashSale) time.Time {
	if limit := co.CreatedAt.Add(HoldCap); want.After(limit) {
		want = limit
	}
	if offer != nil && want.After(offer.EndsAt) {
		want = offer.EndsAt
	}
	return want.UTC().Truncate(time.Second)
}

// venueLocation is the venue's time zone (UTC when unknown).
func venueLocation(ctx context.Context, c *ent.Client, org uuid.UUID) *time.Location {
	o, err := c.Organization.Query().Where(organization.ID(org)).Only(ctx)
	if err != nil {
		return time.UTC
	}
	loc, err := time.LoadLocation(o.Timezone)
	if err != nil {
		return time.UTC
	}
	return loc
}

// Resumed is a renewed reservation: the payment the member started (the
// same intent), the hold and what the checkout froze.
type Resumed struct {
	PassID       uuid.UUID
	Checkout     *ent.Checkout
	Status       string
	IntentID     string
	ClientSecret string
	AccountID    string
	// HoldExpiresAt is nil once the checkout is paid.
	HoldExpiresAt *time.Time
	Obligation    Obligation
	// Selection is the flexible membership's selection; nil for others.
	Selection *Selection
}

// ResumeCheckout renews the hold of the member's unpaid membership
// reservation passID (booking.AsMember) by HoldExtension and answers the
// payment its checkout started, read from Stripe (never a new one). A pass
// of another member, an unknown one or one no checkout reserved is 404; a
// lapsed hold 409 OFFER_HOLD_EXPIRED; a reservation that cannot be bought
// any more (the pass type is not sold, the offer is cancelled, ended or sold
// out) 409 OFFER_CONTACT_VENUE.
func (s *Service) ResumeCheckout(ctx context.Context, passID uuid.UUID) (*Resumed, error) {
	p, err := s.client.Pass.Query().Where(pass.ID(passID)).WithPassType().Only(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("pass")
	}
	if err != nil {
		return nil, fmt.Errorf("payments: pass: %w", err)
	}
	if p.Edges.PassType == nil || !p.Edges.PassType.IsRecurring {
		return nil, apperr.NotFound("membership reservation") // one-off passes are made paid, never reserved
	}
	co, err := s.client.Checkout.Query().Where(checkout.PassID(passID)).
		Order(ent.Desc(checkout.FieldCreatedAt)).First(ctx)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("reservation")
	}
	if err != nil {
		return nil, fmt.Errorf("payments: checkout: %w", err)
	}
	if co.Status != checkout.StatusPaid {
		if co, err = s.extendHold(ctx, co.ID); err != nil {
			return nil, err
		}
	}
	out := &Resumed{PassID: p.ID, Checkout: co, Status: StatusPaid}
	if co.Status != checkout.StatusPaid {
		if err := s.resumePayment(ctx, co, out); err != nil {
			return nil, err
		}
		if co, err = s.client.Checkout.Get(ctx, co.ID); err != nil {
			return nil, fmt.Errorf("payments: checkout: %w", err)
		}
		out.Checkout = co
	}
	if co.Status == checkout.StatusPaid {
		out.Status, out.ClientSecret = StatusPaid, ""
	} else {
		out.HoldExpiresAt = co.HoldExpiresAt
	}
	if out.IntentID == "" && co.PaymentIntentID != nil && co.Status == checkout.StatusPaid {
		out.IntentID = *co.PaymentIntentID
	}
	if vp, _ := s.venuePayments(ctx); vp != nil && vp.AccountID != nil {
		out.AccountID = *vp.AccountID
	}
	out.Obligation, out.Selection = frozenObligation(ctx, s.client, co, p.Edges.PassType)
	return out, nil
}

// extendHold renews the hold of open checkout id under its row lock, after
// checking that it can still be bought.
func (s *Service) extendHold(ctx context.Context, id uuid.UUID) (*ent.Checkout, error) {
	var co *ent.Checkout
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		var err error
		co, err = tx.Checkout.Query().Where(checkout.ID(id)).ForUpdate().Only(ctx)
		if err != nil {
			return err
		}
		if co.Status == checkout.StatusPaid {
			return nil
		}
		offer, err := s.stillSold(ctx, tx, co)
		if err != nil {
			return err
		}
		now := s.now()
		if co.Status != checkout.StatusOpen || co.HoldExpiresAt == nil || !now.Before(*co.HoldExpiresAt) {
			return holdExpired()
		}
		co, err = tx.Checkout.UpdateOne(co).
			SetHoldExpiresAt(holdLimit(co.HoldExpiresAt.Add(HoldExtension), co, offer)).Save(ctx)
		return err
	})
	return co, err
}

// stillSold says why co cannot be bought again, whether its hold lapsed or
// not: the pass type is no longer sold, or its offer is cancelled, ended or
// (once the checkout gave its place back) sold out. It returns the offer.
func (s *Service) stillSold(ctx context.Context, tx *ent.Tx, co *ent.Checkout) (*ent.FlashSale, error) {
	ok, err := tx.PassType.Query().Where(passtype.ID(co.PassTypeID), passtype.Active(true)).Exist(ctx)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, contactVenue("pass_type_unavailable")
	}
	if co.FlashSaleID == nil {
		return nil, nil
	}
	fs, err := tx.FlashSale.Query().Where(flashsale.ID(*co.FlashSaleID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, contactVenue("offer_unavailable")
	}
	if err != nil {
		return nil, err
	}
	released := co.ReleasedAt != nil
	switch {
	case fs.CancelledAt != nil:
		return nil, contactVenue("offer_cancelled")
	case !s.now().Before(fs.EndsAt):
		return nil, contactVenue("offer_ended")
	case released && fs.CapacityMax != nil && fs.ClaimedCount >= *fs.CapacityMax:
		return nil, contactVenue("offer_sold_out")
	}
	return fs, nil
}

// resumePayment fills out with the payment the checkout started: its live
// attempt's intent (or a free start's setup intent) read from Stripe and
// applied. None live (the last card was declined) answers
// requires_payment_method with no intent.
func (s *Service) resumePayment(ctx context.Context, co *ent.Checkout, out *Resumed) error {
	out.Status = StatusRequiresPaymentMethod
	at, err := s.client.PaymentAttempt.Query().
		Where(paymentattempt.LiveSubjectID(co.ID)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("payments: live attempt: %w", err)
	}
	switch {
	case at.State == paymentattempt.StateUnknown:
		return unknownOutcome()
	case at.ProcessorObjectID == nil: // created or in flight: its request is still running
		return paymentPending()
	}
	vp, err := s.chargeable(ctx)
	if err != nil {
		return err
	}
	if at.Purpose == paymentattempt.PurposeCheckoutSetup {
		si, err := s.port.GetSetupIntent(ctx, *vp.AccountID, *at.ProcessorObjectID)
		if err != nil {
			return unknownOutcome()
		}
		status, err := s.applySetup(ctx, at.ID, si)
		if err != nil {
			return err
		}
		out.Status, out.ClientSecret = resumeStatus(status), si.ClientSecret
		return nil
	}
	in, err := s.port.GetPaymentIntent(ctx, *vp.AccountID, *at.ProcessorObjectID)
	if err != nil {
		return unknownOutcome()
	}
	status, err := s.applyIntent(ctx, at.ID, in)
	if err != nil {
		return err
	}
	out.Status = resumeStatus(status)
	if out.Status != StatusRequiresPaymentMethod || status == StatusRequiresPaymentMethod {
		out.IntentID, out.ClientSecret = in.ID, in.ClientSecret
	}
	return nil
}

// resumeStatus maps what applying Stripe's answer said to the statuses
// resume answers: a failed or canceled intent leaves nothing to finish.
func resumeStatus(st string) string {
	switch st {
	case StatusPaid, StatusRequiresAction, StatusProcessing, StatusRequiresPaymentMethod, "requires_confirmation":
		return st
	}
	return StatusRequiresPaymentMethod
}

// frozenObligation is the purchase obligation of what co froze (today's
// price, the offer's intro end, the binding tier), dated from the
// venue-local day the checkout was made, and the flexible selection bought.
func frozenObligation(ctx context.Context, c *ent.Client, co *ent.Checkout, pt *ent.PassType) (Obligation, *Selection) {
	local := co.CreatedAt.In(venueLocation(ctx, c, co.OrganizationID))
	pr := &Pricing{ListMinor: co.AmountMinor + co.CreditAppliedMinor, FullPriceMinor: pt.PriceMinor,
		Currency: co.Currency, IntroThrough: co.IntroThrough,
		Today: time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, time.UTC)}
	var sel *Selection
	if co.FlexibleKind != nil {
		sel = &Selection{Unlimited: *co.FlexibleKind == checkout.FlexibleKindUnlimited}
		if co.FlexibleQuantity != nil {
			sel.Quantity = *co.FlexibleQuantity
		}
		if p, ok := FlexiblePrice(pt.FlexiblePricingConfig, *sel, pt.Currency); ok {
			pr.FullPriceMinor = p
		}
	}
	if co.BindingMonths != nil {
		pr.BindingMonths = *co.BindingMonths
		if i := slices.IndexFunc(pt.BindingTiers, func(t model.BindingTier) bool { return t.Months == pr.BindingMonths }); i >= 0 {
			pr.FullPriceMinor = pt.BindingTiers[i].PriceMinor
		}
	}
	return ObligationOf(pt, pr), sel
}

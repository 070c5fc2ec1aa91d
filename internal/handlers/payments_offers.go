package handlers

import (
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
)

// obligationOut is a preview's purchase obligation (contract: purchase
// obligation): what today's payment and any binding tier commit the member to.
func obligationOut(pv *payments.Preview) api.PurchaseObligation {
	o := pv.Obligation
	out := api.PurchaseObligation{Status: api.PurchaseObligationStatusAvailable,
		MinimumTotalPayable: api.NewOptInt64(o.MinimumTotalMinor),
		IntroThroughDate:    optNilDate(o.IntroThrough)}
	c := api.ObligationCancellation{Kind: api.ObligationCancellationKind(o.CancellationKind)}
	if o.CancellationCond != "" {
		c.Condition = api.NewNilString(o.CancellationCond)
		// Members end a membership themselves (POST /me/passes/{id}/cancel).
		c.RequestMethod = api.NewNilObligationCancellationRequestMethod(api.ObligationCancellationRequestMethodInApp)
	} else {
		c.Condition.SetToNull()
		c.RequestMethod.SetToNull()
	}
	if o.EarliestPossibleEnd != nil {
		c.EarliestPossibleEndOn = api.NewNilDate(*o.EarliestPossibleEnd)
	} else {
		c.EarliestPossibleEndOn.SetToNull()
	}
	out.Cancellation = api.NewOptObligationCancellation(c)
	if o.CommitmentEndsOn != nil && o.FirstFullPriceDate != nil {
		cm := api.ObligationCommitment{Currency: pv.Quote.Currency, FirstFullPriceDate: *o.FirstFullPriceDate,
			FullPriceAmountMinor: o.FullPriceMinor, MinimumFullPriceCycles: o.MinimumFullCycles,
			CommitmentEndsOn: *o.CommitmentEndsOn}
		if o.IntroThrough != nil {
			cm.IntroThroughDate = api.NewNilDate(*o.IntroThrough)
		} else {
			cm.IntroThroughDate.SetToNull()
		}
		out.Commitment = api.NewOptNilObligationCommitment(cm)
	} else {
		out.Commitment.SetToNull()
	}
	return out
}

// frozenOut is what a checkout froze when it was made.
func frozenOut(co *ent.Checkout) api.FrozenCheckout {
	out := api.FrozenCheckout{ChargedTodayMinor: co.AmountMinor, Currency: co.Currency,
		VatMinor: co.VatMinor, VatRateBp: co.VatRateBp, VatExempt: api.NewOptBool(co.VatExempt),
		CreditAppliedMinor: api.NewOptInt64(co.CreditAppliedMinor),
		FlashSaleID:        optNilUUID(co.FlashSaleID), IntroThroughDate: optNilDate(co.IntroThrough)}
	if co.BindingMonths != nil {
		out.BindingMonths = api.NewOptNilInt(*co.BindingMonths)
	} else {
		out.BindingMonths.SetToNull()
	}
	out.StartDate = optNilDate(co.StartsOn)
	return out
}

// nilDateOf is a nullable date's day, or nil.
func nilDateOf(o api.OptNilDate) *time.Time {
	if v, ok := o.Get(); ok {
		d := time.Date(v.Year(), v.Month(), v.Day(), 0, 0, 0, 0, time.UTC)
		return &d
	}
	return nil
}

func optNilDate(t *time.Time) api.OptNilDate {
	var o api.OptNilDate
	if t == nil {
		o.SetToNull()
		return o
	}
	return api.NewOptNilDate(*t)
}

// optNilUUID is id, or null.
func optNilUUID(id *uuid.UUID) api.OptNilUUID {
	var o api.OptNilUUID
	if id == nil {
		o.SetToNull()
		return o
	}
	return api.NewOptNilUUID(*id)
}

// uuidOf is the id of a nullable UUID, or nil.
func uuidOf(o api.OptNilUUID) *uuid.UUID {
	if v, ok := o.Get(); ok {
		return &v
	}
	return nil
}

package payments

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/membercredit"
	"github.com/venueplatform/venue/ent/organization"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/promos"
	"github.com/venueplatform/venue/internal/system"
)

// Pricing is what a checkout of a pass type charges the member today and
// binds them to after, computed alike by the preview and, again, by the
// purchase that verifies the quote (so a quote priced from anything that has
// changed since is QUOTE_STALE).
type Pricing struct {
	// NormalMinor is the pass type's own price (one billing period of a
	// membership), before any offer, tier or credit.
	NormalMinor int64
	// ListMinor is the price of what is sold today: the offer's intro price,
	// the binding tier's period price or the normal price.
	ListMinor int64
	// CreditBalanceMinor is the member's credit in the currency; the credit
	// applied is the smaller of it and ListMinor.
	CreditBalanceMinor int64
	CreditAppliedMinor int64
	// PayableMinor is what the card is charged: ListMinor less the credit.
	PayableMinor int64
	Currency     string
	// Offer is the flash sale priced, or nil.
	Offer *ent.FlashSale
	// Promo is the promo code applied to ListMinor (package promos), or nil.
	Promo *promos.Applied
	// IntroThrough is the last day the offer's intro price pays for
	// (recurring offers); nil otherwise.
	IntroThrough *time.Time
	// BindingMonths is the binding tier sold (0: none); FullPriceMinor is
	// what each billing period costs after today's payment (the tier's or
	// the pass type's price).
	BindingMonths  int
	FullPriceMinor int64
	// VATExempt says the member is under the venue's VAT age threshold on
	// the venue-local sale date: the sale carries no VAT.
	VATExempt bool
	RateBP    int
	VATMinor  int64
	// Today is the venue-local sale date.
	Today time.Time
	// StartDate is the day the pass starts (its validity, a membership's
	// first period and binding count from it): the chosen start date, or
	// Today. StartChosen is the chosen one, nil without (startdate.go).
	StartDate   time.Time
	StartChosen *time.Time
	// memberID is the member priced (uuid.Nil: none), for promo limits.
	memberID uuid.UUID
	// Selection is a flexible membership's selection sold (flexquote.go).
	Selection *Selection
}

// pricingInput names what a checkout is priced from.
type pricingInput struct {
	userID        uuid.UUID
	flashSaleID   *uuid.UUID
	bindingMonths int
	rateBP        int
	// promoCode (a member's typing) or promoCodeID (a quote's) names a
	// promo code; not with an offer.
	promoCode   string
	promoCodeID *uuid.UUID
	// offerHeld says the quote's checkout already holds a place of the
	// offer (a retry of its purchase): a full offer still sells to it.
	offerHeld bool
	// startDate is the chosen start date (a preview's or a quote's), nil:
	// today; checkStart says it is a new choice, checked against today.
	startDate  *time.Time
	checkStart bool
}

// price computes a checkout's pricing for the member in ctx's venue. An
// unavailable offer is 422 FLASH_SALE_UNAVAILABLE (never the normal price);
// a binding tier the pass type does not sell is 422 VALIDATION_FAILED.
func (s *Service) price(ctx context.Context, pt *ent.PassType, in pricingInput) (*Pricing, error) {
	org, err := s.client.Organization.Query().Where(organization.ID(pt.OrganizationID)).Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("payments: venue: %w", err)
	}
	loc, err := time.LoadLocation(org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	local := s.now().In(loc)
	today := time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, time.UTC)
	if in.checkStart {
		if err := checkStartDate(today, in.startDate); err != nil {
			return nil, err
		}
	}
	p := &Pricing{NormalMinor: pt.PriceMinor, ListMinor: pt.PriceMinor, FullPriceMinor: pt.PriceMinor,
		Currency: strings.ToUpper(pt.Currency), RateBP: in.rateBP, Today: today,
		StartDate: startOf(today, in.startDate), StartChosen: in.startDate}
	if in.bindingMonths != 0 {
		i := slices.IndexFunc(pt.BindingTiers, func(t model.BindingTier) bool { return t.Months == in.bindingMonths })
		if !pt.IsRecurring || i < 0 {
			return nil, bindingUnavailable(in.bindingMonths)
		}
		p.BindingMonths = in.bindingMonths
		p.ListMinor, p.FullPriceMinor = pt.BindingTiers[i].PriceMinor, pt.BindingTiers[i].PriceMinor
	}
	if in.flashSaleID != nil {
		if err := s.priceOffer(ctx, pt, *in.flashSaleID, in.offerHeld, p); err != nil {
			return nil, err
		}
	}
	memberID := uuid.Nil
	if in.userID != uuid.Nil {
		m, err := s.client.Member.Query().Where(member.UserID(in.userID)).Only(ctx)
		if err != nil {
			return nil, fmt.Errorf("payments: member: %w", err)
		}
		memberID = m.ID
		p.VATExempt = ageExempt(org, m, today)
		if p.CreditBalanceMinor, err = creditBalance(ctx, s.client, m.ID, p.Currency); err != nil {
			return nil, err
		}
	}
	p.memberID = memberID
	if err := s.priceMember(ctx, pt, memberID, p); err != nil { // memberprice.go: loyalty prices
		return nil, err
	}
	if err := s.pricePromo(ctx, pt, in, memberID, p); err != nil { // promo.go
		return nil, err
	}
	if p.VATExempt {
		p.RateBP = 0
	}
	p.CreditAppliedMinor = min(max(p.CreditBalanceMinor, 0), p.ListMinor)
	p.PayableMinor = p.ListMinor - p.CreditAppliedMinor
	p.VATMinor = VATShare(p.ListMinor, p.RateBP)
	return p, nil
}

// priceOffer prices flash sale id for pt into p, or says why it cannot be
// bought: cancelled, not started, ended, sold out, not for this pass type,
// another currency or product family, or a rule this checkout cannot sell.
func (s *Service) priceOffer(ctx context.Context, pt *ent.PassType, id uuid.UUID, held bool, p *Pricing) error {
	fs, err := s.client.FlashSale.Query().Where(flashsale.ID(id)).
		WithApplicablePassTypes(func(q *ent.PassTypeQuery) { q.Where(passtype.ID(pt.ID)) }).Only(ctx)
	if ent.IsNotFound(err) {
		return offerUnavailable("not_found")
	}
	if err != nil {
		return fmt.Errorf("payments: flash sale: %w", err)
	}
	now := s.now()
	r := fs.CommercialRule
	switch {
	case fs.CancelledAt != nil:
		return offerUnavailable("cancelled")
	case now.Before(fs.StartsAt):
		return offerUnavailable("not_started")
	case !now.Before(fs.EndsAt):
		return offerUnavailable("ended")
	case fs.CapacityMax != nil && fs.ClaimedCount >= *fs.CapacityMax && !held:
		return offerUnavailable("sold_out")
	case len(fs.Edges.ApplicablePassTypes) == 0:
		return offerUnavailable("pass_type_not_included")
	case (fs.ProductFamily == flashsale.ProductFamilyRecurring) != pt.IsRecurring:
		return offerUnavailable("product_family_mismatch")
	case !strings.EqualFold(r.Currency, pt.Currency):
		return offerUnavailable("currency_mismatch")
	case r.Version != 2 || r.Kind != "introductory_price" || r.Pricing.Mode != "shared" || r.Pricing.Price < 0 ||
		(r.VatMode != "" && r.VatMode != "included"):
		return offerUnavailable("rule_unsupported")
	case p.BindingMonths != 0:
		return offerUnavailable("binding_not_combinable")
	}
	p.Offer = fs
	p.ListMinor = money.ToMinor(r.Pricing.Price, p.Currency)
	if pt.IsRecurring {
		end, err := time.Parse(time.DateOnly, r.Duration.EndsAt)
		if r.Duration.Mode != "until_date" || err != nil {
			return offerUnavailable("rule_unsupported")
		}
		if end.Before(p.StartDate) {
			return offerUnavailable("intro_over")
		}
		p.IntroThrough = &end
	}
	return nil
}

// ageExempt says whether the member is younger than the venue's VAT age
// threshold on the venue-local sale date. Without a threshold or a recorded
// birth date the sale carries VAT.
func ageExempt(org *ent.Organization, m *ent.Member, today time.Time) bool {
	if org.VatExemptAgeThreshold == nil || m.BirthDate == nil {
		return false
	}
	return AgeOn(*m.BirthDate, today) < *org.VatExemptAgeThreshold
}

// AgeOn is the age in whole years of someone born on birth, on day (a
// person born on 29 February turns a year older on 1 March in common years).
func AgeOn(birth, day time.Time) int {
	age := day.Year() - birth.Year()
	if day.Month() < birth.Month() || (day.Month() == birth.Month() && day.Day() < birth.Day()) {
		age--
	}
	return age
}

// creditBalance is the member's credit in currency: the sum of its movements.
func creditBalance(ctx context.Context, client *ent.Client, memberID uuid.UUID, currency string) (int64, error) {
	var rows []struct {
		Sum int64 `json:"sum"`
	}
	err := client.MemberCredit.Query().
		Where(membercredit.MemberID(memberID), membercredit.Currency(currency)).
		Aggregate(ent.As(ent.Sum(membercredit.FieldAmountMinor), "sum")).Scan(ctx, &rows)
	if err != nil {
		return 0, fmt.Errorf("payments: credit balance: %w", err)
	}
	if len(rows) == 0 {
		return 0, nil
	}
	return rows[0].Sum, nil
}

// pricingAuthority digests what p was computed from: the pass type (price,
// currency, last change), the VAT rate and exemption, the credit balance and
// what was applied, the offer (its rule and last change) and the binding
// tier. A purchase whose recomputed digest differs is QUOTE_STALE.
func pricingAuthority(pt *ent.PassType, p *Pricing) string {
	parts := []string{
		pt.ID.String(), strconv.FormatInt(pt.PriceMinor, 10), strings.ToUpper(pt.Currency),
		pt.UpdatedAt.UTC().Format(time.RFC3339Nano), strconv.Itoa(p.RateBP), strconv.FormatBool(p.VATExempt),
		strconv.FormatInt(p.CreditBalanceMinor, 10), strconv.FormatInt(p.CreditAppliedMinor, 10),
		strconv.Itoa(p.BindingMonths), strconv.FormatInt(p.ListMinor, 10), strconv.FormatInt(p.FullPriceMinor, 10),
	}
	if p.Offer != nil {
		parts = append(parts, p.Offer.ID.String(), p.Offer.UpdatedAt.UTC().Format(time.RFC3339Nano))
	}
	if p.Promo != nil {
		parts = append(parts, "promo", p.Promo.Code.ID.String(), strconv.FormatInt(p.Promo.DiscountMinor, 10))
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "|")))
	return "pa2_" + base64.RawURLEncoding.EncodeToString(sum[:16])
}

// Obligation is what a purchase binds the member to (contract: purchase
// obligation), derived from the pricing and the pass type.
type Obligation struct {
	IntroThrough        *time.Time
	MinimumTotalMinor   int64
	FirstFullPriceDate  *time.Time
	FullPriceMinor      int64
	MinimumFullCycles   int
	CommitmentEndsOn    *time.Time
	CancellationKind    string // none, end_of_period, after_commitment
	CancellationCond    string
	EarliestPossibleEnd *time.Time
}

// ObligationOf is the purchase obligation of p for pt. A one-off pass binds
// to nothing beyond today's payment. A membership's first payment pays one
// billing period (or the offer's intro period through IntroThrough); a
// binding tier adds the full-price periods until the binding ends; without
// one the member may end at the end of the paid period.
func ObligationOf(pt *ent.PassType, p *Pricing) Obligation {
	o := Obligation{MinimumTotalMinor: p.ListMinor, FullPriceMinor: p.FullPriceMinor, CancellationKind: "none"}
	if !pt.IsRecurring {
		return o
	}
	paidThrough, ok := firstPeriodEnd(pt, p.StartDate)
	if p.IntroThrough != nil {
		paidThrough, ok = *p.IntroThrough, true
	}
	if !ok {
		return o
	}
	first := paidThrough
	if p.IntroThrough != nil {
		first = p.IntroThrough.AddDate(0, 0, 1)
	}
	o.IntroThrough, o.FirstFullPriceDate = p.IntroThrough, &first
	o.CancellationKind, o.CancellationCond = "end_of_period", "cancel_before_next_billing_date"
	end := paidThrough
	if p.BindingMonths > 0 {
		bindEnd := p.StartDate.AddDate(0, p.BindingMonths, 0)
		// Full-price periods from today's paid period to the binding's end.
		for d := paidThrough; d.Before(bindEnd); {
			o.MinimumFullCycles++
			next, _ := firstPeriodEnd(pt, d)
			if !next.After(d) {
				break
			}
			d = next
			end = d
		}
		if end.Before(bindEnd) {
			end = bindEnd
		}
		o.CancellationKind, o.CancellationCond = "after_commitment", "binding_period_served"
	}
	// The member's own cancel (POST /me/passes/{id}/cancel) is accepted at
	// any time, inside a binding too: the membership then ends on the
	// binding's end (its last renewal is not charged), else at the end of
	// the period paid. Either way the earliest end is the commitment's end.
	o.CommitmentEndsOn, o.EarliestPossibleEnd = &end, &end
	o.MinimumTotalMinor = p.ListMinor + int64(o.MinimumFullCycles)*p.FullPriceMinor
	return o
}

func offerUnavailable(reason string) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: CodeFlashSaleUnavai,
		Message: "the offer is not available"}).With("reason", reason).With("next_step", nil)
}

func bindingUnavailable(months int) *apperr.Error {
	return (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: "VALIDATION_FAILED",
		Message: "the pass type has no binding tier of that many months"}).
		With("field", "binding_months").With("reason", "binding_tier_unavailable").With("binding_months", months).
		With("next_step", nil)
}

// createCheckout makes the checkout of quote q priced pr, in tx: the frozen
// amounts, the offer's place claimed (at most its capacity, under
// concurrency) and the member's credit spent (never below zero under
// concurrency: the member's credit lock, then the balance read again).
func createCheckout(ctx context.Context, tx *ent.Tx, memberID uuid.UUID, pt *ent.PassType, pr *Pricing, vp *ent.VenuePayments, q Quote) (*ent.Checkout, error) {
	feeBP := 0
	if vp != nil {
		feeBP = vp.ApplicationFeeBp
	}
	c := tx.Checkout.Create().
		SetMemberID(memberID).SetPassTypeID(pt.ID).
		SetAmountMinor(q.PayableMinor).SetCurrency(q.Currency).
		SetVatMinor(pr.VATMinor).SetVatRateBp(pr.RateBP).SetVatExempt(pr.VATExempt).
		SetApplicationFeeMinor(FeeShare(q.PayableMinor, feeBP)).
		SetCreditAppliedMinor(pr.CreditAppliedMinor).
		SetQuoteFingerprint(q.Fingerprint).SetQuoteIssuedAt(q.IssuedAt)
	if pr.Offer != nil {
		if err := claimOfferPlace(ctx, tx, pr.Offer); err != nil {
			return nil, err
		}
		c.SetFlashSaleID(pr.Offer.ID)
	}
	if pr.IntroThrough != nil {
		c.SetIntroThrough(*pr.IntroThrough)
	}
	if pr.BindingMonths > 0 {
		c.SetBindingMonths(pr.BindingMonths)
	}
	if pr.StartChosen != nil {
		c.SetStartsOn(*pr.StartChosen)
	}
	if sel := pr.Selection; sel != nil {
		c.SetFlexibleKind(checkout.FlexibleKind(sel.Kind()))
		if !sel.Unlimited {
			c.SetFlexibleQuantity(sel.Quantity)
		}
	}
	co, err := c.Save(ctx)
	if err != nil {
		return nil, err
	}
	if pr.CreditAppliedMinor > 0 {
		if err := spendCredit(ctx, tx, memberID, co, pr); err != nil {
			return nil, err
		}
	}
	if pr.Promo != nil { // the code's use, held by the checkout until its payment (promo.go)
		if err := promos.Claim(ctx, tx, pr.Promo, memberID, co.ID, co.Currency, false, "", co.CreatedAt); err != nil {
			return nil, err
		}
	}
	return co, nil
}

// claimOfferPlace takes one place of the offer: one statement that adds to
// claimed_count only while the offer is live and below its capacity, so two
// purchases of the last place cannot both take it.
func claimOfferPlace(ctx context.Context, tx *ent.Tx, fs *ent.FlashSale) error {
	rows, err := tx.Client().QueryContext(system.RawSQL(ctx, "payments.offer_claim"),
		`UPDATE flash_sales SET claimed_count = claimed_count + 1
		  WHERE id = $1 AND organization_id = $2 AND cancelled_at IS NULL AND ends_at > now()
		    AND (capacity_max IS NULL OR claimed_count < capacity_max)
		RETURNING claimed_count`, fs.ID, fs.OrganizationID)
	if err != nil {
		return fmt.Errorf("payments: claim offer: %w", err)
	}
	defer rows.Close()
	claimed := rows.Next()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("payments: claim offer: %w", err)
	}
	if !claimed {
		return offerUnavailable("sold_out")
	}
	return nil
}

// spendCredit records the checkout's spend of the member's credit under the
// member's credit lock. A balance that changed since the quote is
// QUOTE_STALE (the contract: a changed credit balance needs a new review).
func spendCredit(ctx context.Context, tx *ent.Tx, memberID uuid.UUID, co *ent.Checkout, pr *Pricing) error {
	rows, err := tx.Client().QueryContext(system.RawSQL(ctx, "payments.credit_lock"),
		`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, "payments-credit:"+memberID.String())
	if err != nil {
		return fmt.Errorf("payments: credit lock: %w", err)
	}
	for rows.Next() {
	}
	rows.Close()
	bal, err := creditBalance(ctx, tx.Client(), memberID, co.Currency)
	if err != nil {
		return err
	}
	if bal != pr.CreditBalanceMinor || bal < pr.CreditAppliedMinor {
		return quoteStale("credit_changed")
	}
	return tx.MemberCredit.Create().SetMemberID(memberID).SetAmountMinor(-pr.CreditAppliedMinor).
		SetCurrency(co.Currency).SetSource(membercredit.SourceCheckout).SetCheckoutID(co.ID).Exec(ctx)
}

// purchaseWithoutCard buys a one-off pass whose quote charges the card
// nothing (credit covers it, or it is free): the checkout, the credit spent
// and the activation in one transaction, no Stripe call.
func (s *Service) purchaseWithoutCard(ctx context.Context, memberID uuid.UUID, pt *ent.PassType, pr *Pricing, p PurchaseParams) (*PurchaseResult, error) {
	vp, err := s.venuePayments(ctx)
	if err != nil {
		return nil, err
	}
	var co *ent.Checkout
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		co, err = tx.Checkout.Query().
			Where(checkout.MemberID(memberID), checkout.QuoteFingerprint(p.Quote.Fingerprint)).
			ForUpdate().Only(ctx)
		switch {
		case ent.IsNotFound(err):
			if co, err = createCheckout(ctx, tx, memberID, pt, pr, vp, p.Quote); err != nil {
				return err
			}
		case err != nil:
			return err
		case co.Status == checkout.StatusPaid:
			if p.RequestKey != "" && co.RequestKey != nil && *co.RequestKey == p.RequestKey {
				return nil
			}
			return alreadyPaid()
		}
		if p.RequestKey != "" {
			if co, err = tx.Checkout.UpdateOne(co).SetRequestKey(p.RequestKey).Save(ctx); err != nil {
				return err
			}
		}
		co, err = activate(ctx, tx, co, "", s.now())
		return err
	})
	if ent.IsConstraintError(err) {
		return nil, alreadyPaid()
	}
	if err != nil {
		return nil, err
	}
	out := &PurchaseResult{Checkout: co, Status: StatusPaid}
	if vp != nil && vp.AccountID != nil {
		out.AccountID = *vp.AccountID
	}
	return out, nil
}

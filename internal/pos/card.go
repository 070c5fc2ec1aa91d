package pos

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/checkout"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/paymentattempt"
	"github.com/venueplatform/venue/ent/poscardsale"
	"github.com/venueplatform/venue/ent/possale"
	"github.com/venueplatform/venue/ent/product"
	"github.com/venueplatform/venue/ent/stockmovement"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/promos"
	"github.com/venueplatform/venue/internal/system"
)

// Card payments at the desk, without a terminal: a member's saved card
// charged off-session, or a payment link the member pays on their own
// device. The sale waits as a PosCardSale (the payment subject of purpose
// pos_sale_charge) with its products taken from stock; the money settles it
// once, by the charge's answer, the desk's confirm, the inbound event or
// reconcile, whichever comes first, into the PosSale of the same id.

// The card payment methods of a desk sale.
const (
	MethodCard        = "card"
	MethodPaymentLink = "payment_link"
)

// PurposeSale is the payment attempt purpose of a desk sale's card charge.
const PurposeSale = paymentattempt.PurposePosSaleCharge

// CardHold is how long a card sale waiting for its money holds its stock
// (a payment link open, a card asking for authentication).
const CardHold = 30 * time.Minute

// Error codes of card sales (contract: staff desk charge).
const (
	CodeRequiresAction = "CHARGE_REQUIRES_ACTION"
	CodeDeclined       = "CHARGE_DECLINED"
	CodeCardNotFound   = "PAYMENT_METHOD_NOT_FOUND"
)

func init() { payments.RegisterSubject(PurposeSale, cardSubject{}) }

// CardSale is a desk sale paid by card: Sale once completed; while it waits,
// the pending row and, for a payment link, where the member pays.
type CardSale struct {
	Row    *ent.PosCardSale
	Sale   *ent.PosSale
	Charge *payments.ChargeResult
	// URL is the payment link: the return base URL with the sale in the
	// query and the intent's client secret in the fragment.
	URL string
}

// Completed reports whether the money arrived and the sale is recorded.
func (c *CardSale) Completed() bool { return c.Sale != nil }

// SellByCard sells p's cart paid by card (p.Method card: p.PaymentMethodID,
// a saved card of the member, charged off-session; payment_link: the answer
// carries the link). The quote is the preview's function; a total other than
// p.ExpectedTotalMinor is 409 BALANCE_CHANGED before anything is written.
// Refusals of the charge release the stock and record nothing sold: 402
// CHARGE_DECLINED, 402 CHARGE_REQUIRES_ACTION (details.desk_action); an
// unknown outcome is 409 UNKNOWN_WRITE_OUTCOME and the sale waits for
// reconcile.
func (s *Service) SellByCard(ctx context.Context, pay *payments.Service, p SaleParams) (*CardSale, error) {
	u, err := Staff(ctx, false, PermSell)
	if err != nil {
		return nil, err
	}
	switch p.Method {
	case MethodCard:
		if p.PaymentMethodID == "" {
			return nil, apperr.Validation("payment_method_id", "required to charge a saved card")
		}
		if p.MemberID == uuid.Nil {
			return nil, apperr.Validation("member_id", "a saved card is a member's")
		}
	case MethodPaymentLink:
		if err := checkReturnURL(p.ReturnBaseURL); err != nil {
			return nil, err
		}
	default:
		return nil, apperr.Validation("method", "card or payment_link")
	}
	if p.GiftCardCode != "" {
		return nil, apperr.Validation("gift_card_code", "only a gift card payment names a code")
	}
	if err := p.Exception.check(p.Cart.FlashSaleID, p.Cart.PromoCode); err != nil {
		return nil, err
	}
	p.Cart.MemberID = p.MemberID
	if prev, err := s.client.PosCardSale.Query().Where(poscardsale.SoldByUserID(u.UserID), poscardsale.RequestKey(p.RequestKey)).Only(ctx); err == nil {
		return s.cardSaleOf(ctx, pay, prev)
	} else if !ent.IsNotFound(err) {
		return nil, err
	}
	vp, err := pay.Chargeable(ctx)
	if err != nil {
		return nil, err
	}
	if p.MemberID != uuid.Nil {
		if n, err := s.client.Member.Query().Where(member.ID(p.MemberID)).Count(ctx); err != nil {
			return nil, err
		} else if n == 0 {
			return nil, apperr.NotFound("member")
		}
	}
	if p.Method == MethodCard {
		cards, err := pay.Cards(ctx, p.MemberID)
		if err != nil {
			return nil, err
		}
		found := false
		for _, c := range cards {
			found = found || c.ID == p.PaymentMethodID
		}
		if !found {
			return nil, &apperr.Error{Status: http.StatusNotFound, Code: CodeCardNotFound, Message: "the member has no such saved card"}
		}
	}
	now := s.now()
	p.Cart.at = now
	id := uuid.New()
	var row *ent.PosCardSale
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		q, err := quote(ctx, tx.Client(), p.Cart)
		if err != nil {
			return err
		}
		if err := holdToPreview(q, p.ExpectedTotalMinor, p.ProductQuote); err != nil {
			return err
		}
		if q.TotalMinor <= 0 {
			return apperr.Validation("method", "a sale of nothing to pay is paid in cash")
		}
		day, _, err := venueDay(ctx, tx.Client(), now)
		if err != nil {
			return err
		}
		c := tx.PosCardSale.Create().SetID(id).SetRequestKey(p.RequestKey).SetKind(poscardsale.Kind(q.Kind)).
			SetMethod(poscardsale.Method(p.Method)).SetMembership(p.membership).SetCurrency(q.Currency).
			SetSubtotalMinor(q.SubtotalMinor).SetDiscountMinor(q.DiscountMinor).SetVatMinor(q.VATMinor).
			SetVatRateBp(q.VATRateBP).SetTotalMinor(q.TotalMinor).SetLines(q.Lines).SetSoldByUserID(u.UserID).
			SetBusinessDate(day).SetHoldExpiresAt(now.Add(CardHold)).SetReturnBaseURL(p.ReturnBaseURL)
		if p.MemberID != uuid.Nil {
			c.SetMemberID(p.MemberID)
		}
		if p.PaymentMethodID != "" {
			c.SetPaymentMethodID(p.PaymentMethodID)
		}
		if p.Exception != nil {
			c.SetPromoExceptionKind(p.Exception.Kind).SetPromoExceptionReason(p.Exception.Reason)
		}
		switch q.Kind {
		case KindProducts:
			if err := takeStock(ctx, tx, q, id, u.UserID); err != nil {
				return err
			}
			if err := claimPromo(ctx, tx, q, p.MemberID, id, p.Exception, now); err != nil {
				return err
			}
		case KindPass:
			if p.MemberID == uuid.Nil {
				return apperr.Validation("member_id", "a pass is sold to a member")
			}
			co, err := deskCheckout(ctx, tx, id, p.MemberID, q, vp.ApplicationFeeBp, now)
			if err != nil {
				return err
			}
			if err := claimPromo(ctx, tx, q, p.MemberID, co.ID, p.Exception, now); err != nil {
				return err
			}
			if err := claimOfferPlace(ctx, tx, q); err != nil { // held while the payment is under way
				return err
			}
			c.SetPassTypeID(q.PassType.ID).SetCheckoutID(co.ID)
		}
		row, err = c.Save(ctx)
		return err
	})
	if err != nil {
		return nil, err
	}
	cp := payments.ChargeParams{Purpose: PurposeSale, SubjectID: id}
	recurring := row.Kind == poscardsale.KindPass && s.recurring(ctx, *row.PassTypeID)
	if p.Method == MethodCard || recurring {
		pc, err := pay.Customer(ctx, vp, p.MemberID, recurring)
		if err != nil {
			return nil, s.abandon(ctx, id, err)
		}
		if pc != nil {
			cp.CustomerID = pc.CustomerID
		}
	}
	if p.Method == MethodCard {
		cp.PaymentMethodID, cp.OffSession = p.PaymentMethodID, true
	} else if recurring {
		cp.SaveCard = true // the link's card renews the membership
	}
	res, err := pay.ChargeSubject(ctx, cp)
	var ae *apperr.Error
	switch {
	case err != nil && errors.As(err, &ae) && ae.Code == payments.CodeUnknownOutcome:
		return nil, ae.With("sale_id", id.String()) // reconcile settles it either way
	case err != nil && errors.As(err, &ae) && ae.Code == payments.CodeDeclined:
		if ferr := s.release(ctx, id, poscardsale.StatusFailed); ferr != nil {
			return nil, ferr
		}
		if d, _ := ae.Details["decline_code"].(string); d == "authentication_required" {
			return nil, requiresAction(nil, row, "send_payment_link")
		}
		return nil, ae.With("desk_action", "ask_for_another_card")
	case err != nil:
		return nil, s.abandon(ctx, id, err)
	}
	out, err := s.cardSaleOf(ctx, pay, nil, id)
	if err != nil {
		return nil, err
	}
	out.Charge = res
	if p.Method == MethodCard && !out.Completed() && res.Status == payments.StatusRequiresAction {
		// The bank asks the member to authenticate: the sale waits (its
		// stock held) for the member to finish on their device.
		return nil, requiresAction(res, out.Row, "member_authenticates")
	}
	if p.Method == MethodPaymentLink {
		out.URL = linkURL(out.Row, res)
	}
	return out, nil
}

func requiresAction(res *payments.ChargeResult, row *ent.PosCardSale, deskAction string) *apperr.Error {
	e := (&apperr.Error{Status: http.StatusPaymentRequired, Code: CodeRequiresAction,
		Message: "the card needs its holder's authentication"}).With("desk_action", deskAction).With("next_step", "refresh")
	if res != nil {
		e = e.With("sale_id", row.ID.String()).With("payment_intent_id", res.IntentID).
			With("client_secret", res.ClientSecret).With("stripe_account", res.AccountID).
			With("hold_expires_at", row.HoldExpiresAt.UTC().Format(time.RFC3339))
	}
	return e
}

// abandon releases a card sale whose charge never started (the attempt was
// refused before Stripe, or Stripe refused the request) and returns cause.
func (s *Service) abandon(ctx context.Context, id uuid.UUID, cause error) error {
	if err := s.release(ctx, id, poscardsale.StatusFailed); err != nil {
		return err
	}
	return cause
}

func (s *Service) recurring(ctx context.Context, passTypeID uuid.UUID) bool {
	pt, err := s.client.PassType.Get(ctx, passTypeID)
	return err == nil && pt.IsRecurring
}

// deskCheckout is the payments checkout a pass sold at the desk activates
// through: the member, the pass type and the preview's total, frozen.
func deskCheckout(ctx context.Context, tx *ent.Tx, saleID, memberID uuid.UUID, q *Quote, feeBP int, now time.Time) (*ent.Checkout, error) {
	c := tx.Checkout.Create().SetMemberID(memberID).SetPassTypeID(q.PassType.ID).
		SetAmountMinor(q.TotalMinor).SetCurrency(q.Currency).SetVatMinor(q.VATMinor).SetVatRateBp(q.VATRateBP).
		SetApplicationFeeMinor(payments.FeeShare(q.TotalMinor, feeBP)).
		SetQuoteFingerprint("pos:" + saleID.String()).SetQuoteIssuedAt(now).SetNillableIntroThrough(q.IntroThrough)
	if q.FlashSale != nil {
		c.SetFlashSaleID(q.FlashSale.ID)
	}
	return c.Save(ctx)
}

// checkReturnURL accepts an absolute https URL (http on loopback, for
// development) of at most 500 characters.
func checkReturnURL(raw string) error {
	u, err := url.Parse(raw)
	if raw == "" || err != nil || u.Host == "" || len(raw) > 500 ||
		(u.Scheme != "https" && !(u.Scheme == "http" && (u.Hostname() == "localhost" || u.Hostname() == "127.0.0.1"))) {
		return apperr.Validation("return_base_url", "an absolute https URL is required for a payment link")
	}
	return nil
}

// linkURL is where the member pays: the return base URL with the sale in
// the query and the intent's client secret and the connected account in
// the fragment (never sent to a server).
func linkURL(row *ent.PosCardSale, c *payments.ChargeResult) string {
	u, err := url.Parse(row.ReturnBaseURL)
	if err != nil || c == nil {
		return row.ReturnBaseURL
	}
	q := u.Query()
	q.Set("pos_sale", row.ID.String())
	u.RawQuery = q.Encode()
	f := url.Values{}
	f.Set("payment_intent", c.IntentID)
	f.Set("payment_intent_client_secret", c.ClientSecret)
	f.Set("stripe_account", c.AccountID)
	u.Fragment = f.Encode()
	return u.String()
}

// CardSale reads a desk card sale (pos.access): completed, or waiting with
// its payment link.
func (s *Service) CardSale(ctx context.Context, pay *payments.Service, id uuid.UUID) (*CardSale, error) {
	if _, err := Staff(ctx, false, PermAccess, PermSell); err != nil {
		return nil, err
	}
	return s.cardSaleOf(ctx, pay, nil, id)
}

// ConfirmCardSale reads the sale's payment from Stripe and applies it, as
// the inbound event would (pos.sell): a member back from paying the link
// completes the sale without waiting for the event. It writes nothing to
// Stripe.
func (s *Service) ConfirmCardSale(ctx context.Context, pay *payments.Service, id uuid.UUID) (*CardSale, error) {
	if _, err := Staff(ctx, false, PermSell); err != nil {
		return nil, err
	}
	if _, err := s.client.PosCardSale.Get(ctx, id); ent.IsNotFound(err) {
		return nil, apperr.NotFound("sale")
	} else if err != nil {
		return nil, err
	}
	if err := pay.RefreshSubject(ctx, id); err != nil {
		return nil, err
	}
	return s.cardSaleOf(ctx, pay, nil, id)
}

// cardSaleOf is a card sale as the desk sees it (row, or id when row is
// nil): the recorded sale once completed; the live payment link while it
// waits.
func (s *Service) cardSaleOf(ctx context.Context, pay *payments.Service, row *ent.PosCardSale, id ...uuid.UUID) (*CardSale, error) {
	var err error
	if row == nil {
		if row, err = s.client.PosCardSale.Get(ctx, id[0]); ent.IsNotFound(err) {
			return nil, apperr.NotFound("sale")
		} else if err != nil {
			return nil, err
		}
	}
	out := &CardSale{Row: row}
	if row.Status == poscardsale.StatusPending && pay != nil {
		if live, ok, err := pay.LiveCharge(ctx, row.ID); err == nil && ok {
			out.Charge = live
			if row.Method == poscardsale.MethodPaymentLink {
				out.URL = linkURL(row, live)
			}
		}
		if row, err = s.client.PosCardSale.Get(ctx, row.ID); err != nil { // LiveCharge may have settled it
			return nil, err
		}
		out.Row = row
	}
	if row.Status == poscardsale.StatusCompleted {
		if out.Sale, err = s.client.PosSale.Get(ctx, row.ID); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// release ends a card sale that will not be paid (to status), under its row
// lock: its stock goes back (release movements) and a pass's checkout is
// cancelled. Nothing happens while a payment is in flight, processing or
// unknown (it settles the sale either way), or once it completed.
func (s *Service) release(ctx context.Context, id uuid.UUID, to poscardsale.Status) error {
	return events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		_, err := releaseTx(ctx, tx, id, to)
		return err
	})
}

func releaseTx(ctx context.Context, tx *ent.Tx, id uuid.UUID, to poscardsale.Status) (bool, error) {
	row, err := tx.PosCardSale.Query().Where(poscardsale.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return false, err
	}
	if row.Status != poscardsale.StatusPending {
		return false, nil
	}
	if busy, err := payments.SubjectPaying(ctx, tx.Client(), id); err != nil || busy {
		return false, err
	}
	if err := tx.PosCardSale.UpdateOne(row).SetStatus(to).Exec(ctx); err != nil {
		return false, err
	}
	if row.CheckoutID != nil {
		if err := tx.Checkout.UpdateOneID(*row.CheckoutID).Where(checkout.StatusEQ(checkout.StatusOpen)).
			SetStatus(checkout.StatusCanceled).Exec(ctx); err != nil && !ent.IsNotFound(err) {
			return false, err
		}
		co, err := tx.Checkout.Get(ctx, *row.CheckoutID)
		if err != nil {
			return false, err
		}
		if err := releaseOfferPlace(ctx, tx, co.FlashSaleID); err != nil {
			return false, err
		}
		if err := promos.Release(ctx, tx, *row.CheckoutID); err != nil {
			return false, err
		}
	}
	if err := promos.Release(ctx, tx, row.ID); err != nil {
		return false, err
	}
	for _, l := range row.Lines {
		if l.Kind != "product" {
			continue
		}
		pid := uuid.MustParse(l.ID)
		if err := tx.Product.UpdateOneID(pid).AddStockOnHand(l.Quantity).Exec(ctx); err != nil {
			return false, err
		}
		p, err := tx.Product.Get(ctx, pid)
		if err != nil {
			return false, err
		}
		if err := tx.StockMovement.Create().SetProductID(pid).SetKind(stockmovement.KindRelease).
			SetDelta(l.Quantity).SetStockAfter(p.StockOnHand).SetSaleID(id).
			SetReason("card payment " + string(to)).Exec(ctx); err != nil {
			return false, err
		}
	}
	return true, payments.CancelSubjectIntents(ctx, tx.Client(), id)
}

// CardSaleHolds is the lapsing hold of desk card sales (payments' lapse.go):
// a lapsed sale's stock is released, its checkout cancelled and the member's
// unfinished intent cancelled at Stripe by a job queued in the same
// transaction. A sale whose payment is under way is left to settle.
func (s *Service) CardSaleHolds() payments.HoldKind {
	return payments.HoldKind{Name: "desk card sale", Due: s.lapsedCardSales,
		Release: func(ctx context.Context, tx *ent.Tx, id uuid.UUID, _ time.Time) (bool, error) {
			return releaseTx(ctx, tx, id, poscardsale.StatusLapsed)
		}}
}

// ExpireCardSales ends the card sales whose hold lapsed unpaid, in every
// venue, and returns how many lapsed.
func (s *Service) ExpireCardSales(ctx context.Context) (int, error) {
	return s.CardSaleHolds().Sweep(ctx, s.client, s.now())
}

func (s *Service) lapsedCardSales(ctx context.Context, now time.Time) ([]payments.Held, error) {
	// System call site: the sweep runs for every venue and holds no viewer;
	// it reads the ids and venues of lapsed card sales, then acts in each
	// venue's own transaction.
	due, err := s.client.PosCardSale.Query().
		Where(poscardsale.StatusEQ(poscardsale.StatusPending), poscardsale.HoldExpiresAtLTE(now)).
		Limit(payments.SweepBatch).All(system.Allow(ctx, "pos.lapsed_card_sales"))
	if err != nil {
		return nil, err
	}
	held := make([]payments.Held, len(due))
	for i, row := range due {
		held[i] = payments.Held{ID: row.ID, Venue: row.OrganizationID}
	}
	return held, nil
}

// cardSubject lets package payments charge and settle desk card sales.
type cardSubject struct{}

func (cardSubject) Lock(ctx context.Context, tx *ent.Tx, id uuid.UUID) (payments.SubjectCharge, error) {
	row, err := tx.PosCardSale.Query().Where(poscardsale.ID(id)).ForUpdate().Only(ctx)
	if err != nil {
		return payments.SubjectCharge{}, err
	}
	c := payments.SubjectCharge{AmountMinor: row.TotalMinor, Currency: row.Currency, Description: "Front desk sale",
		Paid: row.Status == poscardsale.StatusCompleted}
	if row.MemberID != nil {
		c.MemberID = *row.MemberID
	}
	return c, nil
}

// Settle records the paid card sale once, under its row lock: the payment
// row (for a pass, through the payments checkout's activation, which also
// starts a recurring pass's renewals), the PosSale of the same id,
// pos.sale.completed and the member's receipt. Money that arrives after the
// sale lapsed still completes it: its products are taken from stock again
// where there is stock (the desk sees any shortfall in the movements).
func (cardSubject) Settle(ctx context.Context, tx *ent.Tx, id uuid.UUID, intentID string, now time.Time) error {
	row, err := tx.PosCardSale.Get(ctx, id)
	if err != nil || row.Status == poscardsale.StatusCompleted {
		return err
	}
	var mem *ent.Member
	if row.MemberID != nil {
		if mem, err = tx.Member.Query().Where(member.ID(*row.MemberID)).WithUser().Only(ctx); err != nil {
			return err
		}
	}
	if row.Status != poscardsale.StatusPending && row.Kind == poscardsale.KindProducts {
		if err := retake(ctx, tx, row); err != nil {
			return err
		}
	}
	sc := tx.PosSale.Create().SetID(row.ID).SetRequestKey(row.RequestKey).SetMethod(possale.Method(row.Method)).
		SetCurrency(row.Currency).SetSubtotalMinor(row.SubtotalMinor).SetDiscountMinor(row.DiscountMinor).
		SetVatMinor(row.VatMinor).SetVatRateBp(row.VatRateBp).SetTotalMinor(row.TotalMinor).SetLines(row.Lines).
		SetSoldByUserID(row.SoldByUserID).SetBusinessDate(row.BusinessDate).
		SetNillablePromoExceptionKind(row.PromoExceptionKind).SetNillablePromoExceptionReason(row.PromoExceptionReason)
	if mem != nil {
		sc.SetMemberID(mem.ID)
	}
	switch row.Kind {
	case poscardsale.KindProducts:
		pc := tx.Payment.Create().SetAmountMinor(row.TotalMinor).SetCurrency(row.Currency).
			SetStatus(payment.StatusSucceeded).SetPaidAt(now).SetMethod(payment.MethodCard).
			SetKind(payment.KindProduct).SetProcessorPaymentID(intentID)
		if mem != nil {
			pc.SetMemberID(mem.ID)
		}
		pr, err := pc.Save(ctx)
		if err != nil {
			return err
		}
		if err := promos.Redeem(ctx, tx, row.ID, now); err != nil { // the code's use counts now
			return err
		}
		sc.SetKind(possale.KindProducts).SetPaymentID(pr.ID)
	case poscardsale.KindPass:
		co, err := tx.Checkout.Get(ctx, *row.CheckoutID)
		if err != nil {
			return err
		}
		if co.Status == checkout.StatusCanceled { // lapsed, then paid: the money wins
			if co, err = tx.Checkout.UpdateOne(co).SetStatus(checkout.StatusOpen).Save(ctx); err != nil {
				return err
			}
			if co.FlashSaleID != nil { // its offer's place again, even past capacity, for staff to see
				if err := tx.FlashSale.UpdateOneID(*co.FlashSaleID).AddClaimedCount(1).Exec(ctx); err != nil {
					return err
				}
			}
		}
		if co, err = payments.ActivateAtDesk(ctx, tx, co, intentID, payment.MethodCard, now); err != nil {
			return err
		}
		pr, err := tx.Payment.Query().Where(payment.PassID(*co.PassID)).Only(ctx)
		if err != nil {
			return err
		}
		sc.SetKind(possale.KindPass).SetPassID(*co.PassID).SetPaymentID(pr.ID)
	}
	sale, err := sc.Save(ctx)
	if err != nil {
		return err
	}
	if err := tx.PosCardSale.UpdateOne(row).SetStatus(poscardsale.StatusCompleted).SetCompletedAt(now).Exec(ctx); err != nil {
		return err
	}
	if err := auditException(ctx, tx, sale); err != nil {
		return err
	}
	return completed(ctx, tx, sale, mem)
}

// retake takes a lapsed sale's products from stock again, each only where
// enough is left.
func retake(ctx context.Context, tx *ent.Tx, row *ent.PosCardSale) error {
	for _, l := range row.Lines {
		if l.Kind != "product" {
			continue
		}
		pid := uuid.MustParse(l.ID)
		n, err := tx.Product.Update().Where(product.ID(pid), product.StockOnHandGTE(l.Quantity)).
			AddStockOnHand(-l.Quantity).Save(ctx)
		if err != nil || n == 0 {
			return err
		}
		p, err := tx.Product.Get(ctx, pid)
		if err != nil {
			return err
		}
		if err := tx.StockMovement.Create().SetProductID(pid).SetKind(stockmovement.KindSale).SetDelta(-l.Quantity).
			SetStockAfter(p.StockOnHand).SetSaleID(row.ID).SetUserID(row.SoldByUserID).
			SetReason("paid after the hold lapsed").Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

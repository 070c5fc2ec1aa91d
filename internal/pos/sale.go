package pos

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/pass"
	"github.com/venueplatform/venue/ent/payment"
	"github.com/venueplatform/venue/ent/possale"
	"github.com/venueplatform/venue/ent/product"
	"github.com/venueplatform/venue/ent/stockmovement"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/notify"
	"github.com/venueplatform/venue/internal/payments/giftcards"
	"github.com/venueplatform/venue/internal/payments/receipts"
	"github.com/venueplatform/venue/internal/promos"
)

// The payment methods of a desk sale.
const (
	MethodCash     = "cash"
	MethodGiftCard = "gift_card"
)

// ReceiptKind is the notification kind of a desk sale's receipt e-mail.
const ReceiptKind = "pos.receipt"

// SaleParams are a desk sale.
type SaleParams struct {
	Cart Cart
	// MemberID is who buys (required for a pass; optional for products,
	// and then the receipt goes to the member's address).
	MemberID     uuid.UUID
	Method       string
	GiftCardCode string
	// ExpectedTotalMinor, when set, is the preview's total: a sale that
	// would charge anything else is refused (409 BALANCE_CHANGED).
	ExpectedTotalMinor *int64
	// ProductQuote, when set, is the fingerprint of the catalog preview's
	// product_quote: a sale priced from anything else (a price book moved
	// meanwhile, even to the same total) is refused (409 BALANCE_CHANGED).
	ProductQuote string
	// RequestKey is the digest of the request's Idempotency-Key: a retry
	// finds the sale it made.
	RequestKey string
	// PaymentMethodID is the member's saved card (method card);
	// ReturnBaseURL where a payment link sends the member (payment_link).
	PaymentMethodID, ReturnBaseURL string
	// Exception honours an ended offer or a late code for this sale.
	Exception  *Exception
	membership bool
}

// Sale is a recorded desk sale with the quote it charged.
type Sale struct {
	*ent.PosSale
	Quote *Quote
}

// Sell records a desk sale paid in cash or by gift card, in one
// transaction: the quote (the same function as the preview), the stock
// taken (per product in id order, each a conditional update that never
// lets stock go below zero: a product sold out meanwhile is 422
// PRODUCT_QUANTITY_LIMIT with reason out_of_stock and nothing changes), the
// gift card spent, the pass created, the payment row, the sale, the event
// pos.sale.completed and the member's receipt.
func (s *Service) Sell(ctx context.Context, p SaleParams) (*Sale, error) {
	u, err := Staff(ctx, false, PermSell)
	if err != nil {
		return nil, err
	}
	switch p.Method {
	case MethodCash:
		if p.GiftCardCode != "" {
			return nil, apperr.Validation("gift_card_code", "only a gift card payment names a code")
		}
	case MethodGiftCard:
		if p.GiftCardCode == "" {
			return nil, apperr.Validation("gift_card_code", "required to pay by gift card")
		}
	default:
		return nil, apperr.Validation("method", "cash or gift_card")
	}
	if err := p.Exception.check(p.Cart.FlashSaleID, p.Cart.PromoCode); err != nil {
		return nil, err
	}
	p.Cart.MemberID = p.MemberID
	if prev, err := s.client.PosSale.Query().Where(possale.SoldByUserID(u.UserID), possale.RequestKey(p.RequestKey)).Only(ctx); err == nil {
		return s.saleOf(ctx, prev)
	} else if !ent.IsNotFound(err) {
		return nil, err
	}
	now := s.now()
	p.Cart.at = now
	var out Sale
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		q, err := quote(ctx, tx.Client(), p.Cart)
		if err != nil {
			return err
		}
		if err := holdToPreview(q, p.ExpectedTotalMinor, p.ProductQuote); err != nil {
			return err
		}
		var mem *ent.Member
		if p.MemberID != uuid.Nil {
			if mem, err = tx.Member.Query().Where(member.ID(p.MemberID)).WithUser().Only(ctx); ent.IsNotFound(err) {
				return apperr.NotFound("member")
			} else if err != nil {
				return err
			}
		}
		day, _, err := venueDay(ctx, tx.Client(), now)
		if err != nil {
			return err
		}
		saleID := uuid.New()
		pay := tx.Payment.Create().SetAmountMinor(q.TotalMinor).SetCurrency(q.Currency).
			SetStatus(payment.StatusSucceeded).SetPaidAt(now).SetMethod(payment.Method(p.Method))
		sc := tx.PosSale.Create().SetID(saleID).SetRequestKey(p.RequestKey).SetMethod(possale.Method(p.Method)).
			SetCurrency(q.Currency).SetSubtotalMinor(q.SubtotalMinor).SetDiscountMinor(q.DiscountMinor).
			SetVatMinor(q.VATMinor).SetVatRateBp(q.VATRateBP).SetTotalMinor(q.TotalMinor).SetLines(q.Lines).
			SetSoldByUserID(u.UserID).SetBusinessDate(day)
		if mem != nil {
			pay.SetMemberID(mem.ID)
			sc.SetMemberID(mem.ID)
		}
		switch q.Kind {
		case KindProducts:
			pay.SetKind(payment.KindProduct)
			sc.SetKind(possale.KindProducts)
			if err := takeStock(ctx, tx, q, saleID, u.UserID); err != nil {
				return err
			}
		case KindPass:
			if mem == nil {
				return apperr.Validation("member_id", "a pass is sold to a member")
			}
			ps, err := newPass(tx, ctx, mem.ID, q.PassType, day)
			if err != nil {
				return err
			}
			if q.IntroThrough != nil { // an offer's intro price pays through its last day
				if ps, err = ps.Update().SetValidTo(*q.IntroThrough).Save(ctx); err != nil {
					return err
				}
			}
			if err := claimOfferPlace(ctx, tx, q); err != nil {
				return err
			}
			pay.SetKind(payment.KindPassPurchase).SetPassID(ps.ID)
			sc.SetKind(possale.KindPass).SetPassID(ps.ID)
		}
		if p.Method == MethodGiftCard {
			card, err := giftcards.SpendAtDesk(ctx, tx, p.GiftCardCode, q.TotalMinor, q.Currency, now)
			if err != nil {
				return err
			}
			sc.SetGiftCardID(card.ID)
		}
		if p.Exception != nil {
			sc.SetPromoExceptionKind(p.Exception.Kind).SetPromoExceptionReason(p.Exception.Reason)
		}
		if q.Promo != nil { // paid here: the use is counted now
			if err := promos.Claim(ctx, tx, q.Promo, p.MemberID, saleID, q.Currency, true, p.Exception.lateReason(), now); err != nil {
				return err
			}
		}
		pr, err := pay.Save(ctx)
		if err != nil {
			return err
		}
		sale, err := sc.SetPaymentID(pr.ID).Save(ctx)
		if err != nil {
			return err
		}
		out = Sale{PosSale: sale, Quote: q}
		if err := auditException(ctx, tx, sale); err != nil {
			return err
		}
		return completed(ctx, tx, sale, mem)
	})
	if err != nil {
		if ent.IsConstraintError(err) {
			// A concurrent retry under the same key recorded it first.
			if prev, qerr := s.client.PosSale.Query().Where(possale.SoldByUserID(u.UserID), possale.RequestKey(p.RequestKey)).Only(ctx); qerr == nil {
				return s.saleOf(ctx, prev)
			}
		}
		return nil, err
	}
	return &out, nil
}

// saleOf is a recorded sale as Sell answers it.
func (s *Service) saleOf(_ context.Context, sale *ent.PosSale) (*Sale, error) {
	q := &Quote{Kind: string(sale.Kind), Currency: sale.Currency, SubtotalMinor: sale.SubtotalMinor,
		DiscountMinor: sale.DiscountMinor, VATMinor: sale.VatMinor, VATRateBP: sale.VatRateBp,
		TotalMinor: sale.TotalMinor, Lines: sale.Lines}
	return &Sale{PosSale: sale, Quote: q}, nil
}

// takeStock takes each product's quantity from stock, in product-id order
// (two sales of the same products never wait on each other in a cycle),
// each a conditional update that fails rather than go below zero.
func takeStock(ctx context.Context, tx *ent.Tx, q *Quote, saleID, userID uuid.UUID) error {
	lines := append([]model.PosLine(nil), q.Lines...)
	sort.Slice(lines, func(a, b int) bool { return lines[a].ID < lines[b].ID })
	for _, l := range lines {
		id := uuid.MustParse(l.ID)
		n, err := tx.Product.Update().Where(product.ID(id), product.Active(true), product.StockOnHandGTE(l.Quantity)).
			AddStockOnHand(-l.Quantity).Save(ctx)
		if err != nil {
			return err
		}
		p, err := tx.Product.Get(ctx, id)
		if err != nil {
			return err
		}
		if n != 1 {
			return outOfStock(id, p.StockOnHand)
		}
		if err := tx.StockMovement.Create().SetProductID(id).SetKind(stockmovement.KindSale).
			SetDelta(-l.Quantity).SetStockAfter(p.StockOnHand).SetSaleID(saleID).SetUserID(userID).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// newPass is the pass a desk sale of pt creates for the member, valid from
// the venue's today.
func newPass(tx *ent.Tx, ctx context.Context, memberID uuid.UUID, pt *ent.PassType, today time.Time) (*ent.Pass, error) {
	pc := tx.Pass.Create().SetMemberID(memberID).SetPassTypeID(pt.ID).SetStatus(pass.StatusActive).SetValidFrom(today)
	if pt.ValidityDays != nil {
		pc.SetValidTo(today.AddDate(0, 0, *pt.ValidityDays))
	} else if pt.IsRecurring && pt.BillingInterval != nil {
		n := 1
		if pt.BillingIntervalCount != nil {
			n = *pt.BillingIntervalCount
		}
		switch *pt.BillingInterval {
		case "day":
			pc.SetValidTo(today.AddDate(0, 0, n))
		case "week":
			pc.SetValidTo(today.AddDate(0, 0, 7*n))
		case "month":
			pc.SetValidTo(today.AddDate(0, n, 0))
		case "year":
			pc.SetValidTo(today.AddDate(n, 0, 0))
		}
	}
	if pt.Clips != nil {
		pc.SetClipsRemaining(*pt.Clips)
	}
	return pc.Save(ctx)
}

// completed records pos.sale.completed and, for a member with an address,
// queues the receipt e-mail, in the sale's transaction.
func completed(ctx context.Context, tx *ent.Tx, sale *ent.PosSale, mem *ent.Member) error {
	data := map[string]any{
		"sale_id": sale.ID.String(), "payment_id": sale.PaymentID.String(), "kind": string(sale.Kind),
		"method": string(sale.Method), "total_minor": sale.TotalMinor, "vat_minor": sale.VatMinor,
		"currency": sale.Currency, "member_id": nil,
	}
	if mem != nil {
		data["member_id"] = mem.ID.String()
	}
	if _, err := events.Record(ctx, tx.Client(), events.PosSaleCompleted, data); err != nil {
		return err
	}
	if mem == nil || mem.Edges.User == nil || mem.Edges.User.Email == "" {
		return nil
	}
	r, err := receipts.New(tx.Client()).Load(ctx, sale.PaymentID)
	if err != nil {
		return fmt.Errorf("pos: receipt: %w", err)
	}
	_, err = notify.EnqueueEmail(ctx, tx.Client(), notify.DirectEmail{
		To: mem.Edges.User.Email, MemberID: mem.ID, ToMember: true, Kind: ReceiptKind,
		Subject: fmt.Sprintf("Receipt %s from %s: %s", r.Number, r.Venue.Name, money.Format(sale.TotalMinor, sale.Currency)),
		Body:    receipts.Text(r), Data: map[string]any{"payment_id": sale.PaymentID.String(), "sale_id": sale.ID.String()},
		CorrelationID: "pos_receipt:" + sale.ID.String(),
	})
	return err
}

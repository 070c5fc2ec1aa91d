package pos

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/product"
	"github.com/venueplatform/venue/ent/productprice"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/model"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/promos"
)

// Item is one line of a cart: a product and its quantity, or a pass type
// (quantity 1).
type Item struct {
	ProductID  uuid.UUID
	PassTypeID uuid.UUID
	Quantity   int
}

// Cart is what the desk prices and sells. Currency is the price book of the
// products (product_currency; the venue's when empty); a pass is priced in
// its pass type's currency.
type Cart struct {
	Items    []Item
	Currency string
	// FlashSaleID prices a pass at the offer; AllowEnded honours an offer
	// that has ended (a promo-window exception).
	FlashSaleID uuid.UUID
	AllowEnded  bool
	// PromoCode is a promo code of the venue (any case) applied to the pass
	// or the products it names (not with an offer); AllowExpiredCode honours
	// a code whose window closed (late_code_redemption). MemberID is who
	// buys, for codes limited per member.
	PromoCode        string
	AllowExpiredCode bool
	MemberID         uuid.UUID
	at               time.Time
}

// Version is the price book version a product was priced from.
type Version struct {
	ProductID uuid.UUID
	Currency  string
	Version   int
}

// Quote is a priced cart. Amounts are minor units of Currency, VAT-inclusive:
// Subtotal is the lines' sum, Total what is charged (Subtotal less
// Discount), VAT the share of VAT inside Total at VATRateBP.
type Quote struct {
	Kind          string // products or pass
	Currency      string
	SubtotalMinor int64
	DiscountMinor int64
	VATMinor      int64
	VATRateBP     int
	TotalMinor    int64
	Lines         []model.PosLine
	Versions      []Version
	// Stock is each product's stock on hand when priced.
	Stock map[uuid.UUID]int
	// PassType is the pass type of a pass cart.
	PassType *ent.PassType
	// Fingerprint digests everything the total was computed from.
	Fingerprint string
	// FlashSale is the offer a pass was priced at; IntroThrough the last day
	// its intro price pays for (recurring offers).
	FlashSale    *ent.FlashSale
	IntroThrough *time.Time
	// Promo is the promo code applied and its discount.
	Promo *promos.Applied
}

// The kinds of a cart.
const (
	KindProducts = "products"
	KindPass     = "pass"
)

// quote prices cart with client (a transaction's in a sale). A cart holds
// products or one pass type, never both (422 MIXED_CART_NOT_SUPPORTED); an
// empty one is 422 PRODUCTS_REQUIRED; a product asked for more often than
// MaxQuantity or than in stock is 422 PRODUCT_QUANTITY_LIMIT; a product
// without a price in the currency is 422 PRODUCT_PRICE_BOOK_UNAVAILABLE;
// unknown, inactive and another venue's products and pass types are 404.
func quote(ctx context.Context, client *ent.Client, cart Cart) (*Quote, error) {
	var products, passes int
	qty := map[uuid.UUID]int{}
	var order []uuid.UUID
	var passID uuid.UUID
	if len(cart.Items) > MaxLines {
		return nil, unprocessable("PRODUCT_QUANTITY_LIMIT", fmt.Sprintf("at most %d lines", MaxLines)).
			With("reason", "too_many_lines")
	}
	for _, it := range cart.Items {
		switch {
		case it.ProductID != uuid.Nil && it.PassTypeID != uuid.Nil:
			return nil, apperr.Validation("items", "a line names a product or a pass type, not both")
		case it.ProductID != uuid.Nil:
			products++
			if it.Quantity < 1 {
				return nil, apperr.Validation("items", "quantity must be at least 1")
			}
			if _, ok := qty[it.ProductID]; !ok {
				order = append(order, it.ProductID)
			}
			qty[it.ProductID] += it.Quantity
		case it.PassTypeID != uuid.Nil:
			passes++
			passID = it.PassTypeID
			if it.Quantity > 1 {
				return nil, unprocessable("PRODUCT_QUANTITY_LIMIT", "a pass is sold one at a time").With("reason", "pass_quantity")
			}
		default:
			return nil, apperr.Validation("items", "a line names a product or a pass type")
		}
	}
	if cart.PromoCode != "" && cart.FlashSaleID != uuid.Nil {
		return nil, apperr.Validation("promo_code", "an offer and a promo code do not combine: name one")
	}
	switch {
	case products > 0 && passes > 0, passes > 1:
		return nil, unprocessable("MIXED_CART_NOT_SUPPORTED", "a sale holds products or one pass, not both")
	case products == 0 && passes == 0:
		return nil, unprocessable("PRODUCTS_REQUIRED", "the cart is empty")
	}
	rate, err := vatRate(ctx, client)
	if err != nil {
		return nil, err
	}
	q := &Quote{VATRateBP: rate, Stock: map[uuid.UUID]int{}}
	if passes == 1 {
		pt, err := client.PassType.Query().Where(passtype.ID(passID), passtype.Active(true)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, apperr.NotFound("pass type")
		}
		if err != nil {
			return nil, fmt.Errorf("pos: pass type: %w", err)
		}
		q.Kind, q.Currency, q.PassType = KindPass, strings.ToUpper(pt.Currency), pt
		q.Lines = []model.PosLine{{Kind: "pass_type", ID: pt.ID.String(), Name: pt.Name, Quantity: 1,
			UnitMinor: pt.PriceMinor, TotalMinor: pt.PriceMinor}}
		q.SubtotalMinor = pt.PriceMinor
		extra := pt.UpdatedAt.UTC().Format("2006-01-02T15:04:05.999999999")
		if cart.FlashSaleID != uuid.Nil {
			now := cart.at
			if now.IsZero() {
				now = time.Now()
			}
			today, _, err := venueDay(ctx, client, now)
			if err != nil {
				return nil, err
			}
			if err := priceOffer(ctx, client, q, cart.FlashSaleID, cart.AllowEnded, now, today); err != nil {
				return nil, err
			}
			extra += "|" + cart.FlashSaleID.String()
		}
		if cart.PromoCode != "" {
			a, err := promos.Apply(ctx, client, cart.PromoCode, promos.Target{PassTypeID: pt.ID, PriceMinor: q.SubtotalMinor,
				Currency: q.Currency, MemberID: cart.MemberID, Now: cart.now(), AllowExpired: cart.AllowExpiredCode})
			if err != nil {
				return nil, err
			}
			q.applyPromo(a)
			extra += "|" + promoDigest(a)
		}
		return q.finish(extra), nil
	}
	if cart.FlashSaleID != uuid.Nil {
		return nil, apperr.Validation("flash_sale_id", "an offer prices a pass")
	}
	cur := strings.ToUpper(cart.Currency)
	if cur == "" {
		org, err := client.Organization.Query().Only(ctx)
		if err != nil {
			return nil, fmt.Errorf("pos: venue: %w", err)
		}
		cur = strings.ToUpper(org.Currency)
	}
	if !money.ValidCurrency(cur) {
		return nil, apperr.Validation("product_currency", "not an ISO 4217 currency")
	}
	q.Kind, q.Currency = KindProducts, cur
	ps, err := client.Product.Query().Where(product.IDIn(order...), product.Active(true)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: products: %w", err)
	}
	byID := map[uuid.UUID]*ent.Product{}
	for _, p := range ps {
		byID[p.ID] = p
	}
	prices, err := client.ProductPrice.Query().Where(productprice.ProductIDIn(order...), productprice.Currency(cur)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: prices: %w", err)
	}
	priceOf := map[uuid.UUID]*ent.ProductPrice{}
	for _, p := range prices {
		priceOf[p.ProductID] = p
	}
	for _, id := range order {
		p, ok := byID[id]
		if !ok {
			return nil, apperr.NotFound("product").With("product_id", id.String())
		}
		pr, ok := priceOf[id]
		if !ok {
			return nil, unprocessable("PRODUCT_PRICE_BOOK_UNAVAILABLE", "the product has no price in this currency").
				With("product_id", id.String()).With("currency", cur)
		}
		n := qty[id]
		if n > MaxQuantity {
			return nil, unprocessable("PRODUCT_QUANTITY_LIMIT", fmt.Sprintf("at most %d of one product", MaxQuantity)).
				With("reason", "quantity").With("product_id", id.String())
		}
		if n > p.StockOnHand {
			return nil, outOfStock(id, p.StockOnHand)
		}
		q.Stock[id] = p.StockOnHand
		q.Lines = append(q.Lines, model.PosLine{Kind: "product", ID: id.String(), Name: p.Name, Quantity: n,
			UnitMinor: pr.PriceMinor, TotalMinor: pr.PriceMinor * int64(n), PriceBookVersion: pr.Version})
		q.Versions = append(q.Versions, Version{ProductID: id, Currency: cur, Version: pr.Version})
		q.SubtotalMinor += pr.PriceMinor * int64(n)
	}
	extra := ""
	if cart.PromoCode != "" {
		lines := make([]promos.Line, len(q.Lines))
		for i, l := range q.Lines {
			lines[i] = promos.Line{ProductID: uuid.MustParse(l.ID), TotalMinor: l.TotalMinor}
		}
		a, err := promos.Apply(ctx, client, cart.PromoCode, promos.Target{Lines: lines, Currency: q.Currency,
			MemberID: cart.MemberID, Now: cart.now(), AllowExpired: cart.AllowExpiredCode})
		if err != nil {
			return nil, err
		}
		q.applyPromo(a)
		extra = promoDigest(a)
	}
	return q.finish(extra), nil
}

func outOfStock(id uuid.UUID, available int) *apperr.Error {
	return unprocessable("PRODUCT_QUANTITY_LIMIT", "not enough of the product in stock").
		With("reason", "out_of_stock").With("product_id", id.String()).With("available", available)
}

func (c Cart) now() time.Time {
	if c.at.IsZero() {
		return time.Now()
	}
	return c.at
}

// applyPromo takes a's discount off the quote.
func (q *Quote) applyPromo(a *promos.Applied) {
	q.Promo = a
	q.DiscountMinor = min(q.DiscountMinor+a.DiscountMinor, q.SubtotalMinor)
}

// promoDigest is what a quote's fingerprint takes from the code it applied
// (not its last change: every use claimed changes the row).
func promoDigest(a *promos.Applied) string {
	return fmt.Sprintf("promo:%s:%d", a.Code.ID, a.DiscountMinor)
}

// finish computes the totals and the fingerprint.
func (q *Quote) finish(extra string) *Quote {
	q.TotalMinor = q.SubtotalMinor - q.DiscountMinor
	q.VATMinor = payments.VATShare(q.TotalMinor, q.VATRateBP)
	lines := append([]model.PosLine(nil), q.Lines...)
	sort.Slice(lines, func(a, b int) bool { return lines[a].ID < lines[b].ID })
	h := sha256.New()
	fmt.Fprintf(h, "%s|%s|%d|%d|%s", q.Kind, q.Currency, q.VATRateBP, q.TotalMinor, extra)
	for _, l := range lines {
		fmt.Fprintf(h, "|%s:%d:%d:%d", l.ID, l.Quantity, l.UnitMinor, l.PriceBookVersion)
	}
	q.Fingerprint = "pq1_" + hex.EncodeToString(h.Sum(nil))[:32]
	return q
}

// Preview prices cart for the desk: what the sale of the same cart at the
// same time charges.
func (s *Service) Preview(ctx context.Context, cart Cart) (*Quote, error) {
	cart.at = s.now()
	return quote(ctx, s.client, cart)
}

package pos

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/product"
	"github.com/venueplatform/venue/ent/productprice"
	"github.com/venueplatform/venue/ent/stockmovement"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
)

// Managing retail products after they were created: their name, SKU,
// active flag and prices (every changed price a new price book version, so
// a quote made before the change no longer holds at the sale), and their
// stock (restock, write-off, count correction), each stock change a
// movement that never leaves the stock below zero.

// ProductChange is a change of a product: nil fields stay as they are.
// Prices sets the price of each currency named (a new price book version
// when it differs, version 1 for a new currency); currencies not named keep
// theirs.
type ProductChange struct {
	Name   *string
	SKU    *string
	Active *bool
	Prices []Price
}

// UpdateProduct changes a product (products.manage_inventory), audited as
// pos.product_updated with what changed. An empty change, a blank name, a
// currency given twice or another product's SKU is 400 VALIDATION_ERROR; an
// unknown or another venue's product 404.
func (s *Service) UpdateProduct(ctx context.Context, id uuid.UUID, c ProductChange) (*Product, error) {
	if _, err := Staff(ctx, false, PermInventory); err != nil {
		return nil, err
	}
	if c.Name == nil && c.SKU == nil && c.Active == nil && len(c.Prices) == 0 {
		return nil, apperr.Validation("body", "name, sku, active or prices is required")
	}
	if c.Name != nil {
		n := strings.TrimSpace(*c.Name)
		if n == "" {
			return nil, apperr.Validation("name", "required")
		}
		c.Name = &n
	}
	seen := map[string]bool{}
	for _, pr := range c.Prices {
		if !money.ValidCurrency(pr.Currency) {
			return nil, apperr.Validation("prices", "not an ISO 4217 currency")
		}
		if seen[pr.Currency] {
			return nil, apperr.Validation("prices", "one price per currency")
		}
		seen[pr.Currency] = true
	}
	var out *Product
	err := events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		// The product's row lock orders concurrent changes of it.
		p, err := tx.Product.Query().Where(product.ID(id)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return apperr.NotFound("product")
		} else if err != nil {
			return err
		}
		changes := map[string]any{}
		upd := tx.Product.UpdateOne(p)
		if c.Name != nil && *c.Name != p.Name {
			changes["name"] = []any{p.Name, *c.Name}
			upd.SetName(*c.Name)
		}
		if c.SKU != nil && (p.Sku == nil || *p.Sku != *c.SKU) {
			n, err := tx.Product.Query().Where(product.Sku(*c.SKU), product.IDNEQ(id)).Count(ctx)
			if err != nil {
				return err
			}
			if n > 0 {
				return apperr.Validation("sku", "another product has this SKU")
			}
			changes["sku"] = []any{p.Sku, *c.SKU}
			upd.SetSku(*c.SKU)
		}
		if c.Active != nil && *c.Active != p.Active {
			changes["active"] = []any{p.Active, *c.Active}
			upd.SetActive(*c.Active)
		}
		if len(changes) > 0 {
			if p, err = upd.Save(ctx); err != nil {
				return err
			}
		}
		rows, err := tx.ProductPrice.Query().Where(productprice.ProductID(id)).All(ctx)
		if err != nil {
			return err
		}
		byCur := map[string]*ent.ProductPrice{}
		for _, r := range rows {
			byCur[r.Currency] = r
		}
		var moved []map[string]any
		for _, x := range c.Prices {
			r, ok := byCur[x.Currency]
			switch {
			case !ok:
				if r, err = tx.ProductPrice.Create().SetProductID(id).SetCurrency(x.Currency).
					SetPriceMinor(x.PriceMinor).SetVersion(1).Save(ctx); err != nil {
					return err
				}
				moved = append(moved, map[string]any{"currency": x.Currency, "from": nil, "to": x.PriceMinor, "version": 1})
			case r.PriceMinor != x.PriceMinor:
				old := r.PriceMinor
				if r, err = tx.ProductPrice.UpdateOne(r).SetPriceMinor(x.PriceMinor).AddVersion(1).Save(ctx); err != nil {
					return err
				}
				moved = append(moved, map[string]any{"currency": x.Currency, "from": old, "to": x.PriceMinor, "version": r.Version})
			}
			byCur[x.Currency] = r
		}
		out = &Product{Product: p}
		for _, r := range byCur {
			out.Prices = append(out.Prices, Price{Currency: r.Currency, PriceMinor: r.PriceMinor, Version: r.Version})
		}
		sort.Slice(out.Prices, func(a, b int) bool { return out.Prices[a].Currency < out.Prices[b].Currency })
		if len(moved) > 0 {
			changes["prices"] = moved
		}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "pos.product_updated", Target: "product:" + id.String(),
			Outcome: "success", Details: map[string]any{"changes": changes}})
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// The kinds of a stock adjustment.
const (
	AdjustRestock  = "restock"
	AdjustWriteOff = "write_off"
	AdjustCount    = "count"
)

// MaxAdjustment bounds one adjustment's quantity and a count; MaxStock a
// product's stock after a restock.
const (
	MaxAdjustment = 1000000
	MaxStock      = 100000000
)

// Adjustment is a change of a product's stock by staff: restock (Quantity
// more), write_off (Quantity less: damaged, lost) or count (the stock
// counted on the shelf, Counted, replaces the stock on hand).
type Adjustment struct {
	Kind     string
	Quantity int
	Counted  int
	Reason   string
}

// Adjusted is a recorded stock adjustment.
type Adjusted struct {
	Movement *ent.StockMovement
	Product  *ent.Product
}

// AdjustStock changes a product's stock (products.manage_inventory) as one
// adjustment movement with the reason and the stock after it, audited as
// pos.stock_adjusted. A restock or write-off is one conditional update of
// the stock (like a sale's), so it adds to or takes from whatever
// concurrent sales left; a write-off of more than is in stock is 422
// PRODUCT_QUANTITY_LIMIT (reason out_of_stock, available) and changes
// nothing. A count takes the product's row lock and sets the stock it
// counted (a sale waits for it, then sells from the counted stock). The
// reason is 1 to 500 characters after trimming; an unknown or another
// venue's product is 404.
func (s *Service) AdjustStock(ctx context.Context, id uuid.UUID, a Adjustment) (*Adjusted, error) {
	u, err := Staff(ctx, false, PermInventory)
	if err != nil {
		return nil, err
	}
	a.Reason = strings.TrimSpace(a.Reason)
	if n := len([]rune(a.Reason)); n < 1 || n > 500 {
		return nil, apperr.Validation("reason", "1 to 500 characters")
	}
	switch a.Kind {
	case AdjustRestock, AdjustWriteOff:
		if a.Quantity < 1 || a.Quantity > MaxAdjustment || a.Counted != 0 {
			return nil, apperr.Validation("quantity", fmt.Sprintf("restock and write_off take a quantity of 1 to %d and no counted", MaxAdjustment))
		}
	case AdjustCount:
		if a.Counted < 0 || a.Counted > MaxAdjustment || a.Quantity != 0 {
			return nil, apperr.Validation("counted", fmt.Sprintf("count takes counted, 0 to %d, and no quantity", MaxAdjustment))
		}
	default:
		return nil, apperr.Validation("kind", "restock, write_off or count")
	}
	var out Adjusted
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		var delta, before int
		switch a.Kind {
		case AdjustCount:
			p, err := tx.Product.Query().Where(product.ID(id)).ForUpdate().Only(ctx)
			if ent.IsNotFound(err) {
				return apperr.NotFound("product")
			} else if err != nil {
				return err
			}
			before, delta = p.StockOnHand, a.Counted-p.StockOnHand
			if err := tx.Product.UpdateOne(p).SetStockOnHand(a.Counted).Exec(ctx); err != nil {
				return err
			}
		case AdjustRestock:
			delta = a.Quantity
			n, err := tx.Product.Update().Where(product.ID(id), product.StockOnHandLTE(MaxStock-a.Quantity)).
				AddStockOnHand(a.Quantity).Save(ctx)
			if err != nil {
				return err
			}
			if n != 1 {
				if _, err := tx.Product.Get(ctx, id); ent.IsNotFound(err) {
					return apperr.NotFound("product")
				}
				return apperr.Validation("quantity", fmt.Sprintf("the stock would exceed %d", MaxStock))
			}
		case AdjustWriteOff:
			delta = -a.Quantity
			n, err := tx.Product.Update().Where(product.ID(id), product.StockOnHandGTE(a.Quantity)).
				AddStockOnHand(-a.Quantity).Save(ctx)
			if err != nil {
				return err
			}
			if n != 1 {
				p, err := tx.Product.Get(ctx, id)
				if ent.IsNotFound(err) {
					return apperr.NotFound("product")
				} else if err != nil {
					return err
				}
				return outOfStock(id, p.StockOnHand)
			}
		}
		p, err := tx.Product.Get(ctx, id)
		if err != nil {
			return err
		}
		if a.Kind != AdjustCount {
			before = p.StockOnHand - delta
		}
		m, err := tx.StockMovement.Create().SetProductID(id).SetKind(stockmovement.KindAdjustment).
			SetDelta(delta).SetStockAfter(p.StockOnHand).SetUserID(u.UserID).SetReason(a.Reason).Save(ctx)
		if err != nil {
			return err
		}
		out = Adjusted{Movement: m, Product: p}
		_, err = audit.Record(ctx, tx.Client(), audit.Entry{Action: "pos.stock_adjusted", Target: "product:" + id.String(),
			Outcome: "success", Details: map[string]any{"kind": a.Kind, "delta": delta, "stock_before": before,
				"stock_after": p.StockOnHand, "reason": a.Reason, "movement_id": m.ID.String()}})
		return err
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// holdToPreview refuses a sale whose quote is not the preview's: another
// total than expected, or (with the product_quote's fingerprint) prices from
// other price book versions. 409 BALANCE_CHANGED carries the new quote
// (total_minor, fingerprint, versions) to show the customer and sell again.
func holdToPreview(q *Quote, expected *int64, fingerprint string) error {
	reason := ""
	switch {
	case expected != nil && *expected != q.TotalMinor:
		reason = "total_changed"
	case fingerprint != "" && fingerprint != q.Fingerprint:
		reason = "price_book_changed"
	default:
		return nil
	}
	versions := make([]map[string]any, len(q.Versions))
	for i, v := range q.Versions {
		versions[i] = map[string]any{"product_id": v.ProductID.String(), "currency": v.Currency, "version": v.Version}
	}
	return conflict("BALANCE_CHANGED", "the sale is not priced as its preview; nothing was charged").
		With("reason", reason).With("total_minor", q.TotalMinor).With("fingerprint", q.Fingerprint).
		With("product_price_book_versions", versions).With("next_step", "refresh")
}

// Movements is a product's latest limit stock movements, newest first, and
// the product (products.manage_inventory or pos.access; 404 for an unknown
// or another venue's product).
func (s *Service) Movements(ctx context.Context, id uuid.UUID, limit int) ([]*ent.StockMovement, *ent.Product, error) {
	if _, err := Staff(ctx, false, PermInventory, PermAccess); err != nil {
		return nil, nil, err
	}
	p, err := s.client.Product.Query().Where(product.ID(id)).Only(ctx)
	if ent.IsNotFound(err) {
		return nil, nil, apperr.NotFound("product")
	} else if err != nil {
		return nil, nil, err
	}
	ms, err := s.client.StockMovement.Query().Where(stockmovement.ProductID(id)).
		Order(ent.Desc(stockmovement.FieldCreatedAt), ent.Desc(stockmovement.FieldID)).Limit(limit).All(ctx)
	if err != nil {
		return nil, nil, err
	}
	return ms, p, nil
}

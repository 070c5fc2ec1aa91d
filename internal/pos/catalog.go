package pos

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/product"
	"github.com/venueplatform/venue/ent/productprice"
	"github.com/venueplatform/venue/ent/stockmovement"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
)

// Price is one price book entry of a product.
type Price struct {
	Currency   string
	PriceMinor int64
	Version    int
}

// Product is a product with its price books, as the catalog answers it.
type Product struct {
	*ent.Product
	Prices []Price
}

// NewProduct is a product to create.
type NewProduct struct {
	Name         string
	SKU          string
	InitialStock int
	Prices       []Price
}

// CreateProduct creates a product with its price books and, when
// InitialStock is above zero, the adjustment movement that stocks it.
func (s *Service) CreateProduct(ctx context.Context, userID uuid.UUID, p NewProduct) (*Product, error) {
	if strings.TrimSpace(p.Name) == "" {
		return nil, apperr.Validation("name", "required")
	}
	seen := map[string]bool{}
	for _, pr := range p.Prices {
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
		c := tx.Product.Create().SetName(strings.TrimSpace(p.Name)).SetStockOnHand(p.InitialStock)
		if p.SKU != "" {
			n, err := tx.Product.Query().Where(product.Sku(p.SKU)).Count(ctx)
			if err != nil {
				return err
			}
			if n > 0 {
				return apperr.Validation("sku", "another product has this SKU")
			}
			c.SetSku(p.SKU)
		}
		pr, err := c.Save(ctx)
		if err != nil {
			return err
		}
		out = &Product{Product: pr}
		for _, x := range p.Prices {
			if err := tx.ProductPrice.Create().SetProductID(pr.ID).SetCurrency(x.Currency).
				SetPriceMinor(x.PriceMinor).SetVersion(1).Exec(ctx); err != nil {
				return err
			}
			out.Prices = append(out.Prices, Price{Currency: x.Currency, PriceMinor: x.PriceMinor, Version: 1})
		}
		if p.InitialStock > 0 {
			return tx.StockMovement.Create().SetProductID(pr.ID).SetKind(stockmovement.KindAdjustment).
				SetDelta(p.InitialStock).SetStockAfter(p.InitialStock).SetUserID(userID).
				SetReason("initial stock").Exec(ctx)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Products is the venue's active products by name, with their price books.
func (s *Service) Products(ctx context.Context) ([]Product, error) {
	ps, err := s.client.Product.Query().Where(product.Active(true)).
		Order(ent.Asc(product.FieldName), ent.Asc(product.FieldID)).Limit(500).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: products: %w", err)
	}
	ids := make([]uuid.UUID, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	prices, err := s.client.ProductPrice.Query().Where(productprice.ProductIDIn(ids...)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: prices: %w", err)
	}
	by := map[uuid.UUID][]Price{}
	for _, p := range prices {
		by[p.ProductID] = append(by[p.ProductID], Price{Currency: p.Currency, PriceMinor: p.PriceMinor, Version: p.Version})
	}
	out := make([]Product, len(ps))
	for i, p := range ps {
		pr := by[p.ID]
		sort.Slice(pr, func(a, b int) bool { return pr[a].Currency < pr[b].Currency })
		out[i] = Product{Product: p, Prices: pr}
	}
	return out, nil
}

// PassTypes is the venue's active pass types the desk sells, in the venue's
// order.
func (s *Service) PassTypes(ctx context.Context) ([]*ent.PassType, error) {
	return s.client.PassType.Query().Where(passtype.Active(true)).
		Order(ent.Asc(passtype.FieldSortOrder), ent.Asc(passtype.FieldName), ent.Asc(passtype.FieldID)).Limit(500).All(ctx)
}

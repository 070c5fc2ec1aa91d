package handlers

import (
	"context"

	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/pos"
)

// UpdatePosProduct implements api.Handler.
func (h *Handler) UpdatePosProduct(ctx context.Context, req *api.PosProductUpdateRequest, params api.UpdatePosProductParams) (*api.PosProductResponse, error) {
	c := pos.ProductChange{}
	if v, ok := req.Name.Get(); ok {
		c.Name = &v
	}
	if v, ok := req.Sku.Get(); ok {
		c.SKU = &v
	}
	if v, ok := req.Active.Get(); ok {
		c.Active = &v
	}
	for _, p := range req.Prices {
		c.Prices = append(c.Prices, pos.Price{Currency: p.Currency, PriceMinor: p.PriceMinor})
	}
	p, err := h.pos().UpdateProduct(ctx, params.ProductId, c)
	if err != nil {
		return nil, err
	}
	return &api.PosProductResponse{Data: posProductOut(*p)}, nil
}

// AdjustPosProductStock implements api.Handler.
func (h *Handler) AdjustPosProductStock(ctx context.Context, req *api.PosStockAdjustmentRequest, params api.AdjustPosProductStockParams) (*api.PosStockAdjustmentResponse, error) {
	a, err := h.pos().AdjustStock(ctx, params.ProductId, pos.Adjustment{Kind: string(req.Kind),
		Quantity: req.Quantity.Or(0), Counted: req.Counted.Or(0), Reason: req.Reason})
	if err != nil {
		return nil, err
	}
	m := a.Movement
	out := api.PosStockMovement{ID: m.ID, ProductID: m.ProductID, Kind: api.PosStockMovementKind(m.Kind), Delta: m.Delta,
		StockAfter: m.StockAfter, Reason: m.Reason, CreatedAt: m.CreatedAt.UTC()}
	out.UserID.SetToNull()
	if m.UserID != nil {
		out.UserID.SetTo(*m.UserID)
	}
	return &api.PosStockAdjustmentResponse{Data: api.PosStockAdjustmentResponseData{Movement: out, StockOnHand: a.Product.StockOnHand}}, nil
}

package handlers

import (
	"context"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
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
	return &api.PosStockAdjustmentResponse{Data: api.PosStockAdjustmentResponseData{Movement: posMovementOut(a.Movement),
		StockOnHand: a.Product.StockOnHand}}, nil
}

// ListPosStockMovements implements api.Handler.
func (h *Handler) ListPosStockMovements(ctx context.Context, params api.ListPosStockMovementsParams) (*api.PosStockMovementListResponse, error) {
	ms, p, err := h.pos().Movements(ctx, params.ProductId, params.Limit.Or(20))
	if err != nil {
		return nil, err
	}
	out := make([]api.PosStockMovement, len(ms))
	for i, m := range ms {
		out[i] = posMovementOut(m)
	}
	return &api.PosStockMovementListResponse{Data: out,
		Meta: api.PosStockMovementListResponseMeta{Total: len(out), StockOnHand: p.StockOnHand}}, nil
}

func posMovementOut(m *ent.StockMovement) api.PosStockMovement {
	out := api.PosStockMovement{ID: m.ID, ProductID: m.ProductID, Kind: api.PosStockMovementKind(m.Kind), Delta: m.Delta,
		StockAfter: m.StockAfter, Reason: m.Reason, CreatedAt: m.CreatedAt.UTC()}
	for _, f := range []struct {
		dst *api.NilUUID
		src *uuid.UUID
	}{{&out.SaleID, m.SaleID}, {&out.ReturnID, m.ReturnID}, {&out.UserID, m.UserID}} {
		f.dst.SetToNull()
		if f.src != nil {
			f.dst.SetTo(*f.src)
		}
	}
	return out
}

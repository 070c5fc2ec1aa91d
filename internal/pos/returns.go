package pos

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/posreturn"
	"github.com/venueplatform/venue/ent/possale"
	"github.com/venueplatform/venue/ent/product"
	"github.com/venueplatform/venue/ent/stockmovement"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/model"
)

// ReturnParams are a return of products to stock under Key (8 to 160
// ASCII characters, checked by the face), optionally against the sale
// SaleID.
type ReturnParams struct {
	Key    string
	SaleID uuid.UUID
	Items  []Item
	Reason string
}

// Return is a recorded return; Replayed when an earlier request under the
// same key and body recorded it.
type Return struct {
	*ent.PosReturn
	Replayed bool
}

// Return puts products back in stock once per key, in one transaction: a
// stock movement per product and the return row. The same key with the
// same body answers the recorded return; with another body it is 409
// POS_RETURN_KEY_CONFLICT. Against a sale, returning more of a product than
// the sale sold less what was returned since is 409 POS_RETURN_STALE (the
// clerk's view of the sale is out of date). A failure of the store is 503
// POS_RETURN_UNAVAILABLE: nothing was recorded, retry with the same key.
func (s *Service) Return(ctx context.Context, p ReturnParams) (*Return, error) {
	u, err := Staff(ctx, true, PermAccess, PermInventory)
	if err != nil {
		return nil, err
	}
	p.Reason = strings.TrimSpace(p.Reason)
	if p.Reason == "" || len([]rune(p.Reason)) > 500 {
		return nil, apperr.Validation("reason", "1 to 500 characters")
	}
	if len(p.Items) == 0 || len(p.Items) > MaxLines {
		return nil, apperr.Validation("items", fmt.Sprintf("1 to %d lines", MaxLines))
	}
	qty := map[uuid.UUID]int{}
	for _, it := range p.Items {
		if it.ProductID == uuid.Nil || it.Quantity < 1 || it.Quantity > MaxQuantity {
			return nil, apperr.Validation("items", "a product and a quantity of 1 to 99")
		}
		qty[it.ProductID] += it.Quantity
	}
	ids := make([]uuid.UUID, 0, len(qty))
	for id := range qty {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool { return ids[a].String() < ids[b].String() })
	h := sha256.New()
	fmt.Fprintf(h, "%s|%s", p.SaleID, p.Reason)
	for _, id := range ids {
		fmt.Fprintf(h, "|%s:%d", id, qty[id])
	}
	digest := hex.EncodeToString(h.Sum(nil))

	var out Return
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		if prev, err := tx.PosReturn.Query().Where(posreturn.RequestKey(p.Key)).Only(ctx); err == nil {
			if prev.BodyDigest != digest {
				return conflict("POS_RETURN_KEY_CONFLICT", "this key recorded another return")
			}
			out = Return{PosReturn: prev, Replayed: true}
			return nil
		} else if !ent.IsNotFound(err) {
			return err
		}
		if p.SaleID != uuid.Nil {
			if err := returnable(ctx, tx, p.SaleID, qty); err != nil {
				return err
			}
		}
		ps, err := tx.Product.Query().Where(product.IDIn(ids...)).All(ctx)
		if err != nil {
			return err
		}
		names := map[uuid.UUID]string{}
		for _, x := range ps {
			names[x.ID] = x.Name
		}
		retID := uuid.New()
		var lines []model.PosLine
		for _, id := range ids {
			if _, ok := names[id]; !ok {
				return apperr.NotFound("product").With("product_id", id.String())
			}
			if err := tx.Product.UpdateOneID(id).AddStockOnHand(qty[id]).Exec(ctx); err != nil {
				return err
			}
			pr, err := tx.Product.Get(ctx, id)
			if err != nil {
				return err
			}
			if err := tx.StockMovement.Create().SetProductID(id).SetKind(stockmovement.KindReturn).SetDelta(qty[id]).
				SetStockAfter(pr.StockOnHand).SetReturnID(retID).SetUserID(u.UserID).SetReason(p.Reason).Exec(ctx); err != nil {
				return err
			}
			lines = append(lines, model.PosLine{Kind: "product", ID: id.String(), Name: names[id], Quantity: qty[id]})
		}
		c := tx.PosReturn.Create().SetID(retID).SetRequestKey(p.Key).SetBodyDigest(digest).SetLines(lines).
			SetReason(p.Reason).SetUserID(u.UserID)
		if p.SaleID != uuid.Nil {
			c.SetSaleID(p.SaleID)
		}
		r, err := c.Save(ctx)
		out = Return{PosReturn: r}
		return err
	})
	if err == nil {
		return &out, nil
	}
	if ent.IsConstraintError(err) {
		// A concurrent request under the same key recorded its return first.
		if prev, qerr := s.client.PosReturn.Query().Where(posreturn.RequestKey(p.Key)).Only(ctx); qerr == nil {
			if prev.BodyDigest != digest {
				return nil, conflict("POS_RETURN_KEY_CONFLICT", "this key recorded another return")
			}
			return &Return{PosReturn: prev, Replayed: true}, nil
		}
	}
	var ae *apperr.Error
	if errors.As(err, &ae) {
		return nil, err
	}
	return nil, &apperr.Error{Status: http.StatusServiceUnavailable, Code: "POS_RETURN_UNAVAILABLE",
		Message: "the return could not be recorded; nothing changed, retry with the same key", Cause: err}
}

// returnable checks, under the sale's row lock, that qty is at most what
// the sale sold less what earlier returns against it took back.
func returnable(ctx context.Context, tx *ent.Tx, saleID uuid.UUID, qty map[uuid.UUID]int) error {
	sale, err := tx.PosSale.Query().Where(possale.ID(saleID)).ForUpdate().Only(ctx)
	if ent.IsNotFound(err) {
		return apperr.NotFound("sale")
	}
	if err != nil {
		return err
	}
	left := map[uuid.UUID]int{}
	for _, l := range sale.Lines {
		if l.Kind == "product" {
			left[uuid.MustParse(l.ID)] += l.Quantity
		}
	}
	prev, err := tx.PosReturn.Query().Where(posreturn.SaleID(saleID)).All(ctx)
	if err != nil {
		return err
	}
	for _, r := range prev {
		for _, l := range r.Lines {
			left[uuid.MustParse(l.ID)] -= l.Quantity
		}
	}
	for id, n := range qty {
		if n > left[id] {
			return conflict("POS_RETURN_STALE", "the sale has less of the product left to return").
				With("product_id", id.String()).With("returnable", max(left[id], 0))
		}
	}
	return nil
}

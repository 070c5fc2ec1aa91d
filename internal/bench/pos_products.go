package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/viewer"
)

// The desk's pass preview and the restock of a product: the pass preview
// prices one of the venue's seeded pass types, as a desk sale of it
// charges; the restock adds one unit to one of the bench products (the same
// rows the cash sales take from), as an adjustment movement with its own
// Idempotency-Key.

// posPassTypes holds each venue's active pass types for the pass preview,
// found by the data step beside the products (prepareProducts).
var posPassTypes sync.Map // venue id -> []uuid.UUID

// preparePassTypes finds the active pass types of each venue of ds.
func preparePassTypes(ctx context.Context, ds *DataSet) error {
	client := db.NewClient(ds.Pool)
	for i := range ds.Venues {
		v := &ds.Venues[i]
		vctx := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "bench"})
		ids, err := client.PassType.Query().Where(passtype.Active(true)).Order(passtype.ByID()).IDs(vctx)
		if err != nil {
			return fmt.Errorf("pass types of %s: %w", v.Slug, err)
		}
		if len(ids) == 0 {
			return fmt.Errorf("venue %s has no pass types", v.Slug)
		}
		posPassTypes.Store(v.ID, ids)
	}
	return nil
}

// passPreviewBody is request n's pass preview: one of the venue's pass
// types (found by the data step).
func passPreviewBody(ds *DataSet, n uint64) []byte {
	v := firstVenue(ds)
	ids, _ := posPassTypes.Load(v.ID)
	list, _ := ids.([]uuid.UUID)
	id := uuid.Nil // no pass types found: the preview answers 404 and the step counts errors
	if len(list) > 0 {
		id = list[mix(n^0xbb67ae85)%uint64(len(list))]
	}
	b, _ := json.Marshal(map[string]any{"pass_type_id": id.String()})
	return b
}

// restockPath is request n's product to restock.
func restockPath(ds *DataSet, n uint64) (string, *Venue) {
	v := firstVenue(ds)
	id := v.ProductIDs[mix(n^0xa54ff53a)%uint64(len(v.ProductIDs))]
	return "/api/v1/admin/pos/products/" + id.String() + "/stock-adjustments", v
}

func init() {
	goals := []Goal{{Kind: GoalScaleP99, Limit: 2}, {Kind: GoalPlatformP99, Limit: 1.3}}
	Register(&Op{
		Name: "members-pos-pass-preview",
		Help: "POST /api/v1/admin/pos/pass-preview as staff (pos.access): one of the venue's pass types, " +
			"on each --member-scales venue",
		Family:   FamilyMembers,
		Staff:    true,
		Products: true,
		Request:  posPath("/api/v1/admin/pos/pass-preview"),
		Body:     passPreviewBody,
		Check:    checkEnvelope,
		Goals:    goals,
	})
	Register(&Op{
		Name: "members-pos-restock",
		Help: "POST /api/v1/admin/pos/products/{id}/stock-adjustments as staff (products.manage_inventory), restock of one unit, " +
			"a new Idempotency-Key each, on each --member-scales venue",
		Family:   FamilyMembers,
		Staff:    true,
		Products: true,
		Request:  restockPath,
		Body: func(*DataSet, uint64) []byte {
			return []byte(`{"kind":"restock","quantity":1,"reason":"bench delivery"}`)
		},
		Header: newIdempotencyKey,
		Check:  checkEnvelope,
		Goals:  goals,
	})
}

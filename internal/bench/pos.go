package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent/product"
	"github.com/venueplatform/venue/internal/db"
	"github.com/venueplatform/venue/internal/pos"
	"github.com/venueplatform/venue/internal/viewer"
)

// The checkout and desk ops price and sell what every venue has: the
// seeded pass types (the member's checkout preview) and the desk's
// products, which the seed does not write: the data step creates
// ProductsPerVenue of them through package pos, each with ProductStock
// units, enough for every cash sale of a run.

// ProductsPerVenue is how many products the data step gives each venue.
const ProductsPerVenue = 20

// ProductStock is each product's initial stock.
const ProductStock = 1_000_000

// productPriceMinor is the price of product k (a few tens of kroner).
func productPriceMinor(k int) int64 { return int64(2000 + 500*k) }

// previewPassTypes are the seeded pass types the checkout preview prices
// (the flexible membership answers without a quote and is left out).
var previewPassTypes = []string{"drop-in", "10-clip-card", "unlimited-monthly"}

// prepareProducts finds each venue's bench products, or creates them with
// their price in the venue's currency and their stock, and fills
// Venue.ProductIDs.
func prepareProducts(ctx context.Context, ds *DataSet) error {
	client := db.NewClient(ds.Pool)
	for i := range ds.Venues {
		v := &ds.Venues[i]
		vctx := viewer.NewContext(ctx, viewer.Operator{Org: v.ID, Name: "bench"})
		ids, err := client.Product.Query().Where(product.SkuHasPrefix("bench-")).Order(product.BySku()).IDs(vctx)
		if err != nil {
			return fmt.Errorf("products of %s: %w", v.Slug, err)
		}
		if len(ids) < ProductsPerVenue {
			ids, err = createProducts(vctx, ds, v, len(ids))
			if err != nil {
				return fmt.Errorf("products of %s: %w", v.Slug, err)
			}
		}
		v.ProductIDs = ids
	}
	return preparePassTypes(ctx, ds)
}

// createProducts creates v's products from the k-th on and returns all of
// them.
func createProducts(ctx context.Context, ds *DataSet, v *Venue, from int) ([]uuid.UUID, error) {
	var currency string
	var user uuid.UUID
	err := ds.Pool.QueryRow(ctx, `SELECT o.currency, m.user_id FROM organizations o JOIN members m ON m.organization_id = o.id
		WHERE o.id = $1 ORDER BY m.id LIMIT 1`, v.ID).Scan(&currency, &user)
	if err != nil {
		return nil, err
	}
	client := db.NewClient(ds.Pool)
	svc := pos.New(client, nil)
	for k := from; k < ProductsPerVenue; k++ {
		_, err := svc.CreateProduct(ctx, user, pos.NewProduct{
			Name: fmt.Sprintf("Bench product %d", k+1), SKU: fmt.Sprintf("bench-%02d", k+1), InitialStock: ProductStock,
			Prices: []pos.Price{{Currency: currency, PriceMinor: productPriceMinor(k)}},
		})
		if err != nil {
			return nil, err
		}
	}
	if _, err := ds.Pool.Exec(ctx, "ANALYZE products, product_prices, stock_movements"); err != nil {
		return nil, err
	}
	return client.Product.Query().Where(product.SkuHasPrefix("bench-")).Order(product.BySku()).IDs(ctx)
}

// cartBody is request n's cart: one to three lines of the venue's
// products, one to three of each.
func cartBody(ds *DataSet, n uint64, extra map[string]any) []byte {
	v := firstVenue(ds)
	h := mix(n ^ 0x6a09e667)
	lines := 1 + int(h%3)
	items := make([]map[string]any, 0, lines)
	first := (h >> 8) % uint64(len(v.ProductIDs))
	for k := range lines {
		id := v.ProductIDs[(first+uint64(k))%uint64(len(v.ProductIDs))]
		items = append(items, map[string]any{"product_id": id.String(), "quantity": 1 + int((h>>(16+2*k))%3)})
	}
	body := map[string]any{"items": items}
	for k, x := range extra {
		body[k] = x
	}
	b, _ := json.Marshal(body)
	return b
}

// checkoutPreviewPath is request n of the member's checkout preview: one
// of the seeded pass types.
func checkoutPreviewPath(ds *DataSet, n uint64) (string, *Venue) {
	slug := previewPassTypes[mix(n^0x3c6ef372)%uint64(len(previewPassTypes))]
	return "/api/v1/me/checkout/preview?pass_type_slug=" + url.QueryEscape(slug), firstVenue(ds)
}

// memberVenue names the venue the member acts in.
func memberVenue(h http.Header, v *Venue, _ uint64) { h.Set("X-Organization-ID", v.ID.String()) }

// newIdempotencyKey gives each sale its own key: a sale is a write.
func newIdempotencyKey(h http.Header, _ *Venue, _ uint64) { h.Set("Idempotency-Key", uuid.NewString()) }

// posPath returns the desk operation's path for the set's venue.
func posPath(path string) func(ds *DataSet, n uint64) (string, *Venue) {
	return func(ds *DataSet, _ uint64) (string, *Venue) { return path, firstVenue(ds) }
}

func init() {
	goals := []Goal{{Kind: GoalScaleP99, Limit: 2}, {Kind: GoalPlatformP99, Limit: 1.3}}
	Register(&Op{
		Name: "members-checkout-preview",
		Help: "GET /api/v1/me/checkout/preview (a signed-in member, X-Organization-ID): drop-in, clip card or monthly membership, " +
			"on each --member-scales venue",
		Family:  FamilyMembers,
		Bearer:  true,
		Request: checkoutPreviewPath,
		Header:  memberVenue,
		Check:   checkEnvelope,
		Goals:   goals,
	})
	Register(&Op{
		Name: "members-pos-preview",
		Help: "POST /api/v1/admin/pos/catalog-preview as staff (pos.access): one to three of the venue's products, " +
			"on each --member-scales venue",
		Family:   FamilyMembers,
		Staff:    true,
		Products: true,
		Request:  posPath("/api/v1/admin/pos/catalog-preview"),
		Body:     func(ds *DataSet, n uint64) []byte { return cartBody(ds, n, nil) },
		Check:    checkEnvelope,
		Goals:    goals,
	})
	Register(&Op{
		Name: "members-pos-cash-sale",
		Help: "POST /api/v1/admin/pos/sale as staff (pos.sell), method cash, a new Idempotency-Key each: the preview's carts, " +
			"on each --member-scales venue (each sale takes stock)",
		Family:   FamilyMembers,
		Staff:    true,
		Products: true,
		Request:  posPath("/api/v1/admin/pos/sale"),
		Body:     func(ds *DataSet, n uint64) []byte { return cartBody(ds, n, map[string]any{"method": "cash"}) },
		Header:   newIdempotencyKey,
		Check:    checkEnvelope,
		Goals:    goals,
	})
}

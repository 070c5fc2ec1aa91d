package pos

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/member"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/ent/product"
	"github.com/venueplatform/venue/ent/productprice"
	"github.com/venueplatform/venue/ent/staffpin"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/identity/password"
)

// pinPattern is a kiosk PIN: 4 to 8 digits.
var pinPattern = regexp.MustCompile(`^[0-9]{4,8}$`)

// pinHasher hashes kiosk PINs with the service's password parameters.
var pinHasher = sync.OnceValues(func() (*password.Hasher, error) {
	return password.NewHasher(password.DefaultParams, 0)
})

// SetPin sets the calling staff member's own kiosk PIN at the venue
// (replacing an earlier one). Needs pos.access.
func (s *Service) SetPin(ctx context.Context, pin string) error {
	u, err := Staff(ctx, false, PermAccess)
	if err != nil {
		return err
	}
	if !pinPattern.MatchString(pin) {
		return apperr.Validation("pin", "4 to 8 digits")
	}
	h, err := pinHasher()
	if err != nil {
		return err
	}
	enc, err := h.Hash(ctx, pin)
	if err != nil {
		return err
	}
	return s.client.StaffPin.Create().SetUserID(u.UserID).SetPinHash(enc).
		OnConflictColumns(staffpin.FieldOrganizationID, staffpin.FieldUserID).UpdatePinHash().Exec(ctx)
}

// CheckPin reports whether pin is the kiosk PIN of staff member staffID at
// the venue, who must still hold pos.access there. An unknown staff member,
// one without a PIN or without the permission, and a wrong PIN are all
// "not valid" after the same argon2id work: the answer never tells which
// part was wrong. Needs pos.access; the face rate-limits it.
func (s *Service) CheckPin(ctx context.Context, staffID uuid.UUID, pin string) (bool, error) {
	if _, err := Staff(ctx, false, PermAccess); err != nil {
		return false, err
	}
	h, err := pinHasher()
	if err != nil {
		return false, err
	}
	row, err := s.client.StaffPin.Query().Where(staffpin.UserID(staffID)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return false, err
	}
	m, merr := s.client.Member.Query().Where(member.UserID(staffID), member.StatusEQ(member.StatusActive),
		member.RoleIn(member.RoleStaff, member.RoleOwner)).Only(ctx)
	if merr != nil && !ent.IsNotFound(merr) {
		return false, merr
	}
	allowed := merr == nil && (m.Role == member.RoleOwner || slices.Contains(m.Permissions, PermAccess))
	if row == nil || !pinPattern.MatchString(pin) {
		_ = h.DummyVerify(ctx, pin)
		return false, ctx.Err()
	}
	if err := h.Verify(ctx, pin, row.PinHash); err != nil {
		if err == password.ErrMismatch {
			return false, nil
		}
		return false, err
	}
	return allowed, nil
}

// KioskTile is one pinned item as the self-service kiosk shows it: its
// current price in the venue's currency (a product's price book of that
// currency; a pass type's own price and currency) and whether it can be
// bought now (Reason out_of_stock or no_price when not).
type KioskTile struct {
	Kind        string // pass_type or product
	ID          uuid.UUID
	Name        string
	Currency    string
	PriceMinor  *int64 // nil without a price in the venue's currency
	StockOnHand *int   // products only
	Available   bool
	Reason      string // out_of_stock, no_price; empty when available
}

// Kiosk is what the venue's self-service kiosk shows: the venue, its
// business date, the quick-sale pins resolved to tiles in order (pins of
// items deactivated since are left out), the payment methods the desk takes
// and whether the caller has a kiosk PIN to unlock staff mode.
type Kiosk struct {
	VenueName    string
	Timezone     string
	Currency     string
	BusinessDate time.Time
	Tiles        []KioskTile
	Methods      []string
	PinSet       bool
}

// KioskMethods are the payment methods a desk sale takes.
var KioskMethods = []string{"cash", "gift_card"}

// Kiosk reads the kiosk's screen. Needs pos.access.
func (s *Service) Kiosk(ctx context.Context) (*Kiosk, error) {
	u, err := Staff(ctx, false, PermAccess)
	if err != nil {
		return nil, err
	}
	org, err := s.client.Organization.Query().Only(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: kiosk venue: %w", err)
	}
	day, _, err := venueDay(ctx, s.client, s.now())
	if err != nil {
		return nil, err
	}
	pins, err := s.Favorites(ctx)
	if err != nil {
		return nil, err
	}
	var ptIDs, prIDs []uuid.UUID
	for _, p := range pins {
		id, err := uuid.Parse(p.ID)
		if err != nil {
			continue
		}
		if p.Kind == "pass_type" {
			ptIDs = append(ptIDs, id)
		} else {
			prIDs = append(prIDs, id)
		}
	}
	pts, err := s.client.PassType.Query().Where(passtype.IDIn(ptIDs...), passtype.Active(true)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: kiosk pass types: %w", err)
	}
	prs, err := s.client.Product.Query().Where(product.IDIn(prIDs...), product.Active(true)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: kiosk products: %w", err)
	}
	prices, err := s.client.ProductPrice.Query().
		Where(productprice.ProductIDIn(prIDs...), productprice.Currency(org.Currency)).All(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: kiosk prices: %w", err)
	}
	ptBy := map[uuid.UUID]*ent.PassType{}
	for _, pt := range pts {
		ptBy[pt.ID] = pt
	}
	prBy := map[uuid.UUID]*ent.Product{}
	for _, p := range prs {
		prBy[p.ID] = p
	}
	priceBy := map[uuid.UUID]int64{}
	for _, p := range prices {
		priceBy[p.ProductID] = p.PriceMinor
	}
	out := &Kiosk{VenueName: org.Name, Timezone: org.Timezone, Currency: org.Currency, BusinessDate: day,
		Tiles: []KioskTile{}, Methods: KioskMethods}
	for _, p := range pins {
		id, _ := uuid.Parse(p.ID)
		switch p.Kind {
		case "pass_type":
			if pt := ptBy[id]; pt != nil {
				price := pt.PriceMinor
				out.Tiles = append(out.Tiles, KioskTile{Kind: p.Kind, ID: id, Name: pt.Name, Currency: pt.Currency,
					PriceMinor: &price, Available: true})
			}
		case "product":
			pr := prBy[id]
			if pr == nil {
				continue
			}
			stock := pr.StockOnHand
			t := KioskTile{Kind: p.Kind, ID: id, Name: pr.Name, Currency: org.Currency, StockOnHand: &stock, Available: true}
			if price, ok := priceBy[id]; ok {
				t.PriceMinor = &price
			} else {
				t.Available, t.Reason = false, "no_price"
			}
			if t.Available && stock <= 0 {
				t.Available, t.Reason = false, "out_of_stock"
			}
			out.Tiles = append(out.Tiles, t)
		}
	}
	n, err := s.client.StaffPin.Query().Where(staffpin.UserID(u.UserID)).Count(ctx)
	if err != nil {
		return nil, fmt.Errorf("pos: kiosk pin: %w", err)
	}
	out.PinSet = n > 0
	return out, nil
}

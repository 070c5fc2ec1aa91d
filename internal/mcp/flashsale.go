package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/flashsale"
	"github.com/venueplatform/venue/ent/passtype"
	"github.com/venueplatform/venue/internal/input"
	"github.com/venueplatform/venue/internal/mcptools"
	"github.com/venueplatform/venue/internal/model"
)

// flashSaleOut is the result of create_flash_sale.
type flashSaleOut struct {
	ID                    uuid.UUID            `json:"id"`
	Name                  string               `json:"name"`
	CommercialRule        model.CommercialRule `json:"commercial_rule"`
	ProductFamily         string               `json:"product_family"`
	ApplicablePassTypeIDs []uuid.UUID          `json:"applicable_pass_type_ids"`
	StartsAt              time.Time            `json:"starts_at"`
	EndsAt                time.Time            `json:"ends_at"`
	Placements            []string             `json:"placements"`
	CreatedByUserID       *uuid.UUID           `json:"created_by_user_id"`
}

// auditDetails adds the new offer's id to the call's audit entry.
func (f flashSaleOut) auditDetails() map[string]any {
	return map[string]any{"flash_sale_id": f.ID.String()}
}

// createFlashSale creates exactly one FlashSale in the key's venue (the
// create hook takes the venue from the viewer) and nothing else: no
// campaign, email or SMS. Pass types of another venue are -32005, exactly
// like unknown ones; the venue wall rejects them again at the edge.
func createFlashSale(ctx context.Context, e *env, in mcptools.CreateFlashSale) (any, error) {
	starts, ends, err := offerWindow(in, e.now)
	if err != nil {
		return nil, err
	}
	applicable, err := parseIDs(in.ApplicablePassTypeIDs, "/applicable_pass_type_ids")
	if err != nil {
		return nil, err
	}
	waived, err := parseIDs(in.CommercialRule.WaiveRegistrationFeePassTypeIDs, "/commercial_rule/waiveRegistrationFeePassTypeIds")
	if err != nil {
		return nil, err
	}
	pts, err := e.client.PassType.Query().Where(passtype.IDIn(applicable...)).All(ctx)
	if err != nil {
		return nil, err
	}
	if len(pts) != len(applicable) {
		return nil, errNotFound("pass_type")
	}
	var vs []violation
	for _, pt := range pts {
		if !pt.IsRecurring {
			i := slices.Index(applicable, pt.ID)
			vs = append(vs, violation{Path: fmt.Sprintf("/applicable_pass_type_ids/%d", i),
				Message: "pass type is not recurring (product_family is recurring)"})
		}
	}
	if len(vs) > 0 {
		slices.SortFunc(vs, func(a, b violation) int { return strings.Compare(a.Path, b.Path) })
		return nil, errInvalidParams("applicable_pass_type_ids", vs...)
	}
	if len(waived) > 0 {
		n, err := e.client.PassType.Query().Where(passtype.IDIn(waived...)).Count(ctx)
		if err != nil {
			return nil, err
		}
		if n != len(waived) {
			return nil, errNotFound("pass_type")
		}
	}
	r := in.CommercialRule
	rule := model.CommercialRule{
		Version: r.Version, Kind: r.Kind,
		Pricing:                         model.RulePricing{Mode: r.Pricing.Mode, Price: r.Pricing.Price},
		Currency:                        r.Currency,
		VatMode:                         r.VatMode,
		WaiveRegistrationFeePassTypeIDs: append([]string{}, r.WaiveRegistrationFeePassTypeIDs...),
		Duration:                        model.RuleDuration{Mode: r.Duration.Mode, EndsAt: r.Duration.EndsAt},
		FollowingPrice:                  model.RuleFollow{Mode: r.FollowingPrice.Mode},
	}
	fs, err := e.client.FlashSale.Create().
		SetName(in.Name).
		SetCommercialRule(rule).
		SetProductFamily(flashsale.ProductFamily(in.ProductFamily)).
		SetStartsAt(starts).
		SetEndsAt(ends).
		SetPlacements(in.Placements).
		SetPresentation(model.Presentation{Style: "banner", ShowTimeToEnd: true}).
		SetNillableCreatedByUserID(e.caller.key.CreatedBy).
		AddApplicablePassTypeIDs(applicable...).
		Save(ctx)
	if err != nil {
		return nil, err
	}
	return presentFlashSale(fs, applicable), nil
}

// offerWindow reads starts_at and ends_at (RFC 3339 in UTC, as the schema
// demands) and checks the cross-field rules: start before end, end ahead.
func offerWindow(in mcptools.CreateFlashSale, now time.Time) (time.Time, time.Time, error) {
	starts, err1 := time.Parse(time.RFC3339, in.StartsAt)
	ends, err2 := time.Parse(time.RFC3339, in.EndsAt)
	if err1 != nil || err2 != nil {
		return starts, ends, errInvalidParams("timestamps", violation{Path: "/starts_at", Message: "not an RFC 3339 timestamp"})
	}
	if !starts.Before(ends) {
		return starts, ends, errInvalidParams("starts_at must be before ends_at",
			violation{Path: "/ends_at", Message: "must be after starts_at"})
	}
	if !ends.After(now) {
		return starts, ends, errInvalidParams("ends_at is in the past",
			violation{Path: "/ends_at", Message: "must be in the future"})
	}
	return starts.UTC(), ends.UTC(), nil
}

func parseIDs(ss []string, path string) ([]uuid.UUID, error) {
	out := make([]uuid.UUID, len(ss))
	for i, s := range ss {
		id, err := input.UUID(s)
		if err != nil {
			return nil, errInvalidParams("ids", violation{Path: fmt.Sprintf("%s/%d", path, i), Message: err.Reason})
		}
		out[i] = id
	}
	return out, nil
}

func presentFlashSale(fs *ent.FlashSale, applicable []uuid.UUID) flashSaleOut {
	return flashSaleOut{
		ID: fs.ID, Name: fs.Name, CommercialRule: fs.CommercialRule, ProductFamily: string(fs.ProductFamily),
		ApplicablePassTypeIDs: applicable, StartsAt: fs.StartsAt.UTC(), EndsAt: fs.EndsAt.UTC(),
		Placements: fs.Placements, CreatedByUserID: fs.CreatedByUserID,
	}
}

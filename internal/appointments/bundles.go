package appointments

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/service"
	"github.com/venueplatform/venue/ent/servicebundle"
	"github.com/venueplatform/venue/ent/servicebundleitem"
	"github.com/venueplatform/venue/ent/servicevariant"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
)

// Bundle limits: two to eight services (as a visit).
const (
	MinBundleItems = 2
	MaxBundleItems = 8
)

// NewBundle is a combo package to create.
type NewBundle struct {
	Name        string
	Description string
	PriceAmount float64 // major units of the services' currency
	IsActive    *bool
	SortOrder   int
	Items       []VisitItem
}

// BundleView is a bundle with its items, their services and variants
// loaded.
type BundleView struct {
	Bundle *ent.ServiceBundle
	Items  []BundleItemView
}

// BundleItemView is one item of a bundle with what it costs and lasts alone.
type BundleItemView struct {
	Item       *ent.ServiceBundleItem
	Service    *ent.Service
	Duration   int
	PriceMinor int64
}

// TotalMinutes is the bundle's time (its services' durations).
func (b BundleView) TotalMinutes() int {
	n := 0
	for _, it := range b.Items {
		n += it.Duration
	}
	return n
}

// SeparateMinor is what the bundle's services cost one by one.
func (b BundleView) SeparateMinor() int64 {
	var n int64
	for _, it := range b.Items {
		n += it.PriceMinor
	}
	return n
}

// CreateBundle creates a bundle of the viewer's venue: 2 to 8 services (or
// variants) of the venue in order, no service twice, one currency (else 400
// VALIDATION_ERROR); an unknown or foreign service or variant is 404.
func CreateBundle(ctx context.Context, client *ent.Client, p NewBundle) (*BundleView, error) {
	if len(p.Items) < MinBundleItems || len(p.Items) > MaxBundleItems {
		return nil, apperr.Validation("items", "a bundle has 2 to 8 services")
	}
	seen := map[[2]uuid.UUID]bool{}
	currency := ""
	for i, it := range p.Items {
		k := [2]uuid.UUID{it.ServiceID}
		if it.VariantID != nil {
			k[1] = *it.VariantID
		}
		if seen[k] {
			return nil, apperr.Validation(fmt.Sprintf("items[%d]", i), "a service appears once in a bundle")
		}
		seen[k] = true
		svc, err := client.Service.Query().Where(service.ID(it.ServiceID)).Only(ctx)
		if ent.IsNotFound(err) {
			return nil, ErrServiceNotFound
		}
		if err != nil {
			return nil, fmt.Errorf("appointments: bundle service: %w", err)
		}
		if it.VariantID != nil {
			if ok, err := client.ServiceVariant.Query().Where(servicevariant.ID(*it.VariantID), servicevariant.ServiceID(svc.ID)).Exist(ctx); err != nil {
				return nil, fmt.Errorf("appointments: bundle variant: %w", err)
			} else if !ok {
				return nil, apperr.NotFound("variant")
			}
		}
		if currency != "" && svc.Currency != currency {
			return nil, apperr.Validation(fmt.Sprintf("items[%d]", i), "a bundle's services share one currency")
		}
		currency = svc.Currency
	}
	var id uuid.UUID
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		create := c.ServiceBundle.Create().SetName(p.Name).SetDescription(p.Description).
			SetPriceMinor(money.ToMinor(p.PriceAmount, currency)).SetCurrency(currency).SetSortOrder(p.SortOrder)
		if p.IsActive != nil {
			create.SetIsActive(*p.IsActive)
		}
		b, err := create.Save(ctx)
		if err != nil {
			return err
		}
		id = b.ID
		for i, it := range p.Items {
			if err := c.ServiceBundleItem.Create().SetBundleID(b.ID).SetServiceID(it.ServiceID).
				SetNillableVariantID(it.VariantID).SetPosition(i).Exec(ctx); err != nil {
				return err
			}
		}
		return serviceAudit(ctx, c, "service_bundle.created", b.ID, map[string]any{"name": b.Name, "items": len(p.Items)})
	})
	if err != nil {
		return nil, err
	}
	list, err := bundles(ctx, client, true, &id)
	if err != nil {
		return nil, err
	}
	return &list[0], nil
}

// Bundles lists the viewer's venue's bundles in display order (inactive
// ones too when all).
func Bundles(ctx context.Context, client *ent.Client, all bool) ([]BundleView, error) {
	return bundles(ctx, client, all, nil)
}

func bundles(ctx context.Context, client *ent.Client, all bool, only *uuid.UUID) ([]BundleView, error) {
	q := client.ServiceBundle.Query().WithItems(func(q *ent.ServiceBundleItemQuery) {
		q.WithService().WithVariant().Order(ent.Asc(servicebundleitem.FieldPosition))
	}).Order(ent.Asc(servicebundle.FieldSortOrder), ent.Asc(servicebundle.FieldName), ent.Asc(servicebundle.FieldID)).Limit(1000)
	if !all {
		q.Where(servicebundle.IsActive(true))
	}
	if only != nil {
		q.Where(servicebundle.ID(*only))
	}
	rows, err := q.All(ctx)
	if err != nil {
		return nil, fmt.Errorf("appointments: bundles: %w", err)
	}
	out := make([]BundleView, 0, len(rows))
	for _, b := range rows {
		v := BundleView{Bundle: b}
		for _, it := range b.Edges.Items {
			iv := BundleItemView{Item: it, Service: it.Edges.Service}
			if vr := it.Edges.Variant; vr != nil {
				iv.Duration, iv.PriceMinor = vr.DurationMinutes, vr.PriceMinor
			} else if iv.Service != nil {
				iv.Duration, iv.PriceMinor = iv.Service.DurationMinutes, iv.Service.PriceMinor
			}
			v.Items = append(v.Items, iv)
		}
		out = append(out, v)
	}
	return out, nil
}

package appointments

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/service"
	"github.com/venueplatform/venue/ent/servicebundle"
	"github.com/venueplatform/venue/ent/servicebundleitem"
	"github.com/venueplatform/venue/ent/servicevariant"
	entvisit "github.com/venueplatform/venue/ent/visit"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments"
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
	currency, err := checkBundleItems(ctx, client, p.Items)
	if err != nil {
		return nil, err
	}
	var id uuid.UUID
	err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
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

// BundlePatch holds a bundle's fields to set (nil: unchanged); Items, when
// set, replaces the whole list.
type BundlePatch struct {
	Name        *string
	Description *string
	PriceAmount *float64
	IsActive    *bool
	SortOrder   *int
	Items       []VisitItem
}

// Empty reports whether the patch sets nothing.
func (p BundlePatch) Empty() bool {
	return p.Name == nil && p.Description == nil && p.PriceAmount == nil && p.IsActive == nil &&
		p.SortOrder == nil && p.Items == nil
}

// checkBundleItems applies CreateBundle's rules to items and returns their
// shared currency.
func checkBundleItems(ctx context.Context, client *ent.Client, items []VisitItem) (string, error) {
	if len(items) < MinBundleItems || len(items) > MaxBundleItems {
		return "", apperr.Validation("items", "a bundle has 2 to 8 services")
	}
	seen := map[[2]uuid.UUID]bool{}
	currency := ""
	for i, it := range items {
		k := [2]uuid.UUID{it.ServiceID}
		if it.VariantID != nil {
			k[1] = *it.VariantID
		}
		if seen[k] {
			return "", apperr.Validation(fmt.Sprintf("items[%d]", i), "a service appears once in a bundle")
		}
		seen[k] = true
		svc, err := client.Service.Query().Where(service.ID(it.ServiceID)).Only(ctx)
		if ent.IsNotFound(err) {
			return "", ErrServiceNotFound
		}
		if err != nil {
			return "", fmt.Errorf("appointments: bundle service: %w", err)
		}
		if it.VariantID != nil {
			if ok, err := client.ServiceVariant.Query().Where(servicevariant.ID(*it.VariantID), servicevariant.ServiceID(svc.ID)).Exist(ctx); err != nil {
				return "", fmt.Errorf("appointments: bundle variant: %w", err)
			} else if !ok {
				return "", apperr.NotFound("variant")
			}
		}
		if currency != "" && svc.Currency != currency {
			return "", apperr.Validation(fmt.Sprintf("items[%d]", i), "a bundle's services share one currency")
		}
		currency = svc.Currency
	}
	return currency, nil
}

// UpdateBundle changes bundle id of the viewer's venue (an empty patch is
// 400; an unknown or foreign bundle 404). New items follow CreateBundle's
// rules and replace the old ones in the same transaction; a price is in the
// (new) items' currency.
func UpdateBundle(ctx context.Context, client *ent.Client, id uuid.UUID, p BundlePatch) (*BundleView, error) {
	if p.Empty() {
		return nil, apperr.Validation("body", "the patch changes nothing")
	}
	b, err := client.ServiceBundle.Get(ctx, id)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("bundle")
	}
	if err != nil {
		return nil, fmt.Errorf("appointments: bundle: %w", err)
	}
	currency := b.Currency
	if p.Items != nil {
		if currency, err = checkBundleItems(ctx, client, p.Items); err != nil {
			return nil, err
		}
	}
	if currency != b.Currency && p.PriceAmount == nil {
		return nil, apperr.Validation("price_amount", "a bundle whose services change currency needs its price in that currency")
	}
	err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		upd := c.ServiceBundle.UpdateOneID(id).SetNillableName(p.Name).SetNillableDescription(p.Description).
			SetNillableIsActive(p.IsActive).SetNillableSortOrder(p.SortOrder).SetCurrency(currency)
		if p.PriceAmount != nil {
			upd.SetPriceMinor(money.ToMinor(*p.PriceAmount, currency))
		}
		if err := upd.Exec(ctx); err != nil {
			return err
		}
		if p.Items != nil {
			if _, err := c.ServiceBundleItem.Delete().Where(servicebundleitem.BundleID(id)).Exec(ctx); err != nil {
				return err
			}
			for i, it := range p.Items {
				if err := c.ServiceBundleItem.Create().SetBundleID(id).SetServiceID(it.ServiceID).
					SetNillableVariantID(it.VariantID).SetPosition(i).Exec(ctx); err != nil {
					return err
				}
			}
		}
		return serviceAudit(ctx, c, "service_bundle.updated", id, map[string]any{"items_replaced": p.Items != nil})
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

// DeleteBundle removes bundle id of the viewer's venue with its items; a
// bundle that booked visits name is deactivated instead (deactivated true),
// so their history keeps it.
func DeleteBundle(ctx context.Context, client *ent.Client, id uuid.UUID) (deactivated bool, err error) {
	err = events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		b, err := c.ServiceBundle.Get(ctx, id)
		if ent.IsNotFound(err) {
			return apperr.NotFound("bundle")
		}
		if err != nil {
			return err
		}
		used, err := c.Visit.Query().Where(entvisit.BundleID(id)).Exist(ctx)
		if err != nil {
			return err
		}
		deactivated = used
		if used {
			err = c.ServiceBundle.UpdateOne(b).SetIsActive(false).Exec(ctx)
		} else {
			if _, err = c.ServiceBundleItem.Delete().Where(servicebundleitem.BundleID(id)).Exec(ctx); err == nil {
				err = c.ServiceBundle.DeleteOne(b).Exec(ctx)
			}
		}
		if err != nil {
			return err
		}
		return serviceAudit(ctx, c, "service_bundle.deleted", id, map[string]any{"deactivated": used})
	})
	return deactivated, err
}

// BundleBooking books a combo package as a visit.
type BundleBooking struct {
	BundleID   uuid.UUID
	ProviderID *uuid.UUID // nil: any free provider per service
	LocationID *uuid.UUID
	Start      time.Time
	// The totals the member saw (the bundle's price; what is due at booking).
	ExpectedTotalMinor int64
	ExpectedDueMinor   int64
	ExpectedCurrency   string
}

// shares splits price over items in proportion to their own prices (equal
// shares when they are all free), the rounding on the last item, so the
// shares add up to price exactly.
func shares(price int64, items []BundleItemView) []int64 {
	out := make([]int64, len(items))
	var sum int64
	for _, it := range items {
		sum += it.PriceMinor
	}
	var given int64
	for i, it := range items {
		switch {
		case i == len(items)-1:
			out[i] = price - given
		case sum == 0:
			out[i] = price / int64(len(items))
		default:
			out[i] = price * it.PriceMinor / sum
		}
		given += out[i]
	}
	return out
}

// BookBundle books the active bundle p.BundleID of the viewer's venue for
// the actor as a visit: its services in order as BookVisit places them,
// all or nothing, priced at the bundle's price (shares). The venue's
// grouped-visit setting does not apply (the bundle is the venue's own
// offer). Unknown, foreign or inactive bundles are 404; totals other than
// the expected are 409 QUOTE_STALE; payment due at booking is 402
// PAYMENT_REQUIRED (CheckoutBundle takes it).
func BookBundle(ctx context.Context, client *ent.Client, a Actor, p BundleBooking, now time.Time) (*ent.Visit, []*ent.Appointment, error) {
	r, err := bundleRequest(ctx, client, p)
	if err != nil {
		return nil, nil, err
	}
	v, err := LoadVenue(ctx, client)
	if err != nil {
		return nil, nil, err
	}
	return bookVisit(ctx, client, v, a, r, now, nil)
}

// bundleRequest is the visit request of booking p: the active bundle's
// services in order at their shares of its price (404 for an unknown,
// foreign or inactive bundle).
func bundleRequest(ctx context.Context, client *ent.Client, p BundleBooking) (VisitRequest, error) {
	list, err := bundles(ctx, client, false, &p.BundleID)
	if err != nil {
		return VisitRequest{}, err
	}
	if len(list) == 0 {
		return VisitRequest{}, apperr.NotFound("bundle")
	}
	b := list[0]
	r := VisitRequest{ProviderID: p.ProviderID, LocationID: p.LocationID, Start: p.Start,
		ExpectedTotalMinor: p.ExpectedTotalMinor, ExpectedDueMinor: p.ExpectedDueMinor, ExpectedCurrency: p.ExpectedCurrency,
		bundle: &b.Bundle.ID, prices: shares(b.Bundle.PriceMinor, b.Items)}
	for _, it := range b.Items {
		r.Items = append(r.Items, VisitItem{ServiceID: it.Item.ServiceID, VariantID: it.Item.VariantID})
	}
	return r, nil
}

// BundleCheckoutParams are a member's online checkout of a combo package.
type BundleCheckoutParams struct {
	BundleBooking
	PaymentMethodID string
	RequestKey      string
}

// CheckoutBundle books the active bundle p.BundleID as BookBundle places
// it, all or nothing, holds the visit and its appointments in
// pending_payment for HoldFor and charges what is due at booking through
// pay: each service's deposit (the variant's, else the service's), capped
// at its share of the bundle's price, or the share. It is the visit
// checkout of the bundle's visit: the same subject (PurposeVisit), so
// ConfirmVisitCheckout, Stripe's event and reconcile book it once. A retry
// with the same key finds its visit; nothing due online is 422
// VALIDATION_FAILED (nothing_due_online).
func CheckoutBundle(ctx context.Context, client *ent.Client, pay *payments.Service, a Actor, p BundleCheckoutParams, now time.Time) (*VisitCheckoutResult, error) {
	return checkoutVisit(ctx, client, pay, a, p.RequestKey, p.PaymentMethodID, now, func() (VisitRequest, error) {
		return bundleRequest(ctx, client, p.BundleBooking)
	})
}

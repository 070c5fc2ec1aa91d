package guests

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/classguestprice"
	"github.com/venueplatform/venue/ent/classinstance"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/audit"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/viewer"
)

// Audit actions of a class's guest price.
const (
	AuditClassGuestPriceSet     = "class.guest_price_set"
	AuditClassGuestPriceCleared = "class.guest_price_cleared"
)

// MaxClassPriceMinor bounds a class's guest price (minor units).
const MaxClassPriceMinor = 100_000_000

// ClassPrice is a class's guest price as staff see it: their own price of
// the class (Override, nil when none is set) and the price a guest place
// made now would be frozen at (Effective, nil when the venue has none) with
// the rule that priced it (Source*).
type ClassPrice struct {
	ClassID   uuid.UUID
	Override  *Price
	Effective *Price
	Source    string
}

// ClassPrice reads class classID's guest price in the viewer's venue; an
// unknown or another venue's class is 404.
func (s *Service) ClassPrice(ctx context.Context, classID uuid.UUID) (*ClassPrice, error) {
	if _, err := s.client.ClassInstance.Get(ctx, classID); ent.IsNotFound(err) {
		return nil, apperr.NotFound("class")
	} else if err != nil {
		return nil, fmt.Errorf("guests: class: %w", err)
	}
	return classPriceOf(ctx, s.client, classID)
}

// SetClassPrice sets staff's guest price of class classID to amountMinor in
// currency (the venue's currency, else 422 VALIDATION_FAILED with
// details.reason currency_mismatch), or clears it when amountMinor is nil
// (the venue's default rule applies again). An amount below 1 or above
// MaxClassPriceMinor is 400 VALIDATION_ERROR. A cancelled class is 422
// CLASS_CANCELLED, one that has ended 422 CLASS_ENDED; an unknown or another
// venue's class 404. Guest places already made keep their frozen price.
// The change and its audit entry are written in one transaction.
func (s *Service) SetClassPrice(ctx context.Context, classID uuid.UUID, amountMinor *int64, currency string) (*ClassPrice, error) {
	return s.setClassPrice(ctx, classID, amountMinor, currency, true)
}

func (s *Service) setClassPrice(ctx context.Context, classID uuid.UUID, amountMinor *int64, currency string, retry bool) (*ClassPrice, error) {
	if amountMinor != nil && (*amountMinor < 1 || *amountMinor > MaxClassPriceMinor) {
		return nil, apperr.Validation("amount_minor", fmt.Sprintf("a guest price is 1 to %d minor units", MaxClassPriceMinor))
	}
	cl, err := s.client.ClassInstance.Get(ctx, classID)
	if ent.IsNotFound(err) {
		return nil, apperr.NotFound("class")
	}
	if err != nil {
		return nil, fmt.Errorf("guests: class: %w", err)
	}
	switch {
	case cl.Status == classinstance.StatusCancelled:
		return nil, &apperr.Error{Status: http.StatusUnprocessableEntity, Code: "CLASS_CANCELLED", Message: "the class is cancelled"}
	case !s.now().Before(cl.EndTime):
		return nil, &apperr.Error{Status: http.StatusUnprocessableEntity, Code: "CLASS_ENDED", Message: "the class has ended"}
	}
	if amountMinor != nil {
		org, err := s.client.Organization.Get(ctx, cl.OrganizationID)
		if err != nil {
			return nil, fmt.Errorf("guests: venue: %w", err)
		}
		if !strings.EqualFold(org.Currency, currency) {
			return nil, (&apperr.Error{Status: http.StatusUnprocessableEntity, Code: "VALIDATION_FAILED",
				Message: "the guest price is in the venue's currency"}).
				With("field", "currency").With("reason", "currency_mismatch").With("currency", strings.ToUpper(org.Currency))
		}
		currency = strings.ToUpper(org.Currency)
	}
	err = events.WithTx(ctx, s.client, func(ctx context.Context, tx *ent.Tx) error {
		cur, err := tx.ClassGuestPrice.Query().Where(classguestprice.ClassInstanceID(classID)).ForUpdate().Only(ctx)
		if err != nil && !ent.IsNotFound(err) {
			return err
		}
		e := audit.Entry{Target: "class:" + classID.String(), Details: map[string]any{}}
		if cur != nil {
			e.Details["before"] = map[string]any{"amount_minor": cur.AmountMinor, "currency": cur.Currency}
		}
		var by *uuid.UUID
		if u, ok := viewer.UserFromContext(ctx); ok {
			e.ActorKind, e.UserID, by = audit.KindUser, &u.UserID, &u.UserID
		}
		switch {
		case amountMinor == nil && cur == nil:
			return nil // nothing to clear: the default rule applies already
		case amountMinor == nil:
			e.Action = AuditClassGuestPriceCleared
			if err := tx.ClassGuestPrice.DeleteOne(cur).Exec(ctx); err != nil {
				return err
			}
		case cur == nil:
			e.Action = AuditClassGuestPriceSet
			if err := tx.ClassGuestPrice.Create().SetClassInstanceID(classID).SetAmountMinor(*amountMinor).
				SetCurrency(currency).SetNillableSetBy(by).Exec(ctx); err != nil {
				return err
			}
		default:
			e.Action = AuditClassGuestPriceSet
			if err := tx.ClassGuestPrice.UpdateOne(cur).SetAmountMinor(*amountMinor).SetCurrency(currency).
				SetNillableSetBy(by).Exec(ctx); err != nil {
				return err
			}
		}
		if amountMinor != nil {
			e.Details["after"] = map[string]any{"amount_minor": *amountMinor, "currency": currency}
		}
		_, err = audit.Record(ctx, tx.Client(), e)
		return err
	})
	if ent.IsConstraintError(err) && retry { // a concurrent first price of the class won: set it again over it
		return s.setClassPrice(ctx, classID, amountMinor, currency, false)
	}
	if err != nil {
		return nil, fmt.Errorf("guests: class guest price: %w", err)
	}
	return classPriceOf(ctx, s.client, classID)
}

func classPriceOf(ctx context.Context, c *ent.Client, classID uuid.UUID) (*ClassPrice, error) {
	out := &ClassPrice{ClassID: classID}
	own, err := c.ClassGuestPrice.Query().Where(classguestprice.ClassInstanceID(classID)).Only(ctx)
	if err != nil && !ent.IsNotFound(err) {
		return nil, fmt.Errorf("guests: class guest price: %w", err)
	}
	if own != nil {
		out.Override = &Price{AmountMinor: own.AmountMinor, Currency: strings.ToUpper(own.Currency)}
	}
	p, source, ok, err := guestPrice(ctx, c, classID)
	if err != nil {
		return nil, err
	}
	if ok {
		out.Effective, out.Source = &p, source
	}
	return out, nil
}

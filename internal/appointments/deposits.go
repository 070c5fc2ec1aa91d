package appointments

import (
	"context"
	"math"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/service"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/events"
	"github.com/venueplatform/venue/internal/money"
)

// Deposit kinds of a service: none (the whole price is due when payment is
// taken at booking), a fixed amount, or a percentage of the booking's price.
const (
	DepositNone    = "none"
	DepositFixed   = "fixed"
	DepositPercent = "percent"
)

// DepositSetting is a service's own deposit rule.
type DepositSetting struct {
	Service *ent.Service
	Kind    string
}

// DepositSettingOf is svc's deposit rule.
func DepositSettingOf(svc *ent.Service) DepositSetting {
	switch {
	case svc.DepositMinor != nil:
		return DepositSetting{Service: svc, Kind: DepositFixed}
	case svc.DepositPercentBp != nil:
		return DepositSetting{Service: svc, Kind: DepositPercent}
	}
	return DepositSetting{Service: svc, Kind: DepositNone}
}

// ServiceDeposit reads the deposit rule of service id of the viewer's venue
// (404 for an unknown or foreign service).
func ServiceDeposit(ctx context.Context, c *ent.Client, id uuid.UUID) (DepositSetting, error) {
	svc, err := ServiceOf(ctx, c, id)
	if err != nil {
		return DepositSetting{}, err
	}
	return DepositSettingOf(svc), nil
}

// DepositChange is a new deposit rule: Kind none takes nothing else; fixed
// takes Amount (major units) in Currency, which must be the service's;
// percent takes Percent (more than 0, at most 100, two decimals at most).
type DepositChange struct {
	Kind     string
	Amount   *float64
	Currency string
	Percent  *float64
}

// SetServiceDeposit replaces the deposit rule of service id of the viewer's
// venue, in one transaction with its audit entry (service.deposit_updated).
// Refused with 400 VALIDATION_ERROR and nothing changed: a negative, zero or
// over-precise amount, an amount above the service's price, another
// currency than the service's, a percentage outside (0, 100], or fields the
// kind does not take. Variants keep their own deposits, which win over the
// service's; what a booking owes at checkout reads the rule at booking.
func SetServiceDeposit(ctx context.Context, client *ent.Client, id uuid.UUID, ch DepositChange) (DepositSetting, error) {
	var out DepositSetting
	err := events.WithTx(ctx, client, func(ctx context.Context, tx *ent.Tx) error {
		c := tx.Client()
		svc, err := c.Service.Query().Where(service.ID(id)).ForUpdate().Only(ctx)
		if ent.IsNotFound(err) {
			return ErrServiceNotFound
		}
		if err != nil {
			return err
		}
		upd := c.Service.UpdateOne(svc)
		details := map[string]any{"kind": ch.Kind}
		switch ch.Kind {
		case DepositNone:
			if ch.Amount != nil || ch.Percent != nil || ch.Currency != "" {
				return apperr.Validation("kind", "a deposit of kind none takes no amount, currency or percent")
			}
			upd.ClearDepositMinor().ClearDepositPercentBp()
		case DepositFixed:
			minor, err := depositAmount(svc, ch)
			if err != nil {
				return err
			}
			upd.SetDepositMinor(minor).ClearDepositPercentBp()
			details["amount_minor"] = minor
		case DepositPercent:
			if ch.Amount != nil || ch.Currency != "" {
				return apperr.Validation("percent", "a percentage deposit takes no amount or currency")
			}
			if ch.Percent == nil {
				return apperr.Validation("percent", "required for a percentage deposit")
			}
			bp := math.Round(*ch.Percent * 100)
			if *ch.Percent <= 0 || *ch.Percent > 100 || math.Abs(bp-*ch.Percent*100) > 1e-6 {
				return apperr.Validation("percent", "more than 0 and at most 100, with at most two decimals")
			}
			upd.SetDepositPercentBp(int(bp)).ClearDepositMinor()
			details["percent_bp"] = int(bp)
		default:
			return apperr.Validation("kind", "none, fixed or percent")
		}
		if svc, err = upd.Save(ctx); err != nil {
			return err
		}
		out = DepositSettingOf(svc)
		return serviceAudit(ctx, c, "service.deposit_updated", svc.ID, details)
	})
	return out, err
}

// depositAmount checks a fixed deposit of ch against svc and answers it in
// minor units.
func depositAmount(svc *ent.Service, ch DepositChange) (int64, error) {
	if ch.Percent != nil {
		return 0, apperr.Validation("percent", "a fixed deposit takes no percent")
	}
	if ch.Amount == nil || ch.Currency == "" {
		return 0, apperr.Validation("amount", "a fixed deposit needs amount and currency")
	}
	if ch.Currency != svc.Currency {
		return 0, apperr.Validation("currency", "the deposit is in the service's currency").With("currency", svc.Currency)
	}
	if *ch.Amount <= 0 {
		return 0, apperr.Validation("amount", "a fixed deposit is more than zero")
	}
	minor := money.ToMinor(*ch.Amount, svc.Currency)
	if math.Abs(money.ToMajor(minor, svc.Currency)-*ch.Amount) > 1e-9 {
		return 0, apperr.Validation("amount", "more decimals than the currency has")
	}
	if err := depositWithinPrice(&minor, svc.PriceMinor); err != nil {
		return 0, apperr.Validation("amount", "a deposit is at most the service's price").With("price_minor", svc.PriceMinor)
	}
	return minor, nil
}

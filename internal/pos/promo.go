package pos

import (
	"context"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/audit"
)

// Exception is a promo-window exception: the desk honours, for one sale,
// an offer that has ended (flash_sale_after_end) or a code redeemed late
// (late_code_redemption), with the clerk's reason, audited.
type Exception struct {
	Kind   string
	Reason string
}

// auditException records the exception a sale was made under, with its
// reason, in the sale's transaction (nothing when the sale had none).
func auditException(ctx context.Context, tx *ent.Tx, sale *ent.PosSale) error {
	if sale.PromoExceptionKind == nil {
		return nil
	}
	reason := ""
	if sale.PromoExceptionReason != nil {
		reason = *sale.PromoExceptionReason
	}
	_, err := audit.Record(ctx, tx.Client(), audit.Entry{Action: "pos.promo_window_exception", Target: "pos_sale:" + sale.ID.String(),
		Outcome: "success", Details: map[string]any{"kind": *sale.PromoExceptionKind, "reason": reason,
			"sale_id": sale.ID.String(), "total_minor": sale.TotalMinor, "currency": sale.Currency}})
	return err
}

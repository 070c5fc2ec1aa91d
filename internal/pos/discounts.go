package pos

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/promos"
)

// Discounts at the desk are the venue's promo codes (package promos),
// priced by quote like everything else a sale charges: a code on a pass
// takes its discount off the pass type's price; on products, off the lines
// it names (every line when it names none). A sale paid at once (cash, gift
// card) counts the code's use in its own transaction; a sale waiting for its
// money (a card sale, a pass's checkout) holds the use until the money
// counts it or the wait lapses and gives it back.

// claimPromo holds q's code's use for subject (the card sale, or the pass's
// checkout) until its money arrives; nothing without a code.
func claimPromo(ctx context.Context, tx *ent.Tx, q *Quote, memberID, subject uuid.UUID, x *Exception, now time.Time) error {
	if q.Promo == nil {
		return nil
	}
	return promos.Claim(ctx, tx, q.Promo, memberID, subject, q.Currency, false, x.lateReason(), now)
}

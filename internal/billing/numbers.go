package billing

import (
	"context"
	"fmt"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/invoicecounter"
)

// nextNumber takes the venue's next invoice sequence of year in tx: the
// counter row is made when missing (a concurrent maker loses quietly), then
// locked, read and moved on, so a rolled-back invoice gives its number back
// and numbers stay gapless.
func nextNumber(ctx context.Context, tx *ent.Tx, year int) (int, string, error) {
	if err := tx.InvoiceCounter.Create().SetYear(year).SetNext(1).
		OnConflictColumns(invoicecounter.FieldOrganizationID, invoicecounter.FieldYear).DoNothing().Exec(ctx); err != nil && !isNoRows(err) {
		return 0, "", fmt.Errorf("billing: invoice counter: %w", err)
	}
	c, err := tx.InvoiceCounter.Query().Where(invoicecounter.Year(year)).ForUpdate().Only(ctx)
	if err != nil {
		return 0, "", fmt.Errorf("billing: invoice counter: %w", err)
	}
	seq := c.Next
	if err := tx.InvoiceCounter.UpdateOne(c).SetNext(seq + 1).Exec(ctx); err != nil {
		return 0, "", fmt.Errorf("billing: invoice counter: %w", err)
	}
	return seq, fmt.Sprintf("%d-%06d", year, seq), nil
}

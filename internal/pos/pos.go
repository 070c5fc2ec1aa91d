package pos

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/internal/apperr"
	"github.com/venueplatform/venue/internal/viewer"
)

// The staff permissions of the point of sale.
const (
	PermAccess    = "pos.access"
	PermSell      = "pos.sell"
	PermManage    = "pos.manage"
	PermInventory = "products.manage_inventory"
)

// Limits of a cart.
const (
	MaxLines    = 50
	MaxQuantity = 99
)

// Service is the point of sale over one ent client.
type Service struct {
	client *ent.Client
	now    func() time.Time
}

// New returns a Service; now nil is time.Now.
func New(client *ent.Client, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{client: client, now: now}
}

// Staff is the signed-in staff member of the context holding at least one
// of perms (all of them when all is true): 403 ACCESS_DENIED otherwise.
func Staff(ctx context.Context, all bool, perms ...string) (viewer.User, error) {
	u, ok := viewer.UserFromContext(ctx)
	if ok && u.MemberID == uuid.Nil {
		n := 0
		for _, p := range perms {
			if u.HasPermission(p) {
				n++
			}
		}
		if (all && n == len(perms)) || (!all && n > 0) {
			return u, nil
		}
	}
	return viewer.User{}, apperr.AccessDenied("permission", "a required staff permission is missing").
		With("required_permissions", perms)
}

func unprocessable(code, message string) *apperr.Error {
	return &apperr.Error{Status: http.StatusUnprocessableEntity, Code: code, Message: message}
}

func conflict(code, message string) *apperr.Error {
	return &apperr.Error{Status: http.StatusConflict, Code: code, Message: message}
}

// venueDay is the venue-local date of t (midnight UTC of that date) and the
// venue's currency.
func venueDay(ctx context.Context, client *ent.Client, t time.Time) (time.Time, string, error) {
	org, err := client.Organization.Query().Only(ctx)
	if err != nil {
		return time.Time{}, "", fmt.Errorf("pos: venue: %w", err)
	}
	loc, err := time.LoadLocation(org.Timezone)
	if err != nil {
		loc = time.UTC
	}
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), 0, 0, 0, 0, time.UTC), org.Currency, nil
}

// vatRate is the VAT rate (basis points) the venue's prices include.
func vatRate(ctx context.Context, client *ent.Client) (int, error) {
	vp, err := client.VenuePayments.Query().Only(ctx)
	switch {
	case ent.IsNotFound(err):
		return 2500, nil
	case err != nil:
		return 0, fmt.Errorf("pos: venue payments: %w", err)
	}
	return vp.VatRateBp, nil
}

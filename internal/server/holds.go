package server

import (
	"context"
	"time"

	"github.com/venueplatform/venue/internal/config"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/guests"
	"github.com/venueplatform/venue/internal/pos"
)

// runLapsedHoldSweep gives back, every minute until ctx ends, what holds
// that lapsed unpaid held (payments' lapse.go): checkouts (offer places and
// spent credit), guest places (seats, offered to the next guest waiting) and
// desk card sales (stock). The payments their members left waiting are
// cancelled at Stripe by a job.
func runLapsedHoldSweep(ctx context.Context, d Deps, c config.Config) {
	pay := paymentsService(d, c)
	for _, k := range []payments.HoldKind{
		pay.CheckoutHolds(),
		guests.New(d.Client, pay, nil).Holds(),
		pos.New(d.Client, nil).CardSaleHolds(),
	} {
		go every(ctx, d.Log, time.Minute, "lapsed "+k.Name+" holds", func(ctx context.Context) (int, error) {
			return k.Sweep(ctx, d.Client, time.Now())
		})
	}
}

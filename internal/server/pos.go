package server

import (
	"time"

	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/limits"
)

// kioskPin bounds guessing of staff kiosk PINs: 10 checks a minute per
// signed-in caller.
var kioskPin = limits.Policy{Name: "pos-kiosk-pin", Limit: 10, Window: time.Minute}

func init() {
	// The point of sale's writes (spec/parts/admin_pos.yaml): a required key
	// of 1 to 200 characters. Returns keep their own key (8 to 160 ASCII
	// characters) in the domain, for the contract's POS_RETURN_KEY_CONFLICT.
	for _, op := range []string{"createPosProduct", "createPosSale", "sellPosGiftCard", "closePosDay",
		"setPosFavorites", "setPosKioskPin"} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
	operationLimits["checkPosKioskPin"] = limits.Rule{PerKey: &kioskPin}
}

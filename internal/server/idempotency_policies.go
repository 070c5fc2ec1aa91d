package server

import "github.com/venueplatform/venue/internal/idempotency"

// Writes whose document requires an Idempotency-Key and that had no replay
// policy: a retry with the same key now replays the first answer instead of
// running the write again (internal/server's registry test holds every
// required key of the document to a policy).
func init() {
	for _, op := range []string{
		"scheduleFlexibleChange",
		"setAdminCheckoutDocumentActive",
		"setAdminPassTypeShareSlots", "addAdminPassShare", "revokeAdminPassShare", "cancelAdminPassShareInvite",
		"setAdminRateLock", "removeAdminRateLock",
		"createPromoCode", "updatePromoCode",
		"redeemPosPartnerCode",
	} {
		idempotencyPolicies[op] = idempotency.Required(idempotency.Max200)
	}
}

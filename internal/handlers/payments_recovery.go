package handlers

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/google/uuid"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/passtype"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/viewer"
)

// RecoverCheckout implements api.Handler: the read-only status of an earlier
// purchase request, found by the digest the purchase stored of its
// Idempotency-Key.
func (h *Handler) RecoverCheckout(ctx context.Context, req *api.CheckoutRecoveryRequest, p api.RecoverCheckoutParams) (*api.CheckoutRecoveryResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	var r *payments.Recovery
	switch req.Kind {
	case api.CheckoutRecoveryRequestKindProductPackage:
		keys, err := h.recoveryKeys(mctx, ctx, p.XOrganizationID, p.XOrganizationSlug.Or(""), req.OriginalIdempotencyKey)
		if err != nil {
			return nil, err
		}
		ok, err := h.client.PassType.Query().Where(passtype.ID(req.ItemID)).Exist(mctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			keys = nil // another venue's or an unknown item: nothing under it
		}
		if r, err = h.payments().Recover(mctx, mid, req.ItemID, keys); err != nil {
			return nil, err
		}
	default:
		// Nothing of kind service is sold online yet.
		if r, err = h.payments().Recover(mctx, mid, req.ItemID, nil); err != nil {
			return nil, err
		}
	}
	out := api.CheckoutRecovery{
		Status:        api.CheckoutRecoveryStatus(r.Status),
		RetryPolicy:   api.CheckoutRecoveryRetryPolicy(r.RetryPolicy),
		PaymentStatus: api.CheckoutRecoveryPaymentStatus(r.PaymentStatus),
	}
	if co := r.Checkout; co != nil {
		out.OperationID = api.NewNilUUID(co.ID)
		out.AmountMinor = api.NewNilInt64(co.AmountMinor)
		out.Currency = api.NewNilString(co.Currency)
	} else {
		out.OperationID.SetToNull()
		out.AmountMinor.SetToNull()
		out.Currency.SetToNull()
	}
	return &api.CheckoutRecoveryResponse{Data: out}, nil
}

// recoveryKeys are the digests a purchase under key may have stored
// (idempotency.Derive of purchaseCheckout): the key's scope was the caller's
// session venue, or the venue header as sent, by id or by slug.
func (h *Handler) recoveryKeys(mctx, ctx context.Context, org uuid.UUID, slug, key string) ([]string, error) {
	v := viewer.FromContext(ctx)
	if v == nil {
		return nil, nil
	}
	scopes := []string{org.String()}
	if id, ok := v.Venue(); ok && id != org {
		scopes = append(scopes, id.String())
	}
	o, err := h.client.Organization.Get(mctx, org)
	switch {
	case ent.IsNotFound(err):
	case err != nil:
		return nil, err
	default:
		scopes = append(scopes, "slug:"+o.Slug)
	}
	if slug = strings.ToLower(strings.TrimSpace(slug)); slug != "" {
		scopes = append(scopes, "slug:"+slug)
	}
	out := make([]string, 0, len(scopes))
	for _, s := range scopes {
		sum := sha256.Sum256([]byte(s + "\x00" + v.Actor() + "\x00" + key + "\x00" + "purchaseCheckout"))
		out = append(out, hex.EncodeToString(sum[:]))
	}
	return out, nil
}

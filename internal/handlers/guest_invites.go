package handlers

import (
	"context"
	"net/url"

	"github.com/venueplatform/venue/ent"
	"github.com/venueplatform/venue/ent/guestinvite"
	"github.com/venueplatform/venue/internal/apperr"
	api "github.com/venueplatform/venue/internal/gen/api"
	"github.com/venueplatform/venue/internal/idempotency"
	"github.com/venueplatform/venue/internal/money"
	"github.com/venueplatform/venue/internal/payments"
	"github.com/venueplatform/venue/internal/payments/guests"
	"github.com/venueplatform/venue/internal/viewer"
)

// guestInvites is the guest invitation service, charging through the
// handler's payments service.
func (h *Handler) guestInvites() *guests.Service { return guests.New(h.client, h.payments(), h.now) }

// ResolveGuestInvite implements api.Handler.
func (h *Handler) ResolveGuestInvite(ctx context.Context, p api.ResolveGuestInviteParams) (*api.GuestInviteResponse, error) {
	r, err := h.guestInvites().Resolve(ctx, p.Token)
	if err != nil {
		return nil, err
	}
	return &api.GuestInviteResponse{Data: guestInviteOut(r)}, nil
}

// CheckoutGuestInvite implements api.Handler.
func (h *Handler) CheckoutGuestInvite(ctx context.Context, p api.CheckoutGuestInviteParams) (*api.GuestInviteCheckoutResponse, error) {
	co, err := h.guestInvites().GuestCheckout(ctx, p.Token)
	if err != nil {
		return nil, err
	}
	return &api.GuestInviteCheckoutResponse{Data: guestCheckoutOut(co)}, nil
}

// JoinGuestInviteWaitlist implements api.Handler.
func (h *Handler) JoinGuestInviteWaitlist(ctx context.Context, p api.JoinGuestInviteWaitlistParams) (*api.GuestInviteWaitlistResponse, error) {
	svc := h.guestInvites()
	w, err := svc.JoinWaitlist(ctx, p.Token)
	if err != nil {
		return nil, err
	}
	r, err := svc.Resolve(ctx, p.Token)
	if err != nil {
		return nil, err
	}
	return &api.GuestInviteWaitlistResponse{Data: api.GuestInviteWaitlistResponseData{
		Position: w.Position, AlreadyOnWaitlist: w.AlreadyOnWaiting, State: api.GuestInviteState(r.State),
	}}, nil
}

// GetGuestInviteEligibility implements api.Handler.
func (h *Handler) GetGuestInviteEligibility(ctx context.Context, p api.GetGuestInviteEligibilityParams) (*api.GuestInviteEligibilityResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	svc := h.guestInvites()
	el, err := svc.Eligibility(mctx, mid, p.ClassInstanceID)
	if err != nil {
		return nil, err
	}
	d := api.GuestInviteEligibilityResponseData{Eligible: el.Eligible, OpenInvitations: make([]api.HostGuestInvite, 0, len(el.Open))}
	d.Reason.SetToNull()
	if el.Reason != "" {
		d.Reason.SetTo(api.GuestInviteEligibilityResponseDataReason(el.Reason))
	}
	d.CompareAtPrice.SetToNull()
	d.CompareAtPriceMinor.SetToNull()
	if el.Price != nil {
		d.GuestPrice.SetTo(guestPriceOut(el.Price.AmountMinor, el.Price.Currency))
		if c := el.Price.CompareAtMinor; c != nil {
			d.CompareAtPrice.SetTo(money.ToMajor(*c, el.Price.Currency))
			d.CompareAtPriceMinor.SetTo(*c)
		}
	}
	for _, inv := range el.Open {
		d.OpenInvitations = append(d.OpenInvitations, h.hostGuestInviteOut(mctx, svc, inv, ""))
	}
	return &api.GuestInviteEligibilityResponse{Data: d}, nil
}

// CreateGuestInvites implements api.Handler.
func (h *Handler) CreateGuestInvites(ctx context.Context, req *api.GuestInviteCreateRequest, p api.CreateGuestInvitesParams) (*api.HostGuestInviteListResponse, error) {
	mctx, _, mid, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	cp := guests.CreateParams{
		ClassID: req.ClassInstanceID, Payer: guestinvite.Payer(req.Payer), ReturnBaseURL: req.ReturnBaseURL.String(),
		Spots: req.Spots.Or(1), GuestName: req.GuestName.Or(""), GuestEmail: req.GuestEmail.Or(""),
	}
	cp.RequestKey, _ = idempotency.Derive(ctx, "createGuestInvites")
	svc := h.guestInvites()
	made, err := svc.Create(mctx, mid, cp)
	if err != nil {
		return nil, err
	}
	out := make([]api.HostGuestInvite, 0, len(made))
	for _, c := range made {
		out = append(out, h.hostGuestInviteOut(mctx, svc, c.Invite, c.Token))
	}
	return &api.HostGuestInviteListResponse{Data: out}, nil
}

// WithdrawGuestInvite implements api.Handler.
func (h *Handler) WithdrawGuestInvite(ctx context.Context, p api.WithdrawGuestInviteParams) (*api.HostGuestInviteResponse, error) {
	mctx, _, _, err := h.asMember(ctx, p.XOrganizationID)
	if err != nil {
		return nil, err
	}
	svc := h.guestInvites()
	inv, err := svc.Withdraw(mctx, p.InviteId)
	if err != nil {
		return nil, err
	}
	return &api.HostGuestInviteResponse{Data: h.hostGuestInviteOut(mctx, svc, inv, "")}, nil
}

// ClaimGuestInvite implements api.Handler.
func (h *Handler) ClaimGuestInvite(ctx context.Context, req *api.GuestInviteTokenRequest) (*api.GuestInviteResponse, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, apperr.Unauthorized("a user session is required")
	}
	r, err := h.guestInvites().Claim(ctx, req.Token, u.UserID)
	if err != nil {
		return nil, err
	}
	return &api.GuestInviteResponse{Data: guestInviteOut(r)}, nil
}

// CheckoutGuestInviteSignedIn implements api.Handler.
func (h *Handler) CheckoutGuestInviteSignedIn(ctx context.Context, req *api.GuestInviteSignedInCheckoutRequest) (*api.GuestInviteCheckoutResponse, error) {
	u, ok := viewer.UserFromContext(ctx)
	if !ok {
		return nil, apperr.Unauthorized("a user session is required")
	}
	co, err := h.guestInvites().SignedInCheckout(ctx, req.Token, u.UserID, req.PaymentMethodID.Or(""))
	if err != nil {
		return nil, err
	}
	return &api.GuestInviteCheckoutResponse{Data: guestCheckoutOut(co)}, nil
}

func guestPriceOut(minor int64, currency string) api.GuestPrice {
	return api.GuestPrice{Amount: money.ToMajor(minor, currency), AmountMinor: minor, Currency: currency,
		CurrencyExponent: money.Exponent(currency)}
}

func guestInviteOut(r *guests.Resolved) api.GuestInvite {
	inv := r.Invite
	out := api.GuestInvite{
		ID: inv.ID, State: api.GuestInviteState(r.State), Payer: api.GuestInvitePayer(inv.Payer),
		ClassInstanceID: inv.ClassInstanceID, StartTime: r.Class.StartTime.UTC(), EndTime: r.Class.EndTime.UTC(),
		VenueName: r.Venue.Name, VenueSlug: r.Venue.Slug, GuestPrice: guestPriceOut(inv.PriceMinor, inv.Currency),
		Claimed: inv.ClaimedUserID != nil,
	}
	out.CompareAtPrice.SetToNull()
	out.CompareAtPriceMinor.SetToNull()
	if c := inv.CompareAtMinor; c != nil {
		out.CompareAtPrice.SetTo(money.ToMajor(*c, inv.Currency))
		out.CompareAtPriceMinor.SetTo(*c)
	}
	out.HoldExpiresAt.SetToNull()
	if inv.Status == guestinvite.StatusHeld {
		out.HoldExpiresAt.SetTo(inv.HoldExpiresAt.UTC())
	}
	out.WaitlistPosition.SetToNull()
	if inv.WaitlistPosition != nil {
		out.WaitlistPosition.SetTo(*inv.WaitlistPosition)
	}
	return out
}

func guestCheckoutOut(co *guests.Checkout) api.GuestInviteCheckout {
	c := co.Charge
	out := api.GuestInviteCheckout{
		Invite: guestInviteOut(co.Resolved), CheckoutURL: guests.CheckoutURL(co.Resolved.Invite, c),
		PaymentStatus: api.GuestInviteCheckoutPaymentStatus(c.Status),
	}
	out.PaymentIntentID.SetToNull()
	if c.IntentID != "" {
		out.PaymentIntentID.SetTo(c.IntentID)
	}
	out.ClientSecret.SetToNull()
	if c.ClientSecret != "" && c.Status != payments.StatusPaid {
		out.ClientSecret.SetTo(c.ClientSecret)
	}
	out.ProcessorAccountID.SetToNull()
	if c.AccountID != "" {
		out.ProcessorAccountID.SetTo(c.AccountID)
	}
	return out
}

// hostGuestInviteOut is a place as its host sees it; token is set only in
// the answer that made it.
func (h *Handler) hostGuestInviteOut(ctx context.Context, svc *guests.Service, inv *ent.GuestInvite, token string) api.HostGuestInvite {
	out := api.HostGuestInvite{
		ID: inv.ID, ClassInstanceID: inv.ClassInstanceID, Payer: api.HostGuestInvitePayer(inv.Payer),
		Status: api.HostGuestInviteStatus(inv.Status), State: api.GuestInviteState(svc.StateOf(ctx, inv)),
		GuestPrice: guestPriceOut(inv.PriceMinor, inv.Currency), GuestName: inv.GuestName, GuestEmail: inv.GuestEmail,
		Claimed: inv.ClaimedUserID != nil, CreatedAt: inv.CreatedAt.UTC(),
	}
	out.CompareAtPrice.SetToNull()
	out.CompareAtPriceMinor.SetToNull()
	if c := inv.CompareAtMinor; c != nil {
		out.CompareAtPrice.SetTo(money.ToMajor(*c, inv.Currency))
		out.CompareAtPriceMinor.SetTo(*c)
	}
	out.HoldExpiresAt.SetToNull()
	if inv.Status == guestinvite.StatusHeld {
		out.HoldExpiresAt.SetTo(inv.HoldExpiresAt.UTC())
	}
	out.WaitlistPosition.SetToNull()
	if inv.WaitlistPosition != nil {
		out.WaitlistPosition.SetTo(*inv.WaitlistPosition)
	}
	out.PaidAt.SetToNull()
	if inv.PaidAt != nil {
		out.PaidAt.SetTo(inv.PaidAt.UTC())
	}
	out.Token.SetToNull()
	out.InviteURL.SetToNull()
	if token != "" {
		out.Token.SetTo(token)
		out.InviteURL.SetTo(inviteURL(inv.ReturnBaseURL, token))
	}
	return out
}

// inviteURL is the link a host sends: the return base URL with the token in
// the query.
func inviteURL(base, token string) string {
	u, err := url.Parse(base)
	if err != nil {
		return base
	}
	q := u.Query()
	q.Set("guest_invite_token", token)
	u.RawQuery = q.Encode()
	return u.String()
}
